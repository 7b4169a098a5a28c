// The status line: whose turn it is, and what to do now.
import type { TFunction } from "i18next";
import { cornerNumbers, pointsUp } from "./geometry";
import { signed } from "./placing";
import type { PlaceAction, TriominosView } from "./types";

interface Situation {
  view: TriominosView;
  myTurn: boolean;
  player: (seat: number) => string;
  /** What the status line says of a seat the game waits for (a message key taking
   * `player`: an open seat, a person offline), or null when it plays. */
  waiting?: (seat: number) => string | null;
  /** The tile whose rotation is being chosen, if any. */
  rotating: string | null;
  /** The selected tile, when it has places to go. */
  choosing: string | null;
  canPlace: boolean;
  /** Some tiles of the hand fit nowhere on the table now (they are greyed). */
  someFitNowhere?: boolean;
  canDraw: boolean;
  canPass: boolean;
  /** The tile drawn last this turn (TR-DRAW-1), if any: the line names it, so that each
   * draw that fits nowhere changes the words a screen reader reads out. */
  drawnTile?: string | null;
}

export function statusText(t: TFunction, { view, myTurn, player, waiting, rotating, choosing, canPlace, someFitNowhere, canDraw, canPass, drawnTile }: Situation): string {
  if (view.finished) return t("triominos.ui.status.finished");
  if (!myTurn) {
    if (view.current === null) return "";
    const key = waiting?.(view.current) ?? "triominos.ui.status.their_turn";
    return t(key, { player: player(view.current) });
  }
  if (rotating) return t("triominos.ui.status.rotate", { tile: rotating });
  if (choosing) return t("triominos.ui.status.choose_position", { tile: choosing });
  if (view.board.length === 0) {
    const openings = view.openings ?? [];
    if (openings.length > 1) return t("triominos.ui.status.start_choice", { tile: openings[0].tile, zero: openings[1].tile });
    return view.forced ? t("triominos.ui.status.start_forced", { tile: view.forced }) : t("triominos.ui.status.start");
  }
  if (canPlace) {
    if (view.draws) return t("triominos.ui.status.drawn_fits");
    return t(someFitNowhere ? "triominos.ui.status.your_turn_some_greyed" : "triominos.ui.status.your_turn");
  }
  const drawn = view.draws > 0 ? drawnTile : null;
  if (canDraw)
    return drawn
      ? t("triominos.ui.status.drawn_no_fit", { tile: drawn, points: signed(view.penalties.draw), drawn: view.draws, max: view.max_draws })
      : t("triominos.ui.status.must_draw", { points: signed(view.penalties.draw) });
  if (canPass) return drawn ? t("triominos.ui.status.drawn_must_pass", { tile: drawn }) : t("triominos.ui.status.must_pass");
  return t("triominos.ui.status.your_turn");
}

/** Which number a placement puts on which corner, in words ("0 at the top, 2 at the
 * lower right, 5 at the lower left."): the picture alone told it, so a player who
 * cannot see the board turned the tile blind. Corners as `cornerPoints` numbers them:
 * pointing up, the top, lower right and lower left; pointing down, the upper left, upper
 * right and bottom. */
export function cornersText(t: TFunction, action: PlaceAction): string {
  const [first, second, third] = cornerNumbers(action.tile, action.rotation);
  return pointsUp(action.position)
    ? t("triominos.ui.status.corners_up", { top: first, right: second, left: third })
    : t("triominos.ui.status.corners_down", { left: first, right: second, bottom: third });
}
