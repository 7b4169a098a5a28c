// The replay viewer: a finished game step by step, seen from any seat or as a spectator,
// drawn by the same table components as live play, read-only. The steps come from the
// server, which replays the record with the game's own rules and views
// (docs/protocol.md, "Replays"): this page knows no game's rules. A finished table's
// replay is "/t/<id>/replay"; a record file opened in the lobby is "/replay".
import { useCallback, useEffect, useId, useMemo, useRef, useState, type ChangeEvent } from "react";
import { useTranslation } from "react-i18next";
import { GAMES } from "../games/registry";
import { ApiError, api, tokens, type ReplayFrame, type ReplaySteps } from "./api";
import { FilePicker } from "./FilePicker";
import { andList } from "./i18n";
import { ReplayMode, TableEnded, keepRecordFile, recordFile } from "./replay";
import { navigate } from "./router";
import { infoAt, seatName } from "./seatName";
import { translateError } from "./translateError";
import type { ErrorMessage, EventBatch, StateMessage, TableInfo } from "./types";
import { useGames } from "./useGames";
import { RecordLink } from "./RecordLink";
import { AppLink } from "./AppLink";
import { APP_TITLE } from "./alerts";
import { useNarrow } from "./useLayout";

/** A phone, upright or held sideways (styles.css, "the replay viewer", the same query):
 * the speed, the seat the game is seen by and the record's download fold away under
 * "More controls", and the move's words stand under the step buttons, right above the
 * table (the controls took a phone's whole first screen, no game in sight). */
const COMPACT = "(max-width: 35em), (max-height: 31.25em) and (min-aspect-ratio: 3/2)";

/** Steps asked for at a time. */
const CHUNK = 25;
/** How many steps before the one shown feed the table's log. */
const LOG_STEPS = 60;
/** Moves per second offered for playing. */
const SPEEDS = [0.5, 1, 2, 4, 8];
const nothing = () => undefined;

type Meta = Omit<ReplaySteps, "frames" | "first" | "count" | "next">;

