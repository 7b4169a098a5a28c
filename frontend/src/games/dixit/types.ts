// The Dixit view and actions (see docs/dixit.md, "View").
import type { Action } from "../../app/types";

export type Phase = "claim" | "clue" | "submit" | "vote" | "finished";
export type Variant = "base" | "party" | "team";

export interface Clue {
  text: string;
  mime: boolean;
}

export interface RevealSlot {
  slot: number;
  card: number;
  owner: number;
  votes: number[];
  red: boolean;
  storyteller: boolean;
  /** The game's action count once this card was given (absent in games played before
   * it was kept): its giver is named as the seat was held then. */
  given_at?: number | null;
}

export interface PointLine {
  seat: number;
  points: number;
  /** A catalog key such as "dixit.reasons.found". */
  reason: string;
  params: Record<string, unknown>;
}

export interface LastRound {
  round: number;
  storyteller: number;
  clue: Clue | null;
  slots: RevealSlot[];
  points: PointLine[];
  /** Points per seat this round (Team: the team's, per member). */
  gained?: number[];
  totals: number[];
  /** The game's action count once the round's last action was applied (absent in
   * records made before rounds carried it). */
  actions?: number;
  /** The action count once the clue was told, and once each seat voted (null: it did
   * not vote); absent in games played before they were kept. */
  told_at?: number | null;
  voted_at?: (number | null)[];
}

/** The game's action count before `round`'s first move: the round before's `actions`
 * (0 for the first round), or null where the view does not say. A seat that changed
 * hands later is named as its occupant then for the rounds begun before (`infoAt`,
 * `earlier` and `bot_since`). */
export function roundBegan(view: DixitView, round: LastRound): number | null {
  const rounds = [...(view.history ?? []), ...(view.last_round ? [view.last_round] : [])];
  const index = rounds.findIndex((r) => r.round === round.round);
  if (index < 0 || round.actions === undefined) return null;
  return index === 0 ? 0 : rounds[index - 1].actions ?? null;
}

export interface DixitView {
  /** The seat this view was made for (null: a spectator's view). */
  seat?: number | null;
  variant: Variant;
  edition: string;
  deck: string;
  seats: number;
  phase: Phase;
  round: number;
  storyteller: number | null;
  clue: Clue | null;
  /** The action count once this round's clue was told (null before; absent from
   * servers before it was sent): the clue is named after whoever held the seat then. */
  told_at?: number | null;
  hand: number[];
  hand_hidden: boolean;
  hand_sizes: number[];
  draw_pile: number;
  discard_pile: number;
  gives: number[];
  submitted: number[];
  table: number[] | null;
  own_slots: number[];
  voters: number[];
  voted: number[];
  votes: number;
  red_vote: boolean;
  my_vote: { slots: number[]; red: number | null } | null;
  my_submission: number[] | null;
  /** This seat may take back its card(s) or vote: others are still giving or voting. */
  may_take_back?: boolean;
  /** It took them back once this phase (once is all). */
  took_back?: boolean;
  scores: number[];
  target_score: number | null;
  /** Party, Team: rounds in the game (players × rounds_per_player); null in the base game. */
  rounds_total?: number | null;
  teams: number[][] | null;
  givers: Record<string, number> | null;
  last_round: LastRound | null;
  /** Every finished round before ``last_round``, oldest first. */
  history?: LastRound[];
  finished: boolean;
  /** What ended a finished game (DX-END-1/2/3, DX-PARTY-7, DX-TEAM-6); null while it
   * runs (absent from records' views made before it was added). */
  ended_by?: "target" | "rounds" | "pile" | null;
  ranking: number[] | null;
}

/** The view with the seat-only fields filled in: a spectator's view has no hand, no own
 *  slots, vote or submission (and one may still arrive just after taking a seat). */
export function normalize(raw: Record<string, unknown>): DixitView {
  const view = raw as unknown as DixitView;
  return {
    ...view,
    hand: view.hand ?? [],
    hand_hidden: view.hand_hidden ?? false,
    own_slots: view.own_slots ?? [],
    my_vote: view.my_vote ?? null,
    my_submission: view.my_submission ?? null,
    givers: view.givers ?? null,
  };
}

export interface ClueAction extends Action {
  type: "clue";
  card?: number;
  text: string;
  mime: boolean;
}

export interface SubmitAction extends Action {
  type: "submit";
  cards: number[];
}

export interface VoteAction extends Action {
  type: "vote";
  slots: number[];
  red?: number | null;
}

export interface GiverAction extends Action {
  type: "giver";
  seat: number;
}

/** Rabbit colours: one per seat (base, Party) or per team (Team). */
export const COLOURS = [
  "#d9822b", "#2f6fd6", "#2a9d6e", "#8b4fd2", "#c8412c", "#1f9bb4",
  "#c2a000", "#d0508f", "#5a6b7d", "#7a5230", "#6fae2e", "#1c3f8c",
];

export const colourOf = (index: number) => COLOURS[index % COLOURS.length];

/** The team index of a seat, or null outside Team Dixit. */
export function teamOf(view: DixitView, seat: number): number | null {
  if (!view.teams) return null;
  const index = view.teams.findIndex((team) => team.includes(seat));
  return index < 0 ? null : index;
}

/** The colour of a seat's rabbit: its team's in Team Dixit, else its own. */
export const seatColour = (view: DixitView, seat: number) => colourOf(teamOf(view, seat) ?? seat);
