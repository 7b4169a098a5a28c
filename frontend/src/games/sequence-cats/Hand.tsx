// Your cards: tap one to see where it can go; dead cards can be exchanged.
import { useTranslation } from "react-i18next";
import type { Action } from "../../app/types";
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
  onSelect: (index: number | null) => void;
  onAction: (action: Action) => void;
}

export function Hand({ hand, dead, selected, playable, exchange, myTurn, cardName, cardText, onSelect, onAction }: Props) {
  const { t } = useTranslation();
  return (
    <section className="sc-hand" aria-label={t("sequence_cats.ui.your_hand")}>
      <ul className="sc-cards">
        {hand.map((card, index) => {
          const isDead = dead.includes(card);
          const isSelected = selected === index;
          const canExchange = exchange.get(card);
          return (
            <li key={`${card}-${index}`}>
              <button
                type="button"
                className={`sc-card ${isSelected ? "selected" : ""} ${isDead ? "dead" : ""} ${card === "purrr" || card === "meow" ? `special ${card}` : ""}`}
                data-card={card}
                aria-pressed={isSelected}
                aria-label={`${cardName(card)}${isDead ? ` (${t("sequence_cats.ui.dead")})` : ""}`}
                title={cardText(card)}
                disabled={!myTurn || !playable.has(card)}
                onClick={() => onSelect(isSelected ? null : index)}
              >
                <CatIcon breed={card} size={44} />
                <span className="sc-card-name">{cardName(card)}</span>
                {isDead && <span className="sc-dead-badge">{t("sequence_cats.ui.dead")}</span>}
              </button>
              {canExchange && myTurn && (
                <button type="button" className="sc-exchange" data-exchange={card} onClick={() => onAction(canExchange)}>
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
