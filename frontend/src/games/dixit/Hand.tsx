// Your cards: tap one to see it large; the button under a card chooses it.
import { memo } from "react";
import { useTranslation } from "react-i18next";
import { CardFace } from "./Card";
import type { DeckInfo } from "./useDeck";
import { FitLabel } from "../../app/FitLabel";

interface Props {
  deck: DeckInfo;
  hand: number[];
  /** Cards that may be chosen now (empty: none). */
  choosable: Set<number>;
  chosen: number[];
  /** Cards given this round, marked in the hand until the round ends. */
  given: number[];
  onToggle: (card: number) => void;
  onZoom: (card: number) => void;
}

export const Hand = memo(function Hand({ deck, hand, choosable, chosen, given, onToggle, onZoom }: Props) {
  const { t } = useTranslation();
  return (
    <ul className="dx-hand scroll-fade" aria-label={t("dixit.ui.your_hand")} style={{ ["--hand-count" as string]: String(hand.length) }}>
      {hand.map((card) => {
        const can = choosable.has(card);
        const isChosen = chosen.includes(card);
        const isGiven = given.includes(card);
        const name = deck.description(card) ?? t("dixit.ui.card", { number: card + 1 });
        return (
          <li
            key={card}
            className={`dx-hand-card ${isChosen ? "chosen" : ""} ${isGiven ? "given" : ""}`}
            data-card={card}
            data-choosable={can ? "true" : "false"}
            data-chosen={isChosen ? "true" : undefined}
          >
            <button
              type="button"
              className="dx-card-button"
              aria-label={t("dixit.ui.look_at", { card: name })}
              onClick={() => onZoom(card)}
            >
              <CardFace deck={deck} card={card} size="thumb" />
              {isGiven && <span className="dx-card-badge">{t("dixit.ui.given")}</span>}
            </button>
            {can && (
              <button
                type="button"
                className={`dx-choose ${isChosen ? "selected" : ""}`}
                aria-pressed={isChosen}
                data-action="choose"
                // Six "Choose" buttons read alike: each says its card (its words first).
                aria-label={`${isChosen ? t("dixit.ui.chosen") : t("dixit.ui.choose")}: ${name}`}
                onClick={() => onToggle(card)}
              >
                {isChosen ? <FitLabel full={t("dixit.ui.chosen")} short="✓" /> : t("dixit.ui.choose")}
              </button>
            )}
          </li>
        );
      })}
    </ul>
  );
});