export function ReplayPage({ tableId }: { tableId: string | null }) {
  const { t, i18n } = useTranslation();
  const compact = useNarrow(COMPACT);
  useGames(); // the games' texts (card names…)
  const [text, setText] = useState(() => (tableId ? null : recordFile()));
  const [seat, setSeat] = useState<number | null>(() => (tableId ? (tokens.seat(tableId)?.seat ?? null) : null));
  const [step, setStep] = useState(0);
  const [meta, setMeta] = useState<Meta | null>(null);
  const [error, setError] = useState<ErrorMessage | null>(null);
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeed] = useState(2);
  const source = tableId ?? text;
  // The steps fetched so far for the chosen seat, and the chunks on their way; another
  // seat (or file) sees other things: start again for it.
  const frames = useRef(new Map<number, ReplayFrame>());
  const asked = useRef(new Set<string>());
  const fetchedFor = useRef<[number | null, string | null]>([seat, source]);
  if (fetchedFor.current[0] !== seat || fetchedFor.current[1] !== source) {
    fetchedFor.current = [seat, source];
    frames.current = new Map();
    asked.current = new Set();
  }
  const [fetched, setFetched] = useState(0);

  const fetchChunk = useCallback(
    (first: number, count: number = CHUNK) => {
      if (source === null) return;
      const key = `${seat}:${first}`;
      if (asked.current.has(key)) return;
      asked.current.add(key);
      const request = tableId ? api.replayTable(tableId, seat, first, count) : api.replayRecord(source, seat, first, count);
      request
        .then((data) => {
          if (!asked.current.has(key)) return; // the seat changed meanwhile
          for (const frame of data.frames) frames.current.set(frame.step, frame);
          const { frames: _frames, first: _first, count: _count, next: _next, ...rest } = data;
          setMeta((old) => old ?? rest);
          setFetched((n) => n + 1);
        })
        .catch((caught) => {
          asked.current.delete(key);
          setPlaying(false);
          setError(caught instanceof ApiError ? caught.error : networkError(String(caught)));
        });
    },
    [source, tableId, seat],
  );

  const steps = meta?.steps ?? null;
  const frame = frames.current.get(step) ?? null;
  // Fetch the chunk of the step shown, and the next one a little before it is needed.
  useEffect(() => {
    if (error) return;
    const first = Math.floor(step / CHUNK) * CHUNK;
    if (!frames.current.has(step)) fetchChunk(first);
    // After a jump, the steps before it too: the table's log shows what led there.
    if (first >= CHUNK && frames.current.has(step)) fetchChunk(first - CHUNK);
    if (steps !== null && step + 5 >= first + CHUNK && first + CHUNK <= steps) fetchChunk(first + CHUNK);
    // An answer holds fewer steps than asked when they are big (the server sends at most
    // 2 MiB at a time, docs/protocol.md "Replays"): ask for the rest of a chunk from its
    // first step not here yet.
    if (steps === null) return;
    for (const start of [first, first + CHUNK]) {
      if (!frames.current.has(start)) continue; // not come yet: asked for above
      let from = start;
      while (from < start + CHUNK && from <= steps && frames.current.has(from)) from += 1;
      if (from < start + CHUNK && from <= steps) fetchChunk(from, start + CHUNK - from);
    }
  });

  // Keep showing the last step (as the seat it was fetched for) while the next is on its way.
  const shown = useRef<{ frame: ReplayFrame; seat: number | null } | null>(null);
  if (frame) shown.current = { frame, seat };
  const current = shown.current?.frame ?? null;
  const shownSeat = shown.current?.seat ?? null;

  // Playing: one step after another at the chosen speed, until the last.
  useEffect(() => {
    if (!playing || steps === null) return;
    if (step >= steps) {
      setPlaying(false);
      return;
    }
    if (!frames.current.has(step + 1)) return; // on its way: this runs again when it comes
    const timer = window.setTimeout(() => setStep((s) => Math.min(s + 1, steps)), 1000 / speed);
    return () => window.clearTimeout(timer);
  });

  const go = useCallback(
    (target: number) => {
      if (steps === null) return;
      setError(null);
      setStep(Math.max(0, Math.min(steps, target)));
    },
    [steps],
  );

  // Keys: ← and → a step, Home and End the first and the last (not while typing or
  // choosing in a field, whose own keys they are).
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.altKey || event.ctrlKey || event.metaKey || event.defaultPrevented) return;
      const target = event.target as HTMLElement | null;
      if (target?.closest("input, select, textarea, [role=dialog]")) return;
      const moves: Record<string, () => void> = {
        ArrowLeft: () => setStep((s) => Math.max(0, s - 1)),
        ArrowRight: () => setStep((s) => (steps === null ? s : Math.min(steps, s + 1))),
        Home: () => setStep(0),
        End: () => setStep(steps ?? 0),
      };
      const move = moves[event.key];
      if (!move) return;
      event.preventDefault();
      setPlaying(false);
      setError(null);
      move();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [steps]);

  // The table is drawn again from scratch after a step back or a jump, so that its log
  // and animations follow the game forward only.
  // Each step carries the events of the steps before it that are here (up to
  // LOG_STEPS), so that after a jump the table's log is not the last move alone.
  const shownState = useMemo((): StateMessage | null => {
    if (!current) return null;
    const state = current.state;
    const recent: EventBatch[] = [];
    for (let s = state.version; s >= 1 && s > state.version - LOG_STEPS; s -= 1) {
      const earlier = frames.current.get(s);
      if (!earlier) break;
      recent.push({ version: s, events: earlier.state.events });
    }
    return { ...state, recent: recent.reverse() };
    // `fetched`: steps before this one may have come since.
  }, [current, fetched]);
  const lastStep = useRef(-1);
  const epoch = useRef(0);
  if (current && current.step !== lastStep.current) {
    if (current.step !== lastStep.current + 1) epoch.current += 1;
    lastStep.current = current.step;
  }

  const seated: TableInfo | null = useMemo(
    () =>
      meta && {
        id: tableId ?? "replay",
        game: meta.game,
        config: meta.config,
        public: meta.public,
        seats: meta.seats.map((s) => ({
          seat: s.seat,
          kind: s.bot ? "bot" : "human",
          name: s.name,
          bot: s.bot,
          bot_since: s.bot_since ?? null,
          earlier: s.earlier,
          connected: true,
        })),
        status: "finished",
        version: meta.steps,
        invite: tableId ? `/t/${tableId}` : "",
        created: 0,
      },
    [meta, tableId],
  );
  // A seat a computer player took over mid-game is its person's up to their last move,
  // and a seat that changed hands its earlier occupant's: a step shows the table as it
  // was when its move was made.
  const madeAfter = Math.max(0, (current?.step ?? 0) - 1);
  const info = useMemo(() => seated && infoAt(seated, madeAfter), [seated, madeAfter]);
  // The tab says what the page is in the reader's language ("Endurspilun: Dixit ·
  // gametable"), as a table's does; it read "gametable" alone.
  const pageTitle = meta
    ? t("ui.replay.heading", { game: t(`games.${meta.game}.title`) })
    : source === null ? t("ui.replay.title") : null;
  useEffect(() => {
    document.title = pageTitle ? `${pageTitle} · ${APP_TITLE}` : APP_TITLE;
    return () => {
      document.title = APP_TITLE;
    };
  }, [pageTitle]);

  if (source === null) {
    return (
      <div className="panel notice-panel replay-open">
        <h1>{t("ui.replay.title")}</h1>
        <RecordFileInput onOpened={(opened) => setText(opened)} />
      </div>
    );
  }
  if (error && !meta) {
    return (
      <div className="panel notice-panel replay-error">
        <h1>{t("ui.replay.cannot_title")}</h1>
        <p role="alert">{describeError(t, error)}</p>
        {error.rule && error.rule !== "PROTOCOL" && <p className="rule-id">{error.rule}</p>}
        {!tableId && error.code === "no_deck" && <OwnDeckTable text={text} />}
        {!tableId && <RecordFileInput onOpened={(opened) => { setError(null); setText(opened); }} />}
        {tableId && <BackToTable table={tableId} />}
        <button type="button" onClick={() => navigate("/")}>
          {t("ui.table.back_to_lobby")}
        </button>
      </div>
    );
  }
  if (!meta || !info || !current) return <p className="notice">{t("ui.replay.loading")}</p>;
  const module = GAMES[meta.game];
  const player = (s: number) => seatName(t, info, s);
  const total = meta.steps;
  // A game its host ended early has no outcome: its last step says so (it read "Hanne is
  // playing…").
  const endedHere = meta.meta?.ended_early === true && current.step === total && !current.state.outcome;
  const happened = current.state.events
    .map((event) => module?.describe?.(t, info, event, i18n.language) ?? null)
    .filter((line): line is string => Boolean(line));

  const stepping: Stepping = {
    step,
    total,
    playing,
    label: t("ui.replay.steps"),
    go: (target) => {
      setPlaying(false);
      go(target);
    },
    playOrPause: () => {
      if (!playing && step >= total) go(0);
      setPlaying(!playing);
    },
  };

  const download = tableId && <RecordLink table={tableId}>{t("ui.table.download_record")}</RecordLink>;
  const settings = (
    <>
      <label className="replay-speed">
        <span>{t("ui.replay.speed")}</span>
        <select value={speed} onChange={(event) => setSpeed(Number(event.target.value))}>
          {SPEEDS.map((value) => (
            <option key={value} value={value}>
              {t("ui.replay.per_second", { count: value })}
            </option>
          ))}
        </select>
      </label>
      <label className="replay-seat">
        <span>{t("ui.replay.seen_by")}</span>
        <select
          value={seat ?? ""}
          onChange={(event) => {
            setError(null);
            setSeat(event.target.value === "" ? null : Number(event.target.value));
          }}
        >
          <option value="">{t("ui.replay.spectator")}</option>
          {meta.seats.map((s) => (
            <option key={s.seat} value={s.seat}>
              {t("ui.replay.seat", { seat: s.seat + 1, player: player(s.seat) })}
            </option>
          ))}
        </select>
      </label>
    </>
  );
  // What the step did: under the step buttons on a phone, right above the table.
  const moveNow = (
    <div className="replay-now" aria-live="polite">
      <p className="replay-move">
        {current.step === 0 ? (
          t("ui.replay.start")
        ) : compact ? (
          // On a phone the step buttons right above show "5 / 78": the number is said to
          // screen readers only (that count is hidden from them), and who played is shown
          // where no line below says what they did.
          <>
            <span className="sr-only">{t("ui.replay.position", { step: current.step, steps: total })} </span>
            {current.seat !== null && happened.length === 0 && t("ui.replay.played_by", { player: player(current.seat) })}
          </>
        ) : (
          t("ui.replay.moved", { step: current.step, steps: total, player: current.seat !== null ? player(current.seat) : "" })
        )}
        {(current.state.outcome || endedHere) && <span className="tag">{t(endedHere ? "ui.replay.ended_early" : "ui.replay.over")}</span>}
      </p>
      {happened.length > 0 && (
        <ul className="replay-events" aria-label={t("ui.replay.what_happened")}>
          {happened.map((line, index) => (
            <li key={index}>{line}</li>
          ))}
        </ul>
      )}
    </div>
  );

  return (
    <div className="replay-page" data-step={current.step} data-steps={total}>
      <header className="replay-header">
        <h1>{t("ui.replay.heading", { game: t(`games.${meta.game}.title`) })}</h1>
        {/* "Anna, Computer 2 · Hard and Bruno": a "·" between them ran into the names' own */}
        <p className="muted replay-players">{andList(meta.seats.map((s) => player(s.seat)))}</p>
        {tableId && (
          <>
            <BackToTable table={tableId} />
            {!compact && download}
          </>
        )}
      </header>
      <section className="replay-controls" aria-label={t("ui.replay.controls")}>
        <StepButtons className="replay-buttons" {...stepping} />
        <label className="replay-slider">
          <span className="sr-only">{t("ui.replay.jump")}</span>
          <input
            type="range"
            min={0}
            max={total}
            value={step}
            aria-valuetext={t("ui.replay.position", { step, steps: total })}
            onChange={(event) => { setPlaying(false); go(Number(event.target.value)); }}
          />
        </label>
        <label className="replay-number">
          <span>{t("ui.replay.move")}</span>
          <input
            type="number"
            aria-label={t("ui.replay.move_number")}
            min={0}
            max={total}
            value={step}
            onChange={(event) => {
              setPlaying(false);
              if (event.target.value !== "") go(Number(event.target.value));
            }}
          />
          <span className="muted">{t("ui.replay.of", { steps: total })}</span>
        </label>
        {compact ? (
          <details className="replay-more">
            <summary>{t("ui.replay.more_controls")}</summary>
            <div className="replay-more-body">
              {settings}
              {download}
            </div>
          </details>
        ) : (
          settings
        )}
        {!compact && moveNow}
        {error && (
          <p className="notice error" role="alert">
            {describeError(t, error)}
          </p>
        )}
      </section>
      {/* On a phone the controls above scroll away with the page: the step buttons stay
          in sight at the window's top (styles.css, "the replay viewer"). */}
      <div className="replay-dock">
        <StepButtons className="replay-dock-buttons" {...stepping} />
        <span className="replay-dock-count" aria-hidden="true">
          {step} / {total}
        </span>
      </div>
      {compact && moveNow}
      <ReplayMode.Provider value={true}>
        {module ? (
          <div className="replay-table">
            <TableEnded.Provider value={endedHere}>
              <module.Table key={`${shownSeat}:${epoch.current}`} info={info} seat={shownSeat} state={shownState ?? current.state} send={nothing} />
            </TableEnded.Provider>
          </div>
        ) : (
          <p className="notice error">{t("ui.replay.unknown_game", { game: meta.game })}</p>
        )}
      </ReplayMode.Provider>
    </div>
  );
}

