// Everyone at the table: score, the storyteller, and who has given a card or voted
// (never which card or where).
import { memo, useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { absenceTag, seatLevel, seatName, shortSeatName } from "../../app/seatName";
import type { TableInfo } from "../../app/types";
import { seatColour, teamOf, type DixitView } from "./types";

interface Props {
  info: TableInfo;
  view: DixitView;
  seat: number | null;
  compact: boolean;
}

type Progress = "done" | "waiting" | null;

/** Whether a seat has done what this phase asks of it (null: nothing is asked). */
export function progressOf(view: DixitView, s: number): Progress {
  if (view.finished) return null;
  if (view.phase === "submit" && view.gives.includes(s)) return view.submitted.includes(s) ? "done" : "waiting";
  if (view.phase === "vote" && view.voters.includes(s)) return view.voted.includes(s) ? "done" : "waiting";
  if (view.phase === "clue" && view.storyteller === s) return "waiting";
  return null;
}

export const Players = memo(function Players({ info, view, seat, compact }: Props) {
  const { t } = useTranslation();
  // One's own row stays in sight in the side panel, which scrolls: with twelve players
  // on a tablet, seat 12's row (its status, its score) was below the panel's edge.
  const list = useRef<HTMLUListElement>(null);
  useEffect(() => {
    const panel = list.current?.closest<HTMLElement>(".dx-side");
    // (Team Dixit's panel leads with the teams and their chat: it stays at its top.)
    if (compact || !panel || view.teams) return;
    const reveal = () => {
      const row = list.current?.querySelector<HTMLElement>("li.mine");
      if (!row || panel.scrollHeight <= panel.clientHeight + 1) return;
      const shown = panel.getBoundingClientRect();
      const box = row.getBoundingClientRect();
      if (box.bottom > shown.bottom) panel.scrollTop += box.bottom - shown.bottom + 4;
      else if (box.top < shown.top) panel.scrollTop -= shown.top - box.top + 4;
    };
    reveal();
    // Again when the panel's size settles (the hand below it takes its height).
    const observer = new ResizeObserver(reveal);
    observer.observe(panel);
    return () => observer.disconnect();
  }, [compact, seat, view.phase, view.teams, info.seats.length]);
  const badge = (progress: Progress) => {
    if (!progress) return null;
    const phase = view.phase === "vote" ? "vote" : view.phase === "clue" ? "clue" : "submit";
    const text = t(`dixit.ui.progress.${phase}_${progress}`);
    // On a phone's strip a sign says it ("card in": ✓, "choosing": …), the words are
    // its tooltip and are read out: the strip then shows four or five players, not 1½.
    if (compact) {
      return (
        <span className={`dx-progress ${progress} sign`} data-progress={progress} title={text}>
          <span aria-hidden="true">{progress === "done" ? "✓" : "…"}</span>
          <span className="sr-only">{text}</span>
        </span>
      );
    }
    return (
      <span className={`dx-progress ${progress}`} data-progress={progress}>
        {text}
      </span>
    );
  };
  return (
    <ul ref={list} className={`dx-players ${compact ? "compact" : ""}`} aria-label={t("dixit.ui.players")}>
      {info.seats.map((s) => {
        const team = teamOf(view, s.seat);
        const progress = progressOf(view, s.seat);
        const teller = !view.finished && view.storyteller === s.seat;
        const level = seatLevel(t, info, s.seat);
        return (
          <li
            key={s.seat}
            className={`dx-player ${teller ? "storyteller" : ""} ${s.seat === seat ? "mine" : ""}`}
            data-seat={s.seat}
            data-score={view.scores[s.seat]}
            data-progress={progress ?? undefined}
          >
            <span className="dx-dot" style={{ background: seatColour(view, s.seat) }} aria-hidden="true" />
            <span className="dx-player-main">
              {/* Laid out in its name's own direction: a right-to-left name cut short keeps
                  its first letters, the ellipsis at its end. */}
              <span className="dx-player-name" dir="auto">
                <span className="dx-player-label" title={compact ? seatName(t, info, s.seat) : undefined}>
                  {compact || level ? shortSeatName(t, info, s.seat) : seatName(t, info, s.seat)}
                </span>
                {/* Beside the table a computer player's level is a tag ("Computador 3" [Médio]):
                    "Computador 3 · / Médio" broke after its "·". Read as the name. */}
                {!compact && level && (
                  <span className="tag muted dx-level">
                    <span className="sr-only"> · </span>
                    {level}
                  </span>
                )}
                {s.seat === seat && <span className={compact ? "sr-only" : "tag"}>{t("ui.seat.you")}</span>}
                {!compact && absenceTag(s) && <span className="tag muted">{t(absenceTag(s)!)}</span>}
                {team !== null && !compact && <span className="dx-team-tag">{t("dixit.ui.team", { team: team + 1 })}</span>}
              </span>
              {/* The badges keep together at the row's right, on the name's line or,
                  when they do not fit there, on the next (one wrapped alone to the left). */}
              {(teller || progress) && (
                <span className="dx-player-badges">
                  {teller && (
                    <span className="dx-teller" title={t("dixit.ui.storyteller")}>
                      <span aria-hidden="true">✎</span>
                      <span className={compact ? "sr-only" : ""}>{t("dixit.ui.storyteller")}</span>
                    </span>
                  )}
                  {badge(progress)}
                </span>
              )}
            </span>
            <span className="dx-player-score" title={t("dixit.ui.score")}>
              {view.scores[s.seat]}
            </span>
          </li>
        );
      })}
    </ul>
  );
});
