// One picture card (portrait 2:3). Until its picture loads, or if it cannot, the card
// shows its number and description instead.
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { CardSize } from "../../app/decks";
import type { DeckInfo } from "./useDeck";

interface Props {
  deck: DeckInfo;
  card: number;
  size: CardSize;
  className?: string;
}

export function CardFace({ deck, card, size, className = "" }: Props) {
  const { t } = useTranslation();
  const [failed, setFailed] = useState<string | null>(null);
  const src = deck.src(card, size);
  const description = deck.description(card);
  const label = description ?? t("dixit.ui.card", { number: card + 1 });
  // The description is in the deck's language, whatever the page's (read so).
  const lang = (description && deck.language) || undefined;
  return (
    <span className={`dx-card-face ${className}`} data-card={card}>
      {src === null || failed === src ? (
        <span className="dx-card-fallback">
          <span className="dx-card-number">{card + 1}</span>
          {description && (
            <span className="dx-card-description" lang={lang}>
              {description}
            </span>
          )}
        </span>
      ) : (
        <img src={src} alt={label} lang={lang} loading="lazy" draggable={false} onError={() => setFailed(src)} />
      )}
    </span>
  );
}

/** A card's description for screen readers only, for a control to point at by
 * `aria-describedby` (a button's own label overrides the alt text of its picture, so the
 * cards on the table were read as "Look at card 2 on the table" and no more). Nothing
 * when the deck has no descriptions. */
export function CardDescription({ deck, card, id }: { deck: DeckInfo; card: number; id: string }) {
  const description = deck.description(card);
  if (!description) return null;
  return (
    <span id={id} hidden lang={deck.language ?? undefined}>
      {description}
    </span>
  );
}

/** The `aria-describedby` of a control for `card`, where {@link CardDescription} with
 * `id` describes it. */
export function describedBy(deck: DeckInfo, card: number, id: string): string | undefined {
  return deck.description(card) ? id : undefined;
}

/** A face-down card: a submitted card nobody may see yet. */
export function CardBack({ className = "" }: { className?: string }) {
  return (
    <span className={`dx-card-face dx-card-back ${className}`} aria-hidden="true">
      <span className="dx-card-back-mark">✦</span>
    </span>
  );
}
