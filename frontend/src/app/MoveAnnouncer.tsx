// What the other seats did, told to a screen reader as it happens.
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { LogLine } from "./eventLog";

/** How many of the newest lines one announcement reads at most (a four-seat round's
 * moves, with a draw or a bonus beside them). */
const AT_MOST = 4;

/**
 * A polite live region, visually hidden, that reads out the log's new lines as they
 * come: every other seat's moves since the last state (a computer player's "Computer 2
 * played Sphynx on E4", three draws and a pass, a score), and what the game did by
 * itself (a SEQUENCE, a round's end). The page's own seat's moves are left out: the
 * person made them. A page opened mid-game reads nothing of the history it loads.
 *
 * The visual notices over the board (toasts) are hidden from screen readers, so that a
 * move is read once; the status line still says whose turn it is.
 */
export function MoveAnnouncer({
  log,
  describe,
  seat,
  version,
}: {
  log: LogLine[];
  describe: (line: LogLine) => string | null;
  seat: number | null;
  /** The table's state version now: lines up to the first one seen are history. */
  version: number;
}) {
  const [text, setText] = useState("");
  // A new language: the last sentence, in the old one, is not left for a reader to find.
  const { i18n } = useTranslation();
  useEffect(() => setText(""), [i18n.language]);
  const announced = useRef(version);
  const latest = useRef({ log, describe });
  latest.current = { log, describe };
  const newest = log.length ? log[0].version : -1;
  useEffect(() => {
    const since = announced.current;
    if (newest <= since) return;
    announced.current = newest;
    const { log: lines, describe: say } = latest.current;
    const texts = lines
      .filter((line) => line.version > since && (seat === null || line.event.seat !== seat))
      .slice(0, AT_MOST)
      .reverse()
      .map(say)
      .filter((said): said is string => !!said);
    if (texts.length) setText(texts.join(" "));
  }, [newest, seat]);
  return (
    <div className="sr-only" aria-live="polite" aria-atomic="true" data-move-announcer="">
      {text}
    </div>
  );
}
