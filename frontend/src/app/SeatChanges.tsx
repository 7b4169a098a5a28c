// Said to everyone at a running table when a person's seat goes to a computer player
// (they left: "Dag left the game: a computer player (Medium) plays on for them."; or the
// host removed them: "The host removed Dag: …"). The seat itself keeps the person's name ("Dag (computer:
// Medium)"), so the rounds they played and their points stay theirs. In the waiting room,
// when a person's seat opens again (they left, or said no thanks to playing again):
// "Dag left the table: their seat is open again."
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { isLevel, personName } from "./seatName";
import type { SeatInfo, TableInfo } from "./types";

/** How long the notice stays, in milliseconds. */
const NOTICE_MS = 15_000;

export function SeatChanges({ info, seat }: { info: TableInfo; seat: number | null }) {
  const { t } = useTranslation();
  const before = useRef<SeatInfo[]>(info.seats);
  // The seats this page held: what became of one's own seat is said to one otherwise
  // (the host removed you…), never in the third person.
  const held = useRef(new Set<number>());
  if (seat !== null) held.current.add(seat);
  const [notices, setNotices] = useState<{ key: number; text: string; kind: string; seat: number }[]>([]);
  useEffect(() => {
    const previous = before.current;
    before.current = info.seats;
    const said: { text: string; kind: string; seat: number }[] = [];
    for (const now of info.seats) {
      const was = previous[now.seat];
      if (!was || was.kind !== "human" || now.seat === seat || held.current.has(now.seat)) continue;
      // The host removed them, or they left (or said no thanks to a game after the last).
      const removed = now.removed === true;
      // The host reads of their own doing as theirs.
      const byYou = removed && seat !== null && info.host_seat === seat ? "_by_you" : "";
      if (now.kind === "open") {
        // So that the host knows the seat is to fill again.
        if (was.name)
          said.push({
            text: t(removed ? `ui.table.removed_open${byYou}` : "ui.table.left_open", { player: personName(was.name) }),
            kind: removed ? "removed-open" : "left-open",
            seat: now.seat,
          });
        continue;
      }
      if (now.kind !== "bot") continue;
      const level = isLevel(now.bot ?? "") ? t(`bots.${now.bot}`) : (now.bot ?? "");
      const player = was.name ? personName(was.name) : t("ui.seat.default_name", { seat: now.seat + 1 });
      said.push({
        text: t(removed ? `ui.table.removed_taken_over${byYou}` : "ui.table.left_taken_over", { player, level }),
        kind: removed ? "removed-taken-over" : "taken-over",
        seat: now.seat,
      });
    }
    // "…their seat is open again" goes once the seat is taken (it stayed on while the
    // game began with someone else in it).
    const open = (n: { kind: string; seat: number }) =>
      !n.kind.endsWith("-open") || info.seats[n.seat]?.kind === "open";
    const key = Date.now();
    setNotices((old) => {
      const kept = old.filter(open);
      if (said.length === 0 && kept.length === old.length) return old;
      return [...kept, ...said.map((note, i) => ({ key: key + i, ...note }))];
    });
  }, [info.seats, info.host_seat, seat, t]);
  // Each notice goes NOTICE_MS after it came (whatever else changes meanwhile).
  useEffect(() => {
    if (notices.length === 0) return;
    const first = Math.min(...notices.map((n) => n.key));
    const timer = window.setTimeout(
      () => setNotices((old) => old.filter((n) => n.key - first >= 1000)),
      Math.max(0, first + NOTICE_MS - Date.now()),
    );
    return () => window.clearTimeout(timer);
  }, [notices]);
  if (notices.length === 0) return null;
  return (
    <div className="seat-changes" role="status">
      {notices.map((n) => (
        <p key={n.key} className="notice" data-notice={n.kind}>
          {n.text}
        </p>
      ))}
    </div>
  );
}
