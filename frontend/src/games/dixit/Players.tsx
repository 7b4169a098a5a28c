// Everyone at the table: score, the storyteller, and who has given a card or voted
// (never which card or where).
import { memo } from "react";
import { useTranslation } from "react-i18next";
import { seatName, shortSeatName } from "../../app/seatName";
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
    <ul className={`dx-players ${compact ? "compact" : ""}`} aria-label={t("dixit.ui.players")}>
      {info.seats.map((s) => {
        const team = teamOf(view, s.seat);
        const progress = progressOf(view, s.seat);
        const teller = !view.finished && view.storyteller === s.seat;
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
              <span className="dx-player-name">
                <span className="dx-player-label" title={compact ? seatName(t, info, s.seat) : undefined}>
                  {compact ? shortSeatName(t, info, s.seat) : seatName(t, info, s.seat)}
                </span>
                {s.seat === seat && <span className={compact ? "sr-only" : "tag"}>{t("ui.seat.you")}</span>}
                {!compact && s.kind === "human" && !s.connected && <span className="tag muted">{t("ui.seat.offline")}</span>}
                {team !== null && !compact && <span className="dx-team-tag">{t("dixit.ui.team", { team: team + 1 })}</span>}
              </span>
              {teller && (
                <span className="dx-teller" title={t("dixit.ui.storyteller")}>
                  <span aria-hidden="true">✎</span>
                  <span className={compact ? "sr-only" : ""}>{t("dixit.ui.storyteller")}</span>
                </span>
              )}
              {badge(progress)}
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
