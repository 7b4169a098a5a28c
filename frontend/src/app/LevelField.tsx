// A choice of computer player level (easy, medium, hard), as a labelled field.
import { useTranslation } from "react-i18next";
import { LEVELS, isLevel, twinLevel } from "./seatName";

export function LevelField({ label, value, onChange, className = "" }: {
  label: string;
  value: string;
  onChange: (level: string) => void;
  className?: string;
}) {
  return (
    <label className={`field ${className}`.trim()}>
      <span className="field-label">{label}</span>
      <select value={value} onChange={(event) => onChange(event.target.value)}>
        <LevelOptions />
      </select>
    </label>
  );
}

/** The levels as a list's options, weakest first, each named in the page's language. */
export function LevelOptions() {
  const { t } = useTranslation();
  return (
    <>
      {LEVELS.map((level) => (
        <option key={level} value={level}>
          {t(`bots.${level}`)}
        </option>
      ))}
    </>
  );
}

/** A seated computer player's level as a list (the host's): ``bot`` is the player now,
 * shown as itself where it is no level ("greedy" seated through the API). Where a level
 * of ``game`` seats it unchanged, the seat's name beside the list says which ("Simulator
 * 4 · Hard"), as do the option's tooltip and its name for a screen reader: its text stays
 * short (with the level, a phone's row ran past the screen's edge). */
export function BotLevelSelect({ game, bot, label, onChange, className }: {
  game: string;
  bot: string;
  label: string;
  onChange: (bot: string) => void;
  className?: string;
}) {
  const { t } = useTranslation();
  const name = t(`bots.${bot}`, { defaultValue: bot });
  const level = twinLevel(game, bot);
  const same = (level: string) =>
    t("ui.lobby.twin_label", { option: name, other: t("ui.lobby.computer_level", { level: t(`bots.${level}`) }) });
  return (
    <select className={className} aria-label={label} value={bot} onChange={(event) => onChange(event.target.value)}>
      {!isLevel(bot) && (
        <option value={bot} {...(level ? { title: same(level), "aria-label": same(level) } : {})}>
          {name}
        </option>
      )}
      <LevelOptions />
    </select>
  );
}
