// The status line: what happens now, and what this seat is to do.
import type { TFunction } from "i18next";
import type { Options } from "./legal";
import { teamOf, type DixitView } from "./types";

interface Situation {
  view: DixitView;
  seat: number | null;
  options: Options;
  player: (seat: number) => string;
  /** What the status line says of a seat the game waits for (a message key taking
   * `player`: an open seat, a person offline), or null when it plays. */
  waiting?: (seat: number) => string | null;
  /** A seat is open mid-game: nobody gives, votes or tells until someone takes it. */
  openSeat?: boolean;
}

export function statusText(t: TFunction, { view, seat, options, player, waiting, openSeat = false }: Situation): string {
  if (view.finished) return t("dixit.ui.status.finished");
  // "Voting: 0 of 3 have voted." read as if the vote went on (only the clue's wait said
  // whom the table waited for).
  if (openSeat) return t("ui.table.waiting_open_seat");
  const teller = view.storyteller !== null ? player(view.storyteller) : "";
  switch (view.phase) {
    case "claim":
      return options.canClaim ? t("dixit.ui.status.claim") : t("dixit.ui.status.claim_wait");
    case "clue":
      if (options.canClue) return view.hand_hidden ? t("dixit.ui.status.clue_first") : t("dixit.ui.status.clue");
      if (view.storyteller !== null) {
        const key = waiting?.(view.storyteller);
        if (key) return t(key, { player: teller });
      }
      return t("dixit.ui.status.clue_wait", { player: teller });
    case "submit": {
      if (options.givers.length) return t("dixit.ui.status.giver");
      // Team Dixit: the storyteller's teammate always gives, and does not vote
      // (DX-TEAM-2, DX-TEAM-4); they were told only to give.
      if (options.submits.length && teammateOfStoryteller(view, seat)) {
        return t("dixit.ui.status.submit_teammate", { player: teller });
      }
      if (options.submits.length) return t("dixit.ui.status.submit", { count: options.submitCount });
      return t("dixit.ui.status.submit_wait", { done: view.submitted.length, total: cardsToCome(view) });
    }
    case "vote":
      if (options.votes.length) {
        if (options.redSlots.size) return t("dixit.ui.status.vote_red");
        // Dixit Party has no storyteller's card to find: the vote is for the card that
        // fits the clue best (DX-PARTY-4).
        if (view.variant === "party") return t("dixit.ui.status.vote_party");
        return options.maxVotes > 1 ? t("dixit.ui.status.vote_two") : t("dixit.ui.status.vote");
      }
      if (seat !== null && view.voters.includes(seat) && view.voted.includes(seat)) {
        return t("dixit.ui.status.voted_wait", { done: view.voted.length, total: view.voters.length });
      }
      // A Team giver (DX-TEAM-4) does not vote: said so, not left to wonder.
      if (view.teams && seat !== null && seat !== view.storyteller && !view.voters.includes(seat)) {
        return t("dixit.ui.status.vote_wait_giver", { done: view.voted.length, total: view.voters.length });
      }
      return t("dixit.ui.status.vote_wait", { done: view.voted.length, total: view.voters.length });
    default:
      return "";
  }
}

/** How many cards the table waits for this round. Team Dixit: the storyteller's, the
 * teammate's and one from each other team (DX-TEAM-2), counted before a team has named
 * its giver ("1 of 2 in" became "3 of 4 in" as the other teams chose). */
export function cardsToCome(view: DixitView): number {
  return view.teams ? view.teams.length + 1 : view.gives.length;
}

/** Whether ``seat`` is the storyteller's teammate (Team Dixit). */
function teammateOfStoryteller(view: DixitView, seat: number | null): boolean {
  if (seat === null || view.storyteller === null || seat === view.storyteller) return false;
  const team = teamOf(view, seat);
  return team !== null && team === teamOf(view, view.storyteller);
}
