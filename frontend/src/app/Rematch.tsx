// Play again: once the game is over any seated player may ask for a new table with the
// same game, options and people (docs/protocol.md). Each game's end-of-game dialog shows
// <PlayAgain />; the table page shows it too once the dialog is closed.
import { createContext, useContext, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { api, tokens } from "./api";
import { scrollBehavior } from "./motion";
import { navigate } from "./router";
import { seatName } from "./seatName";
import type { RematchMessage, TableInfo } from "./types";

export interface RematchState {
  info: TableInfo;
  /** The offer, once someone asked (null before). */
  offer: RematchMessage | null;
  /** Ask for a new game; null for a client that only watches. */
  ask: (() => void) | null;
  /** This page's seat (null for a client that only watches). */
  seat: number | null;
}

export const RematchContext = createContext<RematchState | null>(null);

/** Go from the finished table ``from`` to the new one, with this seat's token (and the
 * host token) saved first. The seat is "not yet taken" (-1) until the new table welcomes
 * it: a token refused there (given up meanwhile) is then forgotten, not read as the host
 * removing this person. A big screen of ``from`` open in this browser follows. */
export function joinRematch(from: string, offer: RematchMessage) {
  if (!offer.table) return;
  if (offer.seat !== null && offer.token) tokens.saveSeat(offer.table, -1, offer.token);
  if (offer.host_token) tokens.saveHost(offer.table, offer.host_token);
  tokens.saveNext(from, offer.table);
  navigate(`/t/${offer.table}`);
}

/** "Play again", or once someone asked, the one click that joins the new game. */
export function PlayAgain() {
  const { t } = useTranslation();
  const rematch = useContext(RematchContext);
  const [, setDeclined] = useState(0);
  const asked = useRef<HTMLSpanElement>(null);
  const offered = rematch?.offer?.table ?? null;
  // Someone asked while this page was scrolled elsewhere (a phone held sideways shows
  // the end of a Dixit game's ranking below the fold): bring the question into sight.
  // A question already in sight stays put, and the result's heading above it with it.
  useEffect(() => {
    const question = asked.current;
    if (!offered || !question) return;
    const box = question.getBoundingClientRect();
    if (box.top >= 0 && box.bottom <= window.innerHeight) return;
    question.scrollIntoView({ block: "center", behavior: scrollBehavior() });
  }, [offered]);
  if (!rematch || rematch.info.status !== "finished") return null;
  const { offer, ask, info } = rematch;
  // Someone the host removed from this table is not invited to the next one.
  if (tokens.removed(info.id)) return null;
  if (offer) {
    const who = seatName(t, info, offer.by);
    const mine = offer.by === rematch.seat;
    // Someone watching is told that a new game began, and where only when the new table
    // lets people watch and has no open seat (docs/protocol.md): then they may watch it.
    if (!offer.table || rematch.seat === null) {
      return (
        <span className="play-again">
          <span className="play-again-note">{t("ui.rematch.began", { player: who })}</span>
          {offer.table && (
            <button type="button" onClick={() => navigate(`/t/${offer.table}/watch`)}>
              {t("ui.rematch.watch")}
            </button>
          )}
          <button type="button" onClick={() => navigate("/")}>
            {t("ui.table.own_table")}
          </button>
        </span>
      );
    }
    // Said here, in the dialog or the bar under the table, and remembered after a reload.
    if (tokens.declined(offer.table)) return <span className="play-again-note">{t("ui.rematch.declined")}</span>;
    // No thanks: the seat kept for this person opens, for whoever the host gives its
    // link (a computer player takes it instead where the person saw its hand, which
    // "No thanks" from the old table never shows); the host's role is not declined this
    // way (it passes on by itself when its holder does not come).
    const decline = offer.token && !offer.host_token ? offer.token : null;
    return (
      <span className="play-again" ref={asked}>
        <span className="play-again-note" role="status">
          {mine ? t("ui.rematch.asked_you") : t("ui.rematch.asked", { player: who })}
        </span>
        <button type="button" className="primary" onClick={() => joinRematch(info.id, offer)}>
          {offer.token ? t("ui.rematch.join") : t("ui.rematch.open")}
        </button>
        {decline && (
          <button
            type="button"
            onClick={() => {
              tokens.markDeclined(offer.table!);
              setDeclined((n) => n + 1);
              void api.leave(offer.table!, decline).catch(() => undefined);
            }}
          >
            {t("ui.rematch.no_thanks")}
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
