// The start page: pick a game, its seats and options, and create a table.
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { GAMES } from "../games/registry";
import { HowToPlay } from "./HowToPlay";
import { LEFT_KEY } from "./LeaveTable";
import { scrollBehavior } from "./motion";
import { ApiError, api, tokens, type ClockRequest } from "./api";
import { applicableOptions, languageDefaults } from "./ConfigForm";
import { OptionsFields, OptionsRefusal, refusedBy, useOptionsCheck } from "./OptionsFields";
import { RecordFileInput } from "./ReplayPage";
import { navigate } from "./router";
import { seatCounts } from "./seatCounts";
import { isLevel } from "./seatName";
import { translateError } from "./translateError";
import type { ErrorMessage, GameDescription } from "./types";
import { useGames } from "./useGames";
import { useNarrow } from "./useLayout";
import { YourTables } from "./YourTables";
import { upTo } from "./limitText";
import { NAME_MAX, NameLimit } from "./NameLimit";

type SeatChoice = "you" | "friend" | `bot:${string}`;

function defaultSeats(count: number, bots: string[], preferred?: string): SeatChoice[] {
  const name = preferred && bots.includes(preferred) ? preferred : bots.includes("medium") ? "medium" : bots[0] ?? "random";
  const bot: SeatChoice = `bot:${name}`;
  return Array.from({ length: count }, (_, i) => (i === 0 ? "you" : i === 1 ? "friend" : bot));
}

export function Lobby() {
  const { t } = useTranslation();
  const { data, failed } = useGames();
  const [gameName, setGameName] = useState<string | null>(null);
  // The person's name is the same whichever game they choose (switching games cleared
  // it, and the table seated them as "Player 1").
  const [name, setName] = useState(tokens.name());
  // Just back from leaving a table: said once (it landed here without a word).
  const [left] = useState(() => sessionStorage.getItem(LEFT_KEY));
  useEffect(() => sessionStorage.removeItem(LEFT_KEY), []);

  if (failed) return <p className="notice error">{t("ui.errors.server_unreachable")}</p>;
  if (!data) return <p className="notice">{t("ui.loading")}</p>;
  const games = data.games.filter((g) => g.name in GAMES);
  const game = games.find((g) => g.name === gameName) ?? games[0];

  return (
    <div className="lobby">
      <section className="lobby-intro">
        <h1>{t("ui.lobby.title")}</h1>
        {(left === "waiting" || left === "begun") && (
          <p className="notice" role="status" data-left={left}>{t(`ui.leave.left_${left}`)}</p>
        )}
        <p>{t("ui.lobby.intro")}</p>
      </section>
      <YourTables />
      <section className="game-picker" aria-label={t("ui.lobby.choose_game")}>
        {games.map((g) => (
          <button
            key={g.name}
            type="button"
            className={`game-card ${g.name === game?.name ? "selected" : ""}`}
            aria-pressed={g.name === game?.name}
            onClick={() => {
              setGameName(g.name);
              // On a phone the table's form (seats, options) is below the fold while
              // "Create table" stays in sight: bring the form up.
              if (window.matchMedia("(max-width: 43.75em)").matches) {
                window.setTimeout(() =>
                  document.querySelector(".new-table")?.scrollIntoView({ block: "start", behavior: scrollBehavior() }),
                );
              }
            }}
          >
            <span className="game-card-title">{t(`games.${g.name}.title`)}</span>
            <span className="game-card-blurb">{t(`games.${g.name}.blurb`)}</span>
            <span className="game-card-seats">
              {t("ui.lobby.players", { list: seatCounts(g.seats.allowed) })}
            </span>
          </button>
        ))}
      </section>
      {game && <HowToPlay game={game.name} className="lobby-how" />}
      {game && <NewTable key={game.name} game={game} bots={game.bots ?? data.bots} name={name} setName={setName} />}
      <section className="panel lobby-replay" aria-labelledby="lobby-replay-title">
        <h2 id="lobby-replay-title">{t("ui.replay.lobby_title")}</h2>
        <RecordFileInput />
      </section>
    </div>
  );
}

