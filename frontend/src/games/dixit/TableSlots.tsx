// The cards on the table in numbered slots 1…n, and the vote buttons under them.
import { memo, useId } from "react";
import { useTranslation } from "react-i18next";
import { CardDescription, CardFace, describedBy } from "./Card";
import type { DeckInfo } from "./useDeck";
import { FitLabel } from "../../app/FitLabel";

interface Props {
  deck: DeckInfo;
  table: number[];
  ownSlots: number[];
  /** Slots open to a green vote / to the red vote now. */
  voteSlots: Set<number>;
  redSlots: Set<number>;
  green: number[];
  red: number | null;
  /** The vote already cast, shown once it is in. */
  cast: { slots: number[]; red: number | null } | null;
  /** `byKeyboard`: the vote came from Enter or Space (the click's `detail` is 0). */
  onGreen: (slot: number, byKeyboard: boolean) => void;
  onRed: (slot: number, byKeyboard: boolean) => void;
  onZoom: (slot: number) => void;
}

export const TableSlots = memo(function TableSlots({ deck, table, ownSlots, voteSlots, redSlots, green, red, cast, onGreen, onRed, onZoom }: Props) {
  const { t } = useTranslation();
  const ids = useId();
  return (
    <ol className="dx-slots" aria-label={t("dixit.ui.table")}>
      {table.map((card, index) => {
        const slot = index + 1;
        const description = `${ids}-${slot}`;
        const own = ownSlots.includes(slot);
        const picked = green.includes(slot) || cast?.slots.includes(slot);
        const redded = red === slot || cast?.red === slot;
        return (
          <li
            key={slot}
            className={`dx-slot ${own ? "own" : ""} ${picked ? "voted" : ""} ${redded ? "red" : ""}`}
            data-slot={slot}
            data-card={card}
            data-own={own ? "true" : undefined}
          >
            <span className="dx-slot-number" aria-hidden="true">{slot}</span>
            <button
              type="button"
              className="dx-card-button"
              aria-label={own ? `${t("dixit.ui.look_at_slot", { slot })}: ${t("dixit.ui.yours")}` : t("dixit.ui.look_at_slot", { slot })}
              aria-describedby={describedBy(deck, card, description)}
              onClick={() => onZoom(slot)}
            >
              <CardFace deck={deck} card={card} size="thumb" />
              {own && <span className="dx-card-badge own">{t("dixit.ui.yours")}</span>}
            </button>
            <SlotButtons
              slot={slot}
              canGreen={voteSlots.has(slot)}
              canRed={redSlots.has(slot)}
              green={green.includes(slot)}
              red={red === slot}
              onGreen={onGreen}
              onRed={onRed}
              describedBy={describedBy(deck, card, description)}
            />
            <CardDescription deck={deck} card={card} id={description} />
            {cast && (cast.slots.includes(slot) || cast.red === slot) && (
              <span className="dx-slot-mine">
                {cast.red === slot ? t("dixit.ui.your_red_vote") : t("dixit.ui.your_vote")}
              </span>
            )}
          </li>
        );
      })}
    </ol>
  );
});

interface ButtonProps {
  slot: number;
  canGreen: boolean;
  canRed: boolean;
  green: boolean;
  red: boolean;
  /** `byKeyboard`: the vote came from Enter or Space (the click's `detail` is 0). */
  onGreen: (slot: number, byKeyboard: boolean) => void;
  onRed: (slot: number, byKeyboard: boolean) => void;
  /** The id of the card's description, read after each button's name. */
  describedBy?: string;
}

export function SlotButtons({ slot, canGreen, canRed, green, red, onGreen, onRed, describedBy }: ButtonProps) {
  const { t } = useTranslation();
  if (!canGreen && !canRed) return null;
  // Party's storyteller has both buttons under each card: there a chosen one says so by
  // its colour (and the card's outline) alone, since "Chosen ✓" beside "Red" made one
  // card's buttons wrap under each other and moved the table's rows.
  const both = canGreen && canRed;
  return (
    <span className="dx-slot-buttons">
      {canGreen && (
        <button
          type="button"
          className={`dx-vote ${green ? "selected" : ""}`}
          aria-pressed={green}
          data-action="vote-slot"
          aria-label={t("dixit.ui.vote_for_slot", { slot })}
          aria-describedby={describedBy}
          onClick={(event) => onGreen(slot, event.detail === 0)}
        >
          {green && !both ? <FitLabel full={t("dixit.ui.vote_chosen")} short="✓" /> : t("dixit.ui.vote")}
        </button>
      )}
      {canRed && (
        <button
          type="button"
          className={`dx-red ${red ? "selected" : ""}`}
          aria-pressed={red}
          data-action="red-slot"
          aria-label={t("dixit.ui.red_for_slot", { slot })}
          aria-describedby={describedBy}
          onClick={(event) => onRed(slot, event.detail === 0)}
        >
          {red && !both ? <FitLabel full={t("dixit.ui.red_chosen")} short="✓" /> : t("dixit.ui.red")}
        </button>
      )}
    </span>
  );
}
