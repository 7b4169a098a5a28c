// The Sequence Cats view (see SequenceCats.view in the Python package).
export interface SequenceView {
  game: "sequence-cats";
  seat: number | null;
  team: number | null;
  team_of: number[];
  rows: number;
  columns: number;
  /** Per space: -2 free corner, -1 empty, otherwise the team whose chip is there. */
  cells: number[];
  sequences: { team: number; spaces: string[] }[];
  hand_sizes: number[];
  discards: string[][];
  draw_pile: number;
  current: number | null;
  exchanged: boolean;
  turn: number;
  sequences_to_win: number;
  finished: boolean;
  winners: number[];
  hand?: string[];
  dead?: string[];
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
}

export const FREE = -2;
export const EMPTY = -1;
export const TEAM_COLOURS = ["#2f6fd6", "#ec7a24", "#8b4fd2"];

export function labelOf(row: number, column: number): string {
  return `${String.fromCharCode(65 + column)}${row + 1}`;
}

export function indexOf(label: string, columns: number): number {
  return (Number(label.slice(1)) - 1) * columns + (label.charCodeAt(0) - 65);
}
