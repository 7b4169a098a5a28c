// While cards are being given: one face-down card per giver as it comes in (never which).
import { memo } from "react";
import { useTranslation } from "react-i18next";
import { seatName, shortSeatName } from "../../app/seatName";
import type { TableInfo } from "../../app/types";
import { CardBack, CardFace } from "./Card";
import type { DeckInfo } from "./useDeck";
import { cardsToCome } from "./status";
import { seatColour, type DixitView } from "./types";

/** ``over``: the game ended while cards were being given (its host ended it): the cards
 * in stay, and nobody is shown as still giving. */
export const Submissions = memo(function Submissions({
  info,
  view,
  deck,
  seat,
  over = false,
}: {
  info: TableInfo;
  view: DixitView;
  deck: DeckInfo;
  seat: number | null;
  over?: boolean;
}) {
  const { t } = useTranslation();
  // The storyteller's card is already in (base, Team); in Party the storyteller gives too.
  const givers = view.gives;
  return (
    <ol className="dx-submissions" aria-label={t("dixit.ui.cards_in", { done: view.submitted.length, total: cardsToCome(view) })}>
      {givers.map((s) => {
        const done = view.submitted.includes(s);
        // One's own card shows its face, to oneself only (the view holds it): a card
        // back there looked as if it had gone.
        const own = s === seat && done && view.my_submission?.length ? view.my_submission[0] : null;
        return (
          <li key={s} className={`dx-submission ${done ? "done" : ""}`} data-seat={s} data-submitted={done ? "true" : "false"}>
            {/* The seat's colour on the card's corner leaves the name the card's width. */}
            <span className="dx-submission-card">
              {own !== null ? (
                <CardFace deck={deck} card={own} size="thumb" className="dx-own-given" />
              ) : done ? (
                <CardBack />
              ) : (
                <span className="dx-card-face dx-card-empty" aria-hidden="true" />
              )}
              <span className="dx-dot" style={{ background: seatColour(view, s) }} aria-hidden="true" />
            </span>
            <span className="dx-submission-name" title={seatName(t, info, s)}>
              <span className="dx-submission-name-text">{shortSeatName(t, info, s)}</span>
            </span>
            {!over && (
              <span className={`dx-progress ${done ? "done" : "waiting"}`}>
                {done ? t("dixit.ui.progress.submit_done") : t("dixit.ui.progress.submit_waiting")}
              </span>
            )}
          </li>
        );
      })}
    </ol>
  );
});
