// The table's turn clock: a countdown for every seat that must act, who is away, what
// a computer player did for them, and for a person whose seat is away, the one click
// that takes it back. Time runs on the server; this only displays it.
import { createContext, useContext, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { seatName } from "./seatName";
import type { StateMessage, TableInfo } from "./types";
import type { Clock } from "./useTable";

/** Below this many milliseconds a countdown turns urgent. */
const URGENT_MS = 10_000;

/** "1:05" for 65,000 ms (rounded up: 0:00 only once the time is up). */
export function formatLeft(ms: number): string {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  const minutes = Math.floor(seconds / 60);
  return `${minutes}:${String(seconds % 60).padStart(2, "0")}`;
}

/** When this browser's seat's time for its pending decision runs out, in this
 * browser's own milliseconds since 1970 (null: none runs, or the clock is paused). A
 * game may use it where its own screens cover the table (Dixit's round result). */
export const MyDeadline = createContext<number | null>(null);

export const useMyDeadline = () => useContext(MyDeadline);

/** The seats a computer player covers while their person is away (the clock's `away`:
 * seat number as a string → why), while the game is under way; null without a clock.
 * A game's status line says a computer player plays for them ("… is playing" read as if
 * the person were there). */
export const AwaySeats = createContext<Record<string, string> | null>(null);

export const useAwaySeats = () => useContext(AwaySeats);

/** {@link MyDeadline}'s value for `seat` from the table's clock. */
export function myDeadline(clock: Clock | null, seat: number | null): number | null {
  if (!clock || seat === null || clock.paused_at !== null) return null;
  const at = clock.deadlines[String(seat)];
  return at === undefined ? null : at - clock.offset;
}

/** Under this many milliseconds left, a seat's time shows beside its hand and buttons
 * too (the clock at the top is far from them, and on a phone out of sight). */
export const SHOW_LEFT_MS = 30_000;

/** This seat's time left for its decision, beside its hand or buttons, once it runs
 * short (red in the last ten seconds); nothing without a deadline. */
export function TimeLeftChip({ className = "" }: { className?: string }) {
  const { t } = useTranslation();
  const left = useTimeLeft(useMyDeadline());
  if (left === null || left > SHOW_LEFT_MS) return null;
  return (
    <span className={`time-left-chip ${className} ${left <= 10_000 ? "urgent" : ""}`} role="timer">
      {t("ui.clock.left_label", { time: formatLeft(left) })}
    </span>
  );
}

/** Milliseconds left until `deadline` (this browser's clock), ticking four times a
 * second as the clock at the top does (at two, the two showed seconds a second apart);
 * null without one. */
export function useTimeLeft(deadline: number | null): number | null {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (deadline === null) return;
    setNow(Date.now());
    const timer = window.setInterval(() => setNow(Date.now()), 250);
    return () => window.clearInterval(timer);
  }, [deadline]);
  // The tick's time may be up to a quarter second old when a new deadline comes: a new
  // turn then showed one second more than the clock gives ("0:11" of 10 s).
  return deadline === null ? null : deadline - Math.max(now, Date.now());
}

/** How long before this seat's time runs out a decision made but not yet sent is sent
 * (ms): the clue typed and its card chosen, the card to give, the vote. */
export const SEND_BEFORE_MS = 2_000;

/** Send what this seat has made ready (`ready`, by calling `send`) once its time is about
 * to run out, rather than let a computer player decide for it (TR-TIME-1): a clue typed
 * and its card chosen were dropped when the time ran out. Sent once per deadline. */
export function useSendAtDeadline(ready: boolean, send: () => void): void {
  const deadline = useMyDeadline();
  const latest = useRef(send);
  latest.current = send;
  const sentFor = useRef<number | null>(null);
  useEffect(() => {
    if (!ready || deadline === null || sentFor.current === deadline) return;
    const fire = () => {
      sentFor.current = deadline;
      latest.current();
    };
    const wait = deadline - SEND_BEFORE_MS - Date.now();
    if (wait <= 0) {
      if (deadline - Date.now() > -SEND_BEFORE_MS) fire();
      return;
    }
    const timer = window.setTimeout(fire, wait);
    return () => window.clearTimeout(timer);
  }, [ready, deadline]);
}

