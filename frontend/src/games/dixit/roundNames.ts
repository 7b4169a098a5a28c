// Names for the seats of a finished round, each after whoever held the seat when its
// move was made (docs/protocol.md, `earlier` and `bot_since`).
import type { TFunction } from "i18next";
import { heldNowAt, infoAt, seatLevel, seatName, shortSeatName } from "../../app/seatName";
import type { TableInfo } from "../../app/types";
import { roundBegan, type DixitView, type LastRound } from "./types";

export interface RoundNames {
  /** The storyteller, as the seat was held when the clue was told. */
  storyteller: string;
  /** A card's giver, as the seat was held when the card was given. */
  owner: (slot: LastRound["slots"][number]) => string;
  ownerShort: (slot: LastRound["slots"][number]) => string;
  /** A voter, as the seat was held when the vote was cast. */
  voter: (seat: number) => string;
  voterShort: (seat: number) => string;
  /** A seat's points: as it was held at its last move of the round (its vote, else its
   * card), or when the round began for a seat that made none. */
  player: (seat: number) => string;
  short: (seat: number) => string;
  /** Whether the seat, so held, was a computer player of a level. */
  isLevel: (seat: number) => boolean;
  /** Whether the seat's present occupant held it then: a person who took it over since
   * is not "you" for the round (the reveal told them "You: +0 · Did not find the card"
   * of the earlier player's round). */
  heldNow: (seat: number) => boolean;
}

/** How to name `round`'s seats. Where the round does not say when a move was made (games
 * played before it was kept) the seat is named as held when the round began, or now
 * where the view does not say that either. */
export function roundNames(t: TFunction, info: TableInfo, view: DixitView, round: LastRound): RoundNames {
  const began = roundBegan(view, round);
  const seen = new Map<number, TableInfo>();
  // `count`: the action count once a move was applied, made as the table stood before it.
  const at = (count: number | null | undefined): TableInfo => {
    const version = count != null ? count - 1 : began;
    if (version === null) return info;
    let then = seen.get(version);
    if (!then) {
      then = infoAt(info, version);
      seen.set(version, then);
    }
    return then;
  };
  const given = new Map<number, number>();
  for (const slot of round.slots) if (slot.given_at != null) given.set(slot.owner, slot.given_at);
  const voted = (seat: number) => round.voted_at?.[seat] ?? null;
  const last = (seat: number) => {
    const times = [given.get(seat), voted(seat)].filter((n): n is number => n != null);
    return times.length > 0 ? Math.max(...times) : null;
  };
  const teller = round.told_at ?? given.get(round.storyteller);
  return {
    storyteller: seatName(t, at(teller), round.storyteller),
    owner: (slot) => seatName(t, at(slot.given_at), slot.owner),
    ownerShort: (slot) => shortSeatName(t, at(slot.given_at), slot.owner),
    voter: (seat) => seatName(t, at(voted(seat)), seat),
    voterShort: (seat) => shortSeatName(t, at(voted(seat)), seat),
    player: (seat) => seatName(t, at(last(seat)), seat),
    short: (seat) => shortSeatName(t, at(last(seat)), seat),
    isLevel: (seat) => seatLevel(t, at(last(seat)), seat) !== null,
    heldNow: (seat) => {
      const count = last(seat);
      return heldNowAt(info, seat, count != null ? count - 1 : began ?? 0);
    },
  };
}
