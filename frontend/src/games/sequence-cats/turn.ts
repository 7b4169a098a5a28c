// What a seat must do on its turn, read from its legal actions alone (the status line
// and the notification of the turn say it).
import type { TFunction } from "i18next";
import type { Action } from "../../app/types";
import type { SequenceView } from "./types";

/** The one thing the legal actions leave to do (choose a sequence's five, exchange a
 * dead card, pass), or null when the seat plays a card of its choice. */
export function forcedTurn(t: TFunction, legal: readonly Action[]): string | null {
  if (legal.some((a) => a.type === "sequence")) return t("sequence_cats.ui.choose_sequence");
  const plays = legal.some((a) => a.type === "play");
  const pass = legal.some((a) => a.type === "pass");
  if (legal.some((a) => a.type === "exchange") && !plays && !pass) return t("sequence_cats.ui.must_exchange");
  if (pass) return t("sequence_cats.ui.must_pass");
  return null;
}

/** The notification's words for a turn: a draw offer to answer, else what to do. */
export function turnPrompt(t: TFunction, view: SequenceView, legal: readonly Action[], player: (seat: number) => string): string {
  if (view.draw_offer) return t("sequence_cats.ui.offered_draw", { player: player(view.draw_offer.by) });
  return forcedTurn(t, legal) ?? t("sequence_cats.ui.your_turn");
}
