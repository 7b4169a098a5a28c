// Play again: once the game is over any seated player may ask for a new table with the
// same game, options and people (docs/protocol.md). Each game's end-of-game dialog shows
// <PlayAgain />; the table page shows it too once the dialog is closed.
import { createContext, useContext } from "react";
import { useTranslation } from "react-i18next";
import { tokens } from "./api";
import { navigate } from "./router";
import { seatName } from "./seatName";
import type { RematchMessage, TableInfo } from "./types";

export interface RematchState {
  info: TableInfo;
  /** The offer, once someone asked (null before). */
  offer: RematchMessage | null;
  /** Ask for a new game; null for a client that only watches. */
  ask: (() => void) | null;
}

export const RematchContext = createContext<RematchState | null>(null);

/** Go to the new table, with this seat's token (and the host token) saved first. */
export function joinRematch(offer: RematchMessage) {
  if (!offer.table) return;
  if (offer.seat !== null && offer.token) tokens.saveSeat(offer.table, offer.seat, offer.token);
  if (offer.host_token) tokens.saveHost(offer.table, offer.host_token);
  navigate(`/t/${offer.table}`);
}

/** "Play again", or once someone asked, the one click that joins the new game. */
export function PlayAgain() {
  const { t } = useTranslation();
  const rematch = useContext(RematchContext);
  if (!rematch || rematch.info.status !== "finished") return null;
  const { offer, ask, info } = rematch;
  // Someone the host removed from this table is not invited to the next one.
  if (tokens.removed(info.id)) return null;
  if (offer) {
    const who = seatName(t, info, offer.by);
    return (
      <span className="play-again">
        <span className="play-again-note">{t("ui.rematch.asked", { player: who })}</span>
        {/* Someone watching is told that a new game began, not where (docs/protocol.md). */}
        {offer.table && (
          <button type="button" className="primary" onClick={() => joinRematch(offer)}>
            {offer.token ? t("ui.rematch.join") : t("ui.rematch.open")}
          </button>
        )}
      </span>
    );
  }
  if (!ask) return null;
  return (
    <button type="button" className="primary play-again" onClick={ask}>
      {t("ui.rematch.play_again")}
    </button>
  );
}

/** Under a finished game: the same choice, for when the end-of-game dialog is closed. */
export function RematchBar() {
  const rematch = useContext(RematchContext);
  if (!rematch || rematch.info.status !== "finished" || (!rematch.offer && !rematch.ask)) return null;
  if (tokens.removed(rematch.info.id)) return null;
  return (
    <div className="rematch-bar">
      <PlayAgain />
    </div>
  );
}