interface Stepping {
  step: number;
  total: number;
  playing: boolean;
  label: string;
  go: (step: number) => void;
  playOrPause: () => void;
}

/** A link to the table whose replay this is (its game over, or still going). */
/** A record of a game played with someone's own deck opens from a file only for the
 * deck's owner; the table it was played at (named in the record) replays it for all
 * who may watch it. */
function OwnDeckTable({ text }: { text: string | null }) {
  const { t } = useTranslation();
  let table: unknown = null;
  try {
    table = (JSON.parse(text ?? "null") as { meta?: { table?: unknown } } | null)?.meta?.table;
  } catch {
    table = null;
  }
  if (typeof table !== "string" || !/^[A-Za-z0-9_-]{1,64}$/.test(table)) return null;
  return (
    <>
      <p>{t("ui.replay.own_deck")}</p>
      {/* its own line: inline after the text, the button touched the line above */}
      <p>
        <AppLink className="button" href={`/t/${encodeURIComponent(table)}/replay`}>
          {t("ui.replay.own_deck_table")}
        </AppLink>
      </p>
    </>
  );
}

function BackToTable({ table }: { table: string }) {
  const { t } = useTranslation();
  return (
    <AppLink className="button replay-back" href={`/t/${encodeURIComponent(table)}`}>
      {t("ui.replay.back_to_table")}
    </AppLink>
  );
}

