// A card seen large, with its description; Escape or the close button puts it away.
import { useRef, type ReactNode } from "react";
import { useModal } from "../../app/useModal";
import { useTranslation } from "react-i18next";
import { CardFace } from "./Card";
import type { DeckInfo } from "./useDeck";

interface Props {
  deck: DeckInfo;
  card: number;
  title: string;
  /** Buttons for what may be done with the card here (choose, vote…). */
  children?: ReactNode;
  onClose: () => void;
}

export function CardZoom({ deck, card, title, children, onClose }: Props) {
  const { t } = useTranslation();
  const close = useRef<HTMLButtonElement>(null);
  // Focus on the close button; Tab goes round the dialog's buttons, not to the page
  // behind the overlay; Escape closes it and focus goes back to the card. Once, on
  // opening (the table hands a new onClose at every render).
  const box = useRef<HTMLDivElement>(null);
  useModal(box, onClose, close);
  const description = deck.description(card);
  return (
    <div
      ref={box}
      className="overlay dx-zoom-overlay"
      role="dialog"
      aria-modal="true"
      aria-labelledby="dx-zoom-title"
      onClick={(event) => event.target === event.currentTarget && onClose()}
    >
      <div className="dx-zoom panel" data-card={card}>
        <div className="dx-zoom-head">
          <h2 id="dx-zoom-title">{title}</h2>
          <button type="button" ref={close} className="dx-zoom-close" aria-label={t("ui.close")} onClick={onClose}>
            ×
          </button>
        </div>
        <CardFace deck={deck} card={card} size="full" className="dx-zoom-card" />
        <p className="dx-zoom-description" lang={(description && deck.language) || undefined} dir="auto">
          {description ?? t("dixit.ui.no_description")}
        </p>
        {children && <div className="dx-zoom-actions">{children}</div>}
      </div>
    </div>
  );
}
