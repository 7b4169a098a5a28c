// The Triominos view and public facts (see docs/triominos.md, "Views").
export type Position = [number, number];

export type Bonus = "bridge" | "extended_bridge" | "hexagon" | "double_hexagon" | "triple_hexagon";

export interface LaidTile {
  tile: string;
  position: Position;
  rotation: number;
  /** The numbers on corners 0–2 (clockwise, see geometry.ts). */
  corners: [number, number, number];
  seat: number;
  bonus: Bonus | null;
}

export interface OpenPosition {
  position: Position;
  /** The numbers each corner needs; null: any. */
  demand: [number | null, number | null, number | null];
  fillable: boolean;
  bonus: Bonus | null;
}

export interface ScoreLine {
  seat: number;
  points: number;
  /** A catalog key such as "triominos.reasons.bridge". */
  reason: string;
  params: { count?: number; [name: string]: unknown };
}

export interface RoundSummary {
  round: number;
  end: "out" | "blocked";
  winners: number[];
  tiles_left: number[];
  hand_values: number[];
  points: ScoreLine[];
  round_totals: number[];
  scores: number[];
  /** The game's action count once the round's last action was applied (pages name a
   * seat as it was held then: `infoAt`); absent from games played before it was kept. */
  actions?: number;
}

export interface RoundStart {
  type: "round_start";
  round: number;
  rule: "highest_sum" | "highest_triple";
  starter: number;
  draws?: [number, string][];
  tile?: string;
  bonus?: number;
}

export interface TriominosView {
  game: "triominos";
  seat: number | null;
  round: number;
  board: LaidTile[];
  open: OpenPosition[];
  last: Position | null;
  pool: number;
  hand_sizes: number[];
  scores: number[];
  round_points: number[];
  current: number | null;
  starter: number;
  out: number | null;
  draws: number;
  max_draws: number;
  round_start: RoundStart | null;
  forced: string | null;
  penalties: { draw: number; pass: number };
  extended_bridge: boolean;
  rounds: RoundSummary[];
  target_score: number | null;
  round_limit: number | null;
  turn: number;
  finished: boolean;
  winners: number[];
  /** What decided a finished game: most points (TR-END-4), or (PRESSMAN) the last
   * round's winner when several players reached the target; null before the end. Older
   * servers leave it out. */
  win_rule?: "points" | "round_winner" | null;
  hand?: string[];
  /** The tiles you may open the round with and each one's start bonus (TR-SETUP-4);
   * two when you hold 0-0-0 beside a higher triple. Empty unless you lay the first tile. */
  openings?: Opening[];
  /** What a pass costs you now, or once allowed (TR-DRAW-2/3); null when not your turn. */
  pass_points?: number | null;
}

export interface Opening {
  tile: string;
  bonus: number;
}

export interface PublicInfo {
  tiles_per_player: number;
  start_rule: "highest_sum" | "highest_triple";
  extended_bridge: boolean;
  scoring: "standard" | "children";
  points: Record<Bonus | "draw" | "pass" | "out", number>;
  target_score: number | null;
  rounds: number | null;
}

export interface PlaceAction {
  type: "place";
  tile: string;
  position: Position;
  rotation: number;
  [field: string]: unknown;
}

/** Seat colours: strong for marks and dots, light for the tiles a seat laid. */
export const SEAT_COLOURS = ["#d9822b", "#2f6fd6", "#2a9d6e", "#8b4fd2", "#c8412c", "#1f9bb4"];
export const SEAT_TINTS = ["#fbe3c8", "#d6e4fb", "#cdeedf", "#e6d8f6", "#f6d3cc", "#cdeef4"];

export const seatColour = (seat: number) => SEAT_COLOURS[seat % SEAT_COLOURS.length];
export const seatTint = (seat: number) => SEAT_TINTS[seat % SEAT_TINTS.length];

/** The game's action count when the round under way began: the round before's `actions`
 * (0 for the first round), or null where the view does not say. */
export function roundBegan(view: TriominosView): number | null {
  if (view.round <= 1) return 0;
  return view.rounds[view.round - 2]?.actions ?? null;
}
