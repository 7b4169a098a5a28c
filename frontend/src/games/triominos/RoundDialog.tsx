// The end of a round (who went out, points by reason, tiles left), the running totals
// of every round, and once the game is over the final ranking.
import { andList } from "../../app/i18n";
import { useLayoutEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { GameOverLinks } from "../../app/GameOverLinks";
import { useScreenMode } from "../../app/replay";
import { infoAt, keepSeatNumber, seatName, shortSeatName } from "../../app/seatName";
import { useModal } from "../../app/useModal";
import type { Outcome, TableInfo } from "../../app/types";
import { score, signed } from "./placing";
import { seatColour, type RoundSummary, type TriominosView } from "./types";

interface Props {
  info: TableInfo;
  view: TriominosView;
  seat: number | null;
  outcome: Outcome | undefined;
  /** Index into ``view.rounds`` of the round shown. */
  index: number;
  onShowRound: (index: number) => void;
  onClose: () => void;
}

export function RoundDialog({ info, view, seat, outcome, index, onShowRound, onClose }: Props) {
  const { t } = useTranslation();
  const summary = view.rounds[index];
  // The round's end and points name each seat as it was held then: it may have changed
  // hands since (docs/protocol.md, `earlier`); the totals, over every round, name the
  // seats as they are now.
  const then = summary?.actions !== undefined ? infoAt(info, summary.actions - 1) : info;
  const player = (s: number) => seatName(t, then, s);
  const finished = view.finished && index === view.rounds.length - 1;
  const closeButton = useRef<HTMLButtonElement>(null);
  // The big screen, which nobody clicks, shows a round's summary until the next round
  // begins: no button to close it there.
  const onScreen = useScreenMode();
  // Keyboard focus goes to the close button, but the dialog opens at its top: on a phone
  // the button is far below the headline and the ranking, and focusing it would scroll
  // them out of sight. Tab stays inside the dialog; Escape closes it.
  const box = useRef<HTMLDivElement>(null);
  // On the big screen nothing takes the focus (a round's number in the totals showed
  // the keyboard's ring there, on a TV nobody touches).
  const noBox = useRef<HTMLDivElement>(null);
  useModal(onScreen ? noBox : box, onClose, closeButton);
  // What Tab brings into view (a round's number in the totals) stops above the actions'
  // bar at the dialog's foot, not under it (at 200 % the bar hid the last rounds).
  const panel = useRef<HTMLDivElement>(null);
  const actions = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const scroller = panel.current;
    const bar = actions.current;
    if (!scroller || !bar) return;
    const fit = () => {
      scroller.style.scrollPaddingBottom = `${bar.offsetHeight + 8}px`;
    };
    fit();
    const watching = new ResizeObserver(fit);
    watching.observe(bar);
    return () => watching.disconnect();
  }, [summary !== undefined]);

  if (!summary) return null;
  return (
    <div ref={box} className="overlay" role="dialog" aria-modal="true" aria-labelledby="tr-summary-title">
      <div ref={panel} className="panel tr-summary" data-round={summary.round} data-finished={finished ? "true" : undefined}>
        {finished ? (
          <FinalHeadline info={info} view={view} seat={seat} outcome={outcome} />
        ) : (
          <h2 id="tr-summary-title">{t("triominos.ui.summary.title", { round: summary.round })}</h2>
        )}
        {finished && <h3 className="tr-summary-round">{t("triominos.ui.summary.title", { round: summary.round })}</h3>}
        <p className="tr-summary-end" data-end={summary.end}>
          {summary.end === "out"
            ? t(info.seats.length === 1 ? "triominos.ui.summary.out_alone" : "triominos.ui.summary.out", { player: player(summary.winners[0]) })
            : t("triominos.ui.summary.blocked", { players: andList(summary.winners.map(player)), count: summary.winners.length })}
        </p>
        <RoundPoints info={then} summary={summary} nested={finished} />
        <Totals info={info} view={view} shown={index} onShowRound={onShowRound} />
        <div ref={actions} className="result-actions">
          {/* The big screen keeps the result up: nothing to close (its foot covered the
              points per round on a 720p TV). */}
          {!onScreen && (
            <button type="button" ref={closeButton} className={finished ? "" : "primary"} data-action="close-summary" onClick={onClose}>
              {finished ? t("triominos.ui.summary.see_table") : view.finished ? t("ui.close") : t("triominos.ui.summary.continue")}
            </button>
          )}
          {view.finished && (
            <>
              <GameOverLinks info={info} />
            </>
          )}
        </div>
      </div>
    </div>
  );
}

