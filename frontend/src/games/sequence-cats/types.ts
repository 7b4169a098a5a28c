// The Sequence Cats view (see SequenceCats.view in the Python package).
export interface SequenceView {
  game: "sequence-cats";
  seat: number | null;
  team: number | null;
  team_of: number[];
  rows: number;
  columns: number;
  /** Per space: -3 blank corner (free corners off), -2 free corner, -1 empty, otherwise the team whose chip is there. */
  cells: number[];
  sequences: { team: number; spaces: string[] }[];
  hand_sizes: number[];
  discards: string[][];
  draw_pile: number;
  current: number | null;
  exchanged: boolean;
  turn: number;
  sequences_to_win: number;
  free_corners: boolean;
  rules_version: number;
  /** The seat choosing which five of a longer line form its sequence (SC-WIN-2), with the
   * candidates, and per further line through the new chip still to settle its candidates. */
  choosing: { seat: number; candidates: string[][]; later?: string[][][] } | null;
  /** The open draw offer (SC-WIN-3): who offered, who accepted, who has still to answer. */
  draw_offer: { by: number; accepted: number[]; waiting: number[] } | null;
  passes: number;
  board_filled: boolean;
  finished: boolean;
  winners: number[];
  draw_reason: "blocked" | "passes" | "agreed" | null;
  /** The latest card play: the team whose chip it placed, or for MEOW took off. */
  last_play: { seat: number; card: string; space: string; team: number } | null;
  hand?: string[];
  dead?: string[];
  may_offer_draw?: boolean;
  /** Turns until this seat may offer a draw again: a full round after its last offer (SC-WIN-3 b). */
  draw_offer_again_in?: number;
}

export interface BoardLayout {
  name: string;
  rows: number;
  columns: number;
  spaces: string[][];
}

export interface PublicInfo {
  board: BoardLayout;
  teams: number;
  team_of: number[];
  hand_size: number;
  sequences_to_win: number;
  card_language: "auto" | "en" | "is" | "nb" | "pt";
  free_corners?: boolean;
  rules_version?: number;
}

export const BLANK = -3;
export const FREE = -2;
export const EMPTY = -1;
export const TEAM_COLOURS = ["#2f6fd6", "#ec7a24", "#8b4fd2"];

export function labelOf(row: number, column: number): string {
  return `${String.fromCharCode(65 + column)}${row + 1}`;
}

export function indexOf(label: string, columns: number): number {
  return (Number(label.slice(1)) - 1) * columns + (label.charCodeAt(0) - 65);
}
