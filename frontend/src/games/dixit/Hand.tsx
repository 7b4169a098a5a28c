// Your cards: tap one to see it large; the button under a card chooses it.
import { memo, useId } from "react";
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
  /** `byKeyboard`: the choice came from Enter or Space (the click's `detail` is 0). */
  onToggle: (card: number, byKeyboard: boolean) => void;
  onZoom: (card: number) => void;
}

export const Hand = memo(function Hand({ deck, hand, choosable, chosen, given, onToggle, onZoom }: Props) {
  const { t } = useTranslation();
  // The buttons' names take the card's description from an element marked with the
  // deck's language, so that a screen reader reads it in that language, not the page's.
  const ids = useId();
  const [lookBefore, lookAfter] = t("dixit.ui.look_at", { card: "\u0000" }).split("\u0000").map((part) => part.trim());
  return (
    <ul className="dx-hand scroll-fade" aria-label={t("dixit.ui.your_hand")} style={{ ["--hand-count" as string]: String(hand.length) }}>
      {hand.map((card) => {
        const can = choosable.has(card);
        const isChosen = chosen.includes(card);
        const isGiven = given.includes(card);
        const description = deck.description(card);
        const name = description ?? t("dixit.ui.card", { number: card + 1 });
        const id = (part: string) => `${ids}${card}-${part}`;
        const look = [lookBefore && id("look"), id("name"), lookAfter && id("after")].filter(Boolean).join(" ");
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
              aria-labelledby={look}
              onClick={() => onZoom(card)}
            >
              <span hidden>
                {lookBefore && <span id={id("look")}>{lookBefore}</span>}
                <span id={id("name")} lang={(description && deck.language) || undefined}>
                  {name}
                </span>
                {lookAfter && <span id={id("after")}>{lookAfter}</span>}
                <span id={id("choose")}>{`${isChosen ? t("dixit.ui.chosen") : t("dixit.ui.choose")}:`}</span>
              </span>
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
                aria-labelledby={`${id("choose")} ${id("name")}`}
                onClick={(event) => onToggle(card, event.detail === 0)}
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