/** First, back, play or pause, forward and last. */
function StepButtons({ className, step, total, playing, label, go, playOrPause }: Stepping & { className: string }) {
  const { t } = useTranslation();
  return (
    <div className={className} role="group" aria-label={label}>
      <button type="button" onClick={() => go(0)} aria-disabled={step === 0} aria-label={t("ui.replay.first")}>
        <Icon shape="first" />
      </button>
      <button type="button" onClick={() => go(step - 1)} aria-disabled={step === 0} aria-label={t("ui.replay.back")}>
        <Icon shape="back" />
      </button>
      <button type="button" className="primary replay-play" onClick={playOrPause}>
        {playing ? t("ui.replay.pause") : t("ui.replay.play")}
      </button>
      <button type="button" onClick={() => go(step + 1)} aria-disabled={step >= total} aria-label={t("ui.replay.forward")}>
        <Icon shape="forward" />
      </button>
      <button type="button" onClick={() => go(total)} aria-disabled={step >= total} aria-label={t("ui.replay.last")}>
        <Icon shape="last" />
      </button>
    </div>
  );
}

/** The step buttons' pictures (drawn, so that every font shows them). */
function Icon({ shape }: { shape: "first" | "back" | "forward" | "last" }) {
  const paths = {
    first: "M5 4h2v16H5zM19 4v16L8 12z",
    back: "M17 4v16L6 12z",
    forward: "M7 4v16l11-8z",
    last: "M17 4h2v16h-2zM5 4v16l11-8z",
  };
  return (
    <svg className="replay-icon" viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false">
      <path d={paths[shape]} fill="currentColor" />
    </svg>
  );
}

