// What this seat may do now, read from the state message's `legal` list only.
import type { Action } from "../../app/types";
import type { ClueAction, GiverAction, SubmitAction, VoteAction } from "./types";

export interface Options {
  canClaim: boolean;
  /** The storyteller may give a clue; `clueCards` null: without a card (Party). */
  canClue: boolean;
  clueCards: Set<number> | null;
  /** Cards that may be given, and how many at once (3 players: two). */
  submitCards: Set<number>;
  submitCount: number;
  submits: SubmitAction[];
  givers: number[];
  /** Slots open to the green vote(s), to the red vote, and the most green votes. */
  voteSlots: Set<number>;
  redSlots: Set<number>;
  maxVotes: number;
  votes: VoteAction[];
}

const sameSet = (a: number[], b: number[]) => a.length === b.length && [...a].sort().join() === [...b].sort().join();

export function readLegal(legal: Action[]): Options {
  const options: Options = {
    canClaim: false,
    canClue: false,
    clueCards: null,
    submitCards: new Set(),
    submitCount: 1,
    submits: [],
    givers: [],
    voteSlots: new Set(),
    redSlots: new Set(),
    maxVotes: 0,
    votes: [],
  };
  for (const action of legal) {
    switch (action.type) {
      case "claim":
        options.canClaim = true;
        break;
      case "clue": {
        options.canClue = true;
        const { card } = action as ClueAction;
        if (typeof card === "number") (options.clueCards ??= new Set()).add(card);
        break;
      }
      case "submit": {
        const submit = action as SubmitAction;
        options.submits.push(submit);
        submit.cards.forEach((c) => options.submitCards.add(c));
        options.submitCount = submit.cards.length;
        break;
      }
      case "giver":
        options.givers.push((action as GiverAction).seat);
        break;
      case "vote": {
        const vote = action as VoteAction;
        options.votes.push(vote);
        vote.slots.forEach((s) => options.voteSlots.add(s));
        if (typeof vote.red === "number") options.redSlots.add(vote.red);
        options.maxVotes = Math.max(options.maxVotes, vote.slots.length);
        break;
      }
    }
  }
  return options;
}

/** The legal submit action giving exactly `cards`, if there is one. */
export function findSubmit(options: Options, cards: number[]): SubmitAction | null {
  return options.submits.find((a) => sameSet(a.cards, cards)) ?? null;
}

/** The legal vote with these green slots (and red slot, for the Party storyteller). */
export function findVote(options: Options, slots: number[], red: number | null): VoteAction | null {
  return (
    options.votes.find(
      (a) => sameSet(a.slots, slots) && (options.redSlots.size === 0 || (a.red ?? null) === red),
    ) ?? null
  );
}