function FinalHeadline({ info, view, seat, outcome }: { info: TableInfo; view: TriominosView; seat: number | null; outcome: Outcome | undefined }) {
  const { t } = useTranslation();
  const player = (s: number) => seatName(t, info, s);
  const winners = outcome?.winners ?? view.winners;
  const won = seat !== null && winners.includes(seat);
  const scores = outcome?.scores ?? view.scores;
  const ranks = outcome?.ranking ?? scores.map((s) => 1 + scores.filter((o) => o > s).length);
  const order = scores.map((_, s) => s).sort((a, b) => ranks[a] - ranks[b] || a - b);
  const passed = scores.map((_, s) => s).filter((s) => view.target_score !== null && scores[s] >= view.target_score);
  let headline: string;
  // Alone at the table there is nobody to win against: the score is the news.
  if (info.seats.length === 1)
    headline = t("triominos.ui.final.alone", { player: player(0), points: t("triominos.ui.points", { count: scores[0], score: score(scores[0]) }) });
  else if (won) headline = winners.length > 1 ? t("triominos.ui.final.you_share") : t("triominos.ui.final.you_win");
  else headline = t("triominos.ui.final.wins", { players: andList(winners.map((s) => keepSeatNumber(player(s)))), count: winners.length });
  return (
    <>
      <h2 id="tr-summary-title" className={won && info.seats.length > 1 ? "won" : ""}>
        {headline}
      </h2>
      {view.win_rule === "round_winner" && view.target_score !== null && (
        <p className="tr-win-rule" data-rule="round_winner">
          {t("triominos.ui.final.round_winner", {
            // Two lists, each with its own verb: who passed the target, and who won the round.
            reached: t("triominos.ui.final.round_reached", { passed: andList(passed.map(player)), target: view.target_score, count: passed.length }),
            players: andList(winners.map(player)),
            count: winners.length,
          })}
        </p>
      )}
      <ol className="tr-ranking" aria-label={t("triominos.ui.final.ranking")}>
        {order.map((s) => (
          <li key={s} data-seat={s} data-rank={ranks[s]} data-score={scores[s]} className={winners.includes(s) ? "winner" : ""}>
            <span className="tr-rank">{ranks[s]}.</span>
            <span className="tr-seat-dot" style={{ background: seatColour(s) }} aria-hidden="true" />
            <span className="tr-rank-name">{player(s)}</span>
            <span className="tr-rank-score">{t("triominos.ui.points", { count: scores[s], score: score(scores[s]) })}</span>
          </li>
        ))}
      </ol>
    </>
  );
}

/** The order of a round's points, the same for every seat: the server lists each seat's
 * reasons in the order they first happened that round (a draw before the first tile…). */
const REASONS = ["tile", "start_bonus", "bridge", "extended_bridge", "hexagon", "double_hexagon", "triple_hexagon", "draw", "pass", "out", "hands_left", "blocked"].map(
  (reason) => `triominos.reasons.${reason}`,
);

/** Where ``reason`` comes in REASONS (any other reason last, in the server's order). */
const reasonRank = (reason: string) => {
  const rank = REASONS.indexOf(reason);
  return rank < 0 ? REASONS.length : rank;
};

/** Each seat's points of the round, by reason, and the tiles left in each hand. Each
 * seat's heading is one level under the round's: an h3 under the dialog's "Round 2", an
 * h4 under the final result's "Round 3" (it was an h4 under an h2 mid-game). */
