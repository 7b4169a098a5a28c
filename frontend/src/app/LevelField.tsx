// A choice of computer player level (easy, medium, hard), as a labelled field.
import { useTranslation } from "react-i18next";
import { LEVELS, isLevel } from "./seatName";

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
 * shown as itself where it is no level ("greedy" seated through the API). */
export function BotLevelSelect({ bot, label, onChange, className }: {
  bot: string;
  label: string;
  onChange: (bot: string) => void;
  className?: string;
}) {
  const { t } = useTranslation();
  return (
    <select className={className} aria-label={label} value={bot} onChange={(event) => onChange(event.target.value)}>
      {!isLevel(bot) && <option value={bot}>{t(`bots.${bot}`, { defaultValue: bot })}</option>}
      <LevelOptions />
    </select>
  );
}
