// What the legal actions allow: which tiles can be laid, where, and in which rotations.
import type { Action } from "../../app/types";
import { keyOf, tileValue } from "./geometry";
import type { Bonus, OpenPosition, PlaceAction, Position, PublicInfo, TriominosView } from "./types";

/** A position the selected tile can take, with every rotation that fits there. */
export interface Target {
  key: string;
  position: Position;
  actions: PlaceAction[];
  bonus: Bonus | null;
}

export const isPlace = (action: Action): action is PlaceAction => action.type === "place";

export function placeActions(legal: readonly Action[]): PlaceAction[] {
  return legal.filter(isPlace);
}

export function playableTiles(actions: readonly PlaceAction[]): Set<string> {
  return new Set(actions.map((a) => a.tile));
}

/** The positions ``tile`` fits, keyed "row,col", in the order the actions list them. */
export function targetsFor(actions: readonly PlaceAction[], tile: string | null, open: readonly OpenPosition[]): Map<string, Target> {
  const targets = new Map<string, Target>();
  if (tile === null) return targets;
  const bonusAt = new Map(open.map((o) => [keyOf(o.position), o.bonus] as const));
  for (const action of actions) {
    if (action.tile !== tile) continue;
    const key = keyOf(action.position);
    const target = targets.get(key);
    if (target) target.actions.push(action);
    else targets.set(key, { key, position: action.position, actions: [action], bonus: bonusAt.get(key) ?? null });
  }
  return targets;
}

export const hasAction = (legal: readonly Action[], type: string) => legal.some((a) => a.type === type);

/** Points as people write them: +12, −5, 0. */
export function signed(points: number): string {
  if (points > 0) return `+${points}`;
  if (points < 0) return `−${-points}`;
  return "0";
}

/** A score as people write it: 12, −5. */
export const score = (points: number) => (points < 0 ? `−${-points}` : String(points));

/** What laying ``action`` scores: the tile, the position's bonus, and on an empty table
 * the bonus for the opening (the highest triple +10, 0-0-0 +40). */
export function placementPoints(action: PlaceAction, bonus: Bonus | null, view: TriominosView, setup: PublicInfo): number {
  const children = setup.scoring === "children";
  let points = children ? 1 : tileValue(action.tile);
  if (bonus) points += setup.points?.[bonus] ?? 0;
  if (view.board.length === 0) {
    const opening = view.openings?.find((o) => o.tile === action.tile);
    const start = view.round_start;
    if (opening) points += opening.bonus;
    else if (start?.rule === "highest_triple" && !children) points += start.bonus ?? 0;
  }
  return points;
}
