// The running log of a table's events, newest first, kept across state messages.
import type { TFunction } from "i18next";
import { useEffect, useMemo, useState } from "react";
import { heldNowAt } from "./seatName";
import type { EventBatch, GameEvent, StateMessage, TableInfo } from "./types";

export interface LogLine {
  /** The line's key: the version and the event's place in it, fixed once logged, so a
   * new state adds lines without re-creating the ones already shown. */
  id: string;
  version: number;
  event: GameEvent;
  /** A computer player made this move for its seat's person, who was away. */
  covered?: boolean;
  /** Each seat's name as it was at the line's state, in the page's language now (a
   * person's earlier moves keep their name after a computer player takes the seat over:
   * not "Ola (computer: Medium) played …"). */
  names?: readonly string[];
}

/** How many states' events a live state message carries along (`recent`). */
export const RECENT_STATES = 16;

/** `recent` for the state message `message` that follows `previous`: its own events
 * appended to those of the states before it (at most `RECENT_STATES`, oldest first).
 * Two messages that arrive together are drawn once, as the second: a log reading only
 * the drawn state's `events` would lose the first one's. */
export function withRecent(previous: StateMessage | null, message: StateMessage): EventBatch[] {
  // The first state after connecting brings the states before it (`earlier`): a page
  // opened or reloaded mid-game shows the last moves.
  const seen = new Set<number>();
  const earlier = [...(previous?.recent ?? []), ...(message.earlier ?? [])]
    .filter((batch) => batch.version < message.version && batch.version > message.version - RECENT_STATES)
    .filter((batch) => !seen.has(batch.version) && seen.add(batch.version) !== undefined)
    .sort((a, b) => a.version - b.version);
  return [...earlier, { version: message.version, events: message.events, covered: message.covered?.seat }];
}

/** Every event of every state received since the table was opened (at most `keep`
 * lines), newest first, each with the seats' names `names(version)` gives for its state
 * (asked again when `names` changes: a language switch names the computer players
 * anew). A state without `recent` adds its own events; a replay's step
 * carries as `recent` the steps before it that have been fetched, which may come after
 * it (a jump to the end, then the steps before): they take their places further down. */
export function useEventLog(state: StateMessage, keep: number, names?: (version: number) => readonly string[]): LogLine[] {
  const [log, setLog] = useState<LogLine[]>([]);
  const { version, events, recent } = state;
  const covered = state.covered?.seat;
  useEffect(() => {
    setLog((old) => {
      const have = new Set(old.map((line) => line.id));
      const batches = recent ?? [{ version, events, covered }];
      const fresh = batches
        .filter((batch) => batch.version <= version)
        .flatMap((batch) =>
          batch.events.map((event, i) => ({
            id: `${batch.version}.${i}`,
            version: batch.version,
            event,
            i,
            covered: batch.covered !== undefined && event.seat === batch.covered,
          })),
        )
        .filter((line) => !have.has(line.id));
      if (!fresh.length) return old;
      const last = old.length ? old[0].version : -1;
      const lines = [...fresh.reverse(), ...old];
      // Only older lines come late: the usual case (all newer) keeps the order as is.
      if (fresh.some((line) => line.version <= last))
        lines.sort((a, b) => b.version - a.version || order(b.id) - order(a.id));
      return lines.slice(0, keep).map(({ id, version: v, event, covered: c }) => ({ id, version: v, event, covered: c }));
    });
  }, [version, events, recent, covered, keep]);
  return useMemo(() => (names ? log.map((line) => ({ ...line, names: names(line.version) })) : log), [log, names]);
}

/** A log line's text, marked when a computer player made the move for an away person
 * (the line names the person: "Ola played … (a computer player moved for them)"); "for
 * you" only to the person it moved for, not to whoever took the seat later. */
export function markCovered(t: TFunction, text: string | null, line: LogLine, seat: number | null, info: TableInfo): string | null {
  if (!text || !line.covered) return text;
  // The mark goes inside the sentence: "… on E5 (a computer player moved for you)."
  const sentence = text.endsWith(".") ? text.slice(0, -1) : text;
  const mine = seat !== null && line.event.seat === seat && heldNowAt(info, seat, line.version - 1);
  return t(mine ? "ui.clock.logged_for_you" : "ui.clock.logged_for", { text: sentence });
}

/** Who a log line names as seat ``s``: the name the seat had when the line came, else
 * ``now`` (its name now). */
export function namedAt(line: LogLine, now: (seat: number) => string): (seat: number) => string {
  return (s) => line.names?.[s] ?? now(s);
}

/** An event's place in its state, from its line's id ("12.3": 3). */
const order = (id: string) => Number(id.slice(id.indexOf(".") + 1));

/** Whether the events of the log's newest state (`newest`, its version) are still to be
 * shown: for `ms` milliseconds after that state arrived (a toast's lifetime). */
export function useNewestShown(newest: number, ms: number): boolean {
  const [hidden, setHidden] = useState<number | null>(null);
  useEffect(() => {
    const timer = window.setTimeout(() => setHidden(newest), ms);
    return () => window.clearTimeout(timer);
  }, [newest, ms]);
  return hidden !== newest;
}