function NewTable({ game, bots, name, setName }: {
  game: GameDescription;
  bots: string[];
  /** The name typed, kept by the lobby across games. */
  name: string;
  setName: (name: string) => void;
}) {
  const { t, i18n } = useTranslation();
  const preferred = GAMES[game.name]?.defaultBot;
  // Room for "Computer player (Thoughtful · Hard)" in the seat menu's width, in every
  // language: from 768 px at the default text size (at 701 the Norwegian was cut short).
  const narrow = useNarrow("(max-width: 47.99em)");
  // The players a level seats unchanged ("rollout" is Sequence Cats' "hard"), each with
  // its level, and the other way round.
  const twins = Object.fromEntries(Object.entries(game.levels ?? {}).filter(([, bot]) => bots.includes(bot)));
  const levelOf: Record<string, string> = Object.fromEntries(Object.entries(twins).map(([level, bot]) => [bot, level]));
  const botTitle = (bot: string) => t(`bots.${bot}`, { defaultValue: bot });
  // A level's own words: its adjective agrees with their word for a computer
  // (Icelandic "Tölva (Auðveld)", not "Tölvuleikmaður").
  const botOption = (bot: string) =>
    isLevel(bot) ? t("ui.lobby.computer_level", { level: t(`bots.${bot}`) }) : t("ui.lobby.computer", { bot: botTitle(bot) });
  /** What a computer player by name does that its name alone does not say (Dixit's
   * "Thoughtful" understands clues), where the catalog tells it: under the menu once
   * chosen and in the option's tooltip, as the menu's text is one short line on a phone
   * ("Datamaskinspiller (Ettertenksom, forstår ledetråder)" was cut at 360 px). */
  const aboutBot = (choice: SeatChoice): string | undefined => {
    const key = `bots_about.${choice.slice(4)}`;
    return choice.startsWith("bot:") && i18n.exists(key) ? t(key) : undefined;
  };
  /** The other name of the player a seat's choice seats, where it has one. */
  const sameAs = (choice: SeatChoice): string | undefined => {
    if (!choice.startsWith("bot:")) return undefined;
    const bot = choice.slice(4);
    return twins[bot] ?? levelOf[bot];
  };
  const [count, setCount] = useState(GAMES[game.name]?.defaultSeats ?? game.seats.default);
  const [seats, setSeats] = useState<SeatChoice[]>(() => defaultSeats(count, bots, preferred));
  const [options, setOptions] = useState<Record<string, unknown>>(() =>
    languageDefaults(game.config_schema, i18n.language),
  );
  // Options that follow the interface's language (Dixit's clue language, say) follow it
  // when it is switched here, unless the person chose another value for them.
  const language = useRef(i18n.language);
  useEffect(() => {
    const before = languageDefaults(game.config_schema, language.current);
    const now = languageDefaults(game.config_schema, i18n.language);
    language.current = i18n.language;
    setOptions((old) => {
      const next = { ...old };
      for (const [field, value] of Object.entries(now)) {
        if (!(field in old) || old[field] === before[field]) next[field] = value;
      }
      return next;
    });
  }, [i18n.language, game.config_schema]);
  const [clock, setClock] = useState<ClockRequest>({ turn_seconds: null, cover: "medium", cover_absent: false });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ErrorMessage | null>(null);
  // The rules' verdict on the seat count and options as they are now, asked as they
  // change: a combination they refuse is explained here, before "Create".
  const fit = useOptionsCheck(game, count, options);
  const refused = refusedBy(fit);
  // The bar at the window's foot grows with the reason it gives: a field brought into
  // view (Tab, a tap on its label) must come out above it, not under it.
  const bar = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = bar.current;
    if (!element || typeof ResizeObserver === "undefined") return;
    const root = document.documentElement;
    const observer = new ResizeObserver(() => root.style.setProperty("--create-bar", `${element.offsetHeight}px`));
    observer.observe(element);
    return () => {
      observer.disconnect();
      root.style.removeProperty("--create-bar");
    };
  }, []);

  useEffect(() => {
    setSeats((old) => {
      const fresh = defaultSeats(count, bots, preferred);
      return fresh.map((choice, i) => old[i] ?? choice);
    });
  }, [count, bots, preferred]);

  const create = async () => {
    setBusy(true);
    setError(null);
    tokens.saveName(name.trim());
    try {
      const created = await api.create(
        game.name,
        applicableOptions(game.config_schema, count, options),
        seats.map((choice) =>
          choice.startsWith("bot:") ? { kind: "bot", bot: choice.slice(4) } : { kind: "human" },
        ),
        name.trim(), // "" takes the first seat without a name (shown in each reader's language)
        clock.turn_seconds !== null || clock.cover_absent ? clock : null,
      );
      const id = created.table.id;
      tokens.saveHost(id, created.host_token);
      if (created.seat !== null && created.token) tokens.saveSeat(id, created.seat, created.token);
      navigate(`/t/${id}`);
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.error : null);
      setBusy(false);
    }
  };

  return (
    <form
      className="new-table panel"
      onSubmit={(event) => {
        event.preventDefault();
        void create();
      }}
    >
      <h2>{t("ui.lobby.new_table", { game: t(`games.${game.name}.title`) })}</h2>
      <label className="field">
        <span className="field-label">{t("ui.lobby.your_name")}</span>
        <input
          value={name}
          autoComplete="nickname"
          placeholder={t("ui.lobby.name_placeholder")}
          onChange={(event) => setName(upTo(event.target.value, NAME_MAX))}
        />
        <NameLimit name={name} />
      </label>
      <div className="field">
        <span className="field-label">{t("ui.lobby.seat_count")}</span>
        <div className="segmented" role="group" aria-label={t("ui.lobby.seat_count")}>
          {game.seats.allowed.map((n) => {
            const unfit = fit !== null && !fit.seat_counts.includes(n);
            return (
              <button
                key={n}
                type="button"
                className={[n === count ? "selected" : "", unfit ? "unfit" : ""].join(" ").trim()}
                aria-pressed={n === count}
                title={unfit ? t("ui.lobby.seats_unfit") : undefined}
                onClick={() => setCount(n)}
              >
                {n}
              </button>
            );
          })}
        </div>
      </div>
      <ol className="seat-plan">
        {seats.map((choice, i) => (
          <li key={i}>
            <span className="seat-number">{t("ui.seat.label", { seat: i + 1 })}</span>
            {i === 0 ? (
              <span className="seat-you">{t("ui.lobby.you")}</span>
            ) : (
              <>
                <select
                  aria-label={t("ui.seat.label", { seat: i + 1 })}
                  aria-describedby={sameAs(choice) || aboutBot(choice) ? `seat-same-${i}` : undefined}
                  value={choice}
                  onChange={(event) => {
                    const next = [...seats];
                    next[i] = event.target.value as SeatChoice;
                    setSeats(next);
                  }}
                >
                  <option value="friend">{t("ui.lobby.friend")}</option>
                  <optgroup label={t("ui.lobby.levels")}>
                    {bots.filter(isLevel).map((bot) => (
                      <option key={bot} value={`bot:${bot}`}>
                        {botOption(bot)}
                      </option>
                    ))}
                  </optgroup>
                  {/* The players by how they play; a level's own player among them says
                      so: "Hard" and "Simulator" are one opponent under two names. */}
                  <optgroup label={t("ui.lobby.other_bots")}>
                    {bots.filter((bot) => !isLevel(bot)).map((bot) => {
                      const level = levelOf[bot];
                      const about = aboutBot(`bot:${bot}`);
                      if (!level) {
                        return (
                          <option key={bot} value={`bot:${bot}`} title={about}>
                            {botOption(bot)}
                          </option>
                        );
                      }
                      return (
                        <option
                          key={bot}
                          value={`bot:${bot}`}
                          data-level={level}
                          title={[about, t("ui.lobby.same_as", { other: botOption(level) })].filter(Boolean).join(" ")}
                          aria-label={t("ui.lobby.twin_label", { option: botOption(bot), other: botOption(level) })}
                        >
                          {/* Its level in the text where the menu has room; a phone's
                              seat menu has none ("Computer player (Greedy = Medium)" was
                              cut short), and says it on the line below once chosen. */}
                          {narrow
                            ? botOption(bot)
                            : t("ui.lobby.computer_twin", { bot: botTitle(bot), level: t(`bots.${level}`) })}
                        </option>
                      );
                    })}
                  </optgroup>
                </select>
                {(sameAs(choice) || aboutBot(choice)) && (
                  <span className="seat-same field-help" id={`seat-same-${i}`} data-same={sameAs(choice)}>
                    {aboutBot(choice) && <span className="seat-about">{aboutBot(choice)}</span>}
                    {aboutBot(choice) && sameAs(choice) && " "}
                    {sameAs(choice) && t("ui.lobby.same_as", { other: botOption(sameAs(choice)!) })}
                  </span>
                )}
              </>
            )}
          </li>
        ))}
      </ol>
      <OptionsFields game={game} seats={count} options={options} onOptions={setOptions} fit={fit} clock={clock} onClock={setClock} refusalBelow />
      {error && <p className="notice error" role="alert">{translateError(t, error)}</p>}
      {/* In sight at the window's bottom while the options above are long (a phone),
          with why the rules refuse them when they do (the button is greyed out). */}
      <div className="create-bar" ref={bar}>
        <OptionsRefusal fit={fit} />
        <button className="primary big" type="submit" disabled={busy || refused}>
          {busy ? t("ui.lobby.creating") : t("ui.lobby.create")}
        </button>
      </div>
    </form>
  );
}
