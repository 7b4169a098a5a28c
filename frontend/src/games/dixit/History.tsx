// Every finished round, newest first: the clue, the cards with their owners and voters,
// and the points each player gained, with their reasons. Folded until opened.
import { andList } from "../../app/i18n";
import { scrollBehavior } from "../../app/motion";
import { memo } from "react";
import { useTranslation } from "react-i18next";
import type { TableInfo } from "../../app/types";
import { CardFace } from "./Card";
import { ClueText } from "./ClueText";
import { reasonContext } from "./Reveal";
import { roundNames } from "./roundNames";
import { seatColour, type DixitView, type LastRound } from "./types";
import type { DeckInfo } from "./useDeck";

interface Props {
  info: TableInfo;
  view: DixitView;
  deck: DeckInfo;
  onZoom: (card: number, title: string) => void;
  /** Whether, once opened, it scrolls into view (below a phone's table it opens at the
   * window's foot, its rounds out of sight). */
  bringIntoView?: boolean;
}

export const History = memo(function History({ info, view, deck, onZoom, bringIntoView }: Props) {
  const { t } = useTranslation();
  const rounds: LastRound[] = [...(view.history ?? []), ...(view.last_round ? [view.last_round] : [])].reverse();
  if (rounds.length === 0) return null;
  return (
    <details
      className="dx-history"
      onToggle={(event) => {
        const details = event.currentTarget;
        if (bringIntoView && details.open)
          requestAnimationFrame(() => details.scrollIntoView({ block: "start", behavior: scrollBehavior() }));
      }}
    >
      <summary>{t("dixit.ui.history.title", { count: rounds.length })}</summary>
      <ol className="dx-history-rounds" reversed>
        {rounds.map((round) => {
          // Each move named after its maker: a person's rounds stay theirs after a
          // computer player, or someone else, took the seat over.
          const names = roundNames(t, info, view, round);
          return (
          <li key={round.round} className="dx-history-round" data-round={round.round}>
            <h3>{t("dixit.ui.reveal.title", { round: round.round, player: names.storyteller })}</h3>
            {round.clue && <ClueText clue={round.clue} />}
            <ul className="dx-history-slots">
              {round.slots.map((slot) => (
                <li key={slot.slot} className={slot.storyteller ? "storyteller" : ""} data-owner={slot.owner}>
                  <button
                    type="button"
                    className="dx-history-card"
                    aria-label={t("dixit.ui.slot_card", { slot: slot.slot, player: names.owner(slot) })}
                    onClick={() => onZoom(slot.card, t("dixit.ui.slot_card", { slot: slot.slot, player: names.owner(slot) }))}
                  >
                    <CardFace deck={deck} card={slot.card} size="thumb" />
                  </button>
                  <span className="dx-history-owner">
                    <span className="dx-dot" style={{ background: seatColour(view, slot.owner) }} aria-hidden="true" />
                    {t("dixit.ui.reveal.owner", { player: names.owner(slot) })}
                    {slot.storyteller && ` · ${t("dixit.ui.reveal.storytellers_card")}`}
                  </span>
                  <span className="dx-history-votes">
                    {slot.votes.length === 0
                      ? t("dixit.ui.reveal.no_votes")
                      : t("dixit.ui.history.voted", { players: andList(slot.votes.map(names.voter)) })}
                  </span>
                </li>
              ))}
            </ul>
            <ul className="dx-history-points">
              {(round.gained ?? []).map((points, s) => {
                const reasons = round.points
                  .filter((line) => line.seat === s)
                  .map((line) => `${t(line.reason, { ...line.params, points: line.points, context: reasonContext(line.params), defaultValue: line.reason })} +${line.points}`);
                return (
                  <li key={s} data-seat={s}>
                    <span className="dx-history-gain">{`${names.player(s)} +${points}`}</span>
                    {reasons.length > 0 && <span className="dx-history-reasons">{reasons.join(" · ")}</span>}
                  </li>
                );
              })}
            </ul>
          </li>
          );
        })}
      </ol>
    </details>
  );
});
