// The status line of a finished game: who won, once the result dialog is closed.
import type { TFunction } from "i18next";
import { andList } from "./i18n";

/** "The game is over: Anna won." ("you won!", "… share the win."): ``winners`` are the
 * winning seats (or teams) as ``label`` names them; ``mine`` whether this page's seat is
 * among them. */
export function gameOverStatus(t: TFunction, winners: string[], mine: boolean): string {
  if (mine) return t(winners.length > 1 ? "ui.game_over.you_share" : "ui.game_over.you_win");
  return t("ui.game_over.won", { players: andList(winners), count: winners.length });
}