function RoundPoints({ info, summary, nested }: { info: TableInfo; summary: RoundSummary; nested: boolean }) {
  const Heading = nested ? "h4" : "h3";
  const { t } = useTranslation();
  return (
    <div className="tr-round-points">
      {summary.round_totals.map((total, s) => {
        const lines = summary.points.filter((line) => line.seat === s).sort((a, b) => reasonRank(a.reason) - reasonRank(b.reason));
        return (
          <section key={s} className="tr-round-seat" data-seat={s} data-round-total={total}>
            <Heading className="tr-round-seat-heading">
              <span className="tr-seat-dot" style={{ background: seatColour(s) }} aria-hidden="true" />
              <span className="tr-round-seat-name">{seatName(t, info, s)}</span>
              <span className="tr-round-seat-total">{signed(total)}</span>
            </Heading>
            <ul>
              {lines.map((line, i) => (
                <li key={i} data-reason={line.reason}>
                  <span>
                    {t(line.reason, { defaultValue: line.reason })}
                    {(line.params.count ?? 1) > 1 && <span className="tr-count"> × {line.params.count}</span>}
                  </span>
                  <span className={line.points < 0 ? "minus" : ""}>{signed(line.points)}</span>
                </li>
              ))}
              {lines.length === 0 && <li className="muted">—</li>}
            </ul>
            <p className="tr-left" data-tiles-left={summary.tiles_left[s]}>
              {t("triominos.ui.summary.tiles_left", { count: summary.tiles_left[s], value: summary.hand_values[s] })}
            </p>
          </section>
        );
      })}
    </div>
  );
}

/** Rounds × seats: each round's points, then the totals. */
function Totals({ info, view, shown, onShowRound }: { info: TableInfo; view: TriominosView; shown: number; onShowRound: (index: number) => void }) {
  const { t } = useTranslation();
  const seats = info.seats.map((s) => s.seat);
  const latest = view.rounds[view.rounds.length - 1];
  return (
    <section className="tr-totals-block" aria-labelledby="tr-totals-title">
      {/* The title outside the box that scrolls sideways on a phone: it stays in place. */}
      <h3 id="tr-totals-title" className="tr-totals-title">
        {t("triominos.ui.summary.totals")}
      </h3>
      <div className="tr-totals-wrap scroll-fade">
        <table className="tr-totals" aria-labelledby="tr-totals-title">
          <thead>
            <tr>
              <th scope="col">{t("triominos.ui.summary.round_column")}</th>
              {seats.map((s) => (
                <th key={s} scope="col">
                  <span className="tr-seat-dot" style={{ background: seatColour(s) }} aria-hidden="true" />
                  {/* "Computer 2", not "Computer 2 · Medium": on a phone four seats'
                      columns then fit (the names were cut at the window's edge). */}
                  {shortSeatName(t, info, s)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {view.rounds.map((round, i) => (
              <tr key={round.round} className={i === shown ? "shown" : ""} data-round={round.round}>
                <th scope="row">
                  <button type="button" className="link" onClick={() => onShowRound(i)} aria-pressed={i === shown}>
                    {round.round}
                  </button>
                </th>
                {seats.map((s) => (
                  <td key={s} className={round.winners.includes(s) ? "winner" : ""}>
                    {signed(round.round_totals[s])}
                    {/* Not by colour alone: underlined, and in words for screen readers. */}
                    {round.winners.includes(s) && (
                      <span className="sr-only"> ({t("triominos.ui.summary.round_winner_mark")})</span>
                    )}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row">{t("triominos.ui.summary.total")}</th>
              {seats.map((s) => (
                <td key={s} data-seat={s} data-score={latest.scores[s]}>
                  {score(latest.scores[s])}
                </td>
              ))}
            </tr>
          </tfoot>
        </table>
      </div>
      <p className="tr-totals-legend">{t("triominos.ui.summary.winner_legend")}</p>
    </section>
  );
}