interface Notice {
  version: number;
  /** The seat moved for, and why. */
  seat: number;
  reason: string;
  /** How many moves in a row were made for it for that reason. */
  count: number;
}

export function TurnClock({
  info,
  state,
  seat,
  clock,
  onBack,
}: {
  info: TableInfo;
  state: StateMessage;
  seat: number | null;
  clock: Clock | null;
  onBack: () => void;
}) {
  const { t } = useTranslation();
  const [now, setNow] = useState(() => Date.now());
  const [notices, setNotices] = useState<Notice[]>([]);
  const awayCount = clock ? Object.keys(clock.away).length : 0;
  const ticking =
    clock !== null && clock.paused_at === null && (Object.keys(clock.deadlines).length > 0 || awayCount > 0);
  const level = clock ? t(`bots.${clock.cover}`, { defaultValue: clock.cover }) : "";

  useEffect(() => {
    if (!ticking) return;
    const timer = window.setInterval(() => setNow(Date.now()), 250);
    return () => window.clearInterval(timer);
  }, [ticking]);

  // What the computer players did for away seats: the latest few, as a log; moves in
  // a row for the same seat and reason make one line ("×3").
  const covered = state.covered;
  useEffect(() => {
    if (!covered) return;
    setNotices((old) => {
      if (old.some((n) => n.version === state.version)) return old;
      const last = old[old.length - 1];
      if (last && last.seat === covered.seat && last.reason === covered.reason)
        return [...old.slice(0, -1), { ...last, version: state.version, count: last.count + 1 }];
      return [...old.slice(-2), { version: state.version, seat: covered.seat, reason: covered.reason, count: 1 }];
    });
  }, [covered, state.version]);
  const banner = useRef<HTMLDivElement>(null);
  useRoomForBanner(banner, clock !== null && info.status === "playing" && seat !== null && seat in (clock?.away ?? {}));
  const noticeText = (n: Notice) => {
    const own = n.seat === seat;
    const why = n.reason === "absent" || n.reason === "asked" ? n.reason : "turn";
    const key = `ui.clock.covered_${why}${own ? "_you" : ""}`;
    const text = t(key, { player: seatName(t, info, n.seat), level });
    return n.count > 1 ? `${text} (×${n.count})` : text;
  };

  if (!clock || info.status !== "playing") return null;
  // Never before the server's time when it sent the clock: the tick's time may be up to
  // a quarter second older, and a new turn showed one second more than the clock gives.
  const serverNow = clock.paused_at ?? Math.max(now + clock.offset, clock.now);
  const waiting = Object.entries(clock.deadlines)
    .map(([s, at]) => ({ seat: Number(s), left: at - serverNow }))
    .sort((a, b) => a.seat - b.seat);
  const away = Object.keys(clock.away).map(Number).sort((a, b) => a - b);
  const mine = seat !== null && away.includes(seat);
  // With every person away the computer players covering for them play each turn only
  // once its time has run out (docs/protocol.md, "Turn clock").
  const everyoneAway = info.seats.every((s) => s.kind !== "human" || away.includes(s.seat));
  // "Everyone is away" read oddly to the only person at the table.
  const alone = info.seats.filter((s) => s.kind === "human").length === 1;
  // With every person away, the covering computer player plays each turn once its time
  // has run out: the server says when (`cover_at`), and the page counts down to it (a
  // page counting from each new state restarted at every other seat's move).
  // "I'm back" within the turn whose time ran out: the computer player still makes that
  // move, and the seat is back from its next turn (TR-TIME-1).
  const returning = mine && (clock.returning ?? []).includes(seat);
  const coverAt = seat !== null ? clock.cover_at?.[String(seat)] : undefined;
  const coverLeft =
    mine && coverAt !== undefined && clock.paused_at === null ? Math.max(0, coverAt - serverNow) : null;

  return (
    <section className="turn-clock" aria-label={t("ui.clock.label")}>
      {mine && (
        <div className="away-banner" role="status" ref={banner}>
          <span>
            {returning
              ? t("ui.clock.returning", { level })
              : coverLeft !== null
              ? t(alone ? "ui.clock.away_alone_moves_in" : "ui.clock.everyone_away_moves_in", {
                  level,
                  time: formatLeft(coverLeft),
                })
              : t(
                  everyoneAway
                    ? // While the clock is paused no time runs out: said so, not "when
                      // time runs out" beside "Clock paused by the host".
                      `${alone ? "ui.clock.away_alone" : "ui.clock.everyone_away"}${clock.paused_at !== null ? "_paused" : ""}`
                    : "ui.clock.you_are_away",
                  { level },
                )}
          </span>
          {!returning && (
            <button type="button" className="primary" onClick={onBack}>
              {t("ui.clock.back")}
            </button>
          )}
        </div>
      )}
      {/* With a time per turn the row stays while nobody's time runs (a computer
          player's turn), so the table below does not jump up and down every turn. */}
      {(waiting.length > 0 || away.length > 0 || clock.paused_at !== null || clock.turn_seconds !== null) && (
        <ul className="clock-seats">
          {clock.paused_at !== null && <li className="clock-paused">{t("ui.clock.paused")}</li>}
          {waiting.length === 0 && away.length === 0 && clock.paused_at === null && clock.turn_seconds !== null && (
            <li className="clock-idle">{t("ui.clock.per_turn", { time: formatLeft(clock.turn_seconds * 1000) })}</li>
          )}
          {waiting.map((w) => (
            <li
              key={w.seat}
              className={`clock-seat ${w.left < URGENT_MS ? "urgent" : ""} ${w.seat === seat ? "mine" : ""}`}
              data-seat={w.seat}
            >
              {w.seat === seat ? t("ui.clock.you") : seatName(t, info, w.seat)}{" "}
              <time role="timer" aria-label={t("ui.clock.left_label", { time: formatLeft(w.left) })}>
                {formatLeft(w.left)}
              </time>
            </li>
          ))}
          {away
            .filter((s) => s !== seat)
            .map((s) => (
              <li key={`away-${s}`} className="clock-away" data-seat={s}>
                {t("ui.clock.away", { player: seatName(t, info, s), level })}
              </li>
            ))}
        </ul>
      )}
      {/* Once a seat is back, what was done for it while away is past news. */}
      <ul className="clock-log" aria-live="polite">
        {notices
          .filter((n) => away.includes(n.seat))
          .map((n) => (
            <li key={n.version}>{noticeText(n)}</li>
          ))}
      </ul>
    </section>
  );
}

/** While the away banner shows, a phone's page starts below it: over the header, where it
 * sits, its two to four lines also covered the table's status line (styles.css uses the
 * room on narrow screens only). Sets ``--away-room`` (px) on the page's root, the
 * banner's overhang below the header. */
function useRoomForBanner(banner: React.RefObject<HTMLDivElement | null>, shown: boolean): void {
  useEffect(() => {
    const root = document.documentElement;
    const element = banner.current;
    if (!shown || !element) {
      root.style.removeProperty("--away-room");
      return;
    }
    const measure = () => {
      const header = document.querySelector<HTMLElement>(".topbar");
      const below = header ? header.offsetTop + header.offsetHeight : 0;
      const room = Math.max(0, Math.ceil(element.getBoundingClientRect().bottom + 6 - below));
      root.style.setProperty("--away-room", `${room}px`);
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => {
      observer.disconnect();
      root.style.removeProperty("--away-room");
    };
  }, [banner, shown]);
}
