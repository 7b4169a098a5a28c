// Your cards: tap one to see where it can go; dead cards can be exchanged.
import { useTranslation } from "react-i18next";
import type { Action } from "../../app/types";
import { BreakableName } from "./BreakableName";
import { breakable } from "./breaks";
import { CatIcon } from "./CatIcon";

interface Props {
  hand: string[];
  dead: string[];
  selected: number | null;
  playable: Set<string>;
  exchange: Map<string, Action>;
  myTurn: boolean;
  cardName: (card: string) => string;
  cardText: (card: string) => string;
  /** ``byKeyboard``: chosen with Enter or Space (focus then moves to the board). */
  onSelect: (index: number | null, byKeyboard: boolean) => void;
  onAction: (action: Action) => void;
}

/**
 * A key per card that stays with the card while it is in the hand: the card and which
 * copy of it this is (a hand may hold two of a breed). Playing one card then leaves the
 * others' buttons where they are, instead of re-creating every card after it.
 */
export function cardKeys(hand: string[]): string[] {
  const seen = new Map<string, number>();
  return hand.map((card) => {
    const copy = seen.get(card) ?? 0;
    seen.set(card, copy + 1);
    return `${card}#${copy}`;
  });
}

export function Hand({ hand, dead, selected, playable, exchange, myTurn, cardName, cardText, onSelect, onAction }: Props) {
  const { t } = useTranslation();
  const keys = cardKeys(hand);
  return (
    <section className="sc-hand" aria-label={t("sequence_cats.ui.your_hand")}>
      <ul className="sc-cards">
        {hand.map((card, index) => {
          const isDead = dead.includes(card);
          const isSelected = selected === index;
          const canExchange = exchange.get(card);
          const shown = breakable(cardName(card)); // the label is the visible text (Board.tsx)
          return (
            <li key={keys[index]}>
              <button
                type="button"
                className={`sc-card ${isSelected ? "selected" : ""} ${isDead ? "dead" : ""} ${card === "purrr" || card === "meow" ? `special ${card}` : ""}`}
                data-card={card}
                aria-pressed={isSelected}
                aria-label={`${shown}${isDead ? ` (${t("sequence_cats.ui.dead")})` : ""}`}
                title={cardText(card)}
                disabled={!myTurn || !playable.has(card)}
                onClick={(event) => onSelect(isSelected ? null : index, event.detail === 0)}
              >
                <CatIcon breed={card} size={44} />
                <span className="sc-card-name">
                  <BreakableName shown={shown} />
                </span>
                {isDead && <span className="sc-dead-badge">{t("sequence_cats.ui.dead")}</span>}
              </button>
              {canExchange && myTurn && (
                <button
                  type="button"
                  className="sc-exchange"
                  data-exchange={card}
                  // Which card goes: with two dead cards, two buttons said "Exchange".
                  aria-label={t("sequence_cats.ui.exchange_card", { card: cardName(card) })}
                  onClick={() => onAction(canExchange)}
                >
                  {t("sequence_cats.ui.exchange")}
                </button>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