function networkError(message: string): ErrorMessage {
  return { type: "error", code: "http", rule: null, key: "ui.errors.network", params: {}, message };
}

/** A refusal of the replay in words; an oversized file gets its own sentence. */
function describeError(t: ReturnType<typeof useTranslation>["t"], error: ErrorMessage): string {
  if (error.code === "too_large") return t("ui.replay.too_large", { limit: Math.round(Number(error.params.limit) / 1024) });
  return translateError(t, error);
}

/** Opens a game record file (.json) in the replay viewer. */
export function RecordFileInput({ onOpened }: { onOpened?: (text: string) => void }) {
  const { t } = useTranslation();
  const [failed, setFailed] = useState(false);
  const helpId = `${useId()}-help`;
  const open = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = "";
    if (!file) return;
    setFailed(false);
    file.text().then(
      (opened) => {
        keepRecordFile(opened);
        if (onOpened) onOpened(opened);
        else navigate("/replay");
      },
      () => setFailed(true),
    );
  };
  return (
    <div className="record-file">
      <div className="field">
        <label className="field">
          <span className="field-label">{t("ui.replay.open_file")}</span>
          <FilePicker accept=".json,application/json" describedBy={helpId} onChange={open} />
        </label>
        <span className="field-help" id={helpId}>{t("ui.replay.open_help")}</span>
      </div>
      {failed && <p className="notice error" role="alert">{t("ui.replay.unreadable")}</p>}
    </div>
  );
}
