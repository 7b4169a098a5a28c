// What a seat must do on its turn, read from its legal actions alone (the status line
// and the notification of the turn say it).
import type { TFunction } from "i18next";
import type { Action } from "../../app/types";
import type { SequenceView } from "./types";

/** The one thing the legal actions leave to do (choose a sequence's five, exchange a
 * dead card, pass), or null when the seat plays a card of its choice. */
export function forcedTurn(t: TFunction, legal: readonly Action[], view?: SequenceView): string | null {
  if (legal.some((a) => a.type === "sequence")) return t(sequenceChoiceKey(view));
  const plays = legal.some((a) => a.type === "play");
  const pass = legal.some((a) => a.type === "pass");
  if (legal.some((a) => a.type === "exchange") && !plays && !pass) return t("sequence_cats.ui.must_exchange");
  if (pass) return t("sequence_cats.ui.must_pass");
  return null;
}

/** What the seat choosing which five form a sequence is told (SC-WIN-2): a chip that
 * makes two lines longer than five asks for them one after the other, and the second
 * choice read as if the first had not been taken. Every candidate holds the new chip,
 * so a sequence of the team through it is a line already chosen. */
function sequenceChoiceKey(view?: SequenceView): string {
  const choosing = view?.choosing;
  if (!view || !choosing) return "sequence_cats.ui.choose_sequence";
  if ((choosing.later?.length ?? 0) > 0) return "sequence_cats.ui.choose_sequence_lines";
  const chip = view.last_play?.space;
  const team = view.team_of[choosing.seat];
  const chosen = view.sequences.some((s) => s.team === team && chip !== undefined && s.spaces.includes(chip));
  return chosen ? "sequence_cats.ui.choose_sequence_next" : "sequence_cats.ui.choose_sequence";
}

/** The notification's words for a turn: a draw offer to answer, else what to do. */
export function turnPrompt(t: TFunction, view: SequenceView, legal: readonly Action[], player: (seat: number) => string): string {
  if (view.draw_offer) return t("sequence_cats.ui.offered_draw", { player: player(view.draw_offer.by) });
  return forcedTurn(t, legal, view) ?? t("sequence_cats.ui.your_turn");
}
