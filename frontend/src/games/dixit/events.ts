// Events in words, in the reader's language (docs/dixit.md): the replay viewer's line.
import type { TFunction } from "i18next";
import { isolated } from "../../app/bidi";
import type { GameEvent } from "../../app/types";

/** An event's line, or null for events nobody reads about. */
export function describeEvent(t: TFunction, event: GameEvent, player: (seat: number) => string): string | null {
  const who = typeof event.seat === "number" ? player(event.seat) : "";
  switch (event.type) {
    case "claimed":
      return t("dixit.events.claimed", { player: who });
    case "round":
      return t("dixit.events.round", { round: Number(event.round), player: player(Number(event.storyteller)) });
    case "clue":
      return event.mime
        ? t("dixit.events.clue_mime", { player: who })
        : t("dixit.events.clue", { player: who, clue: isolated(String(event.text ?? "")) });
    case "giver":
      return t("dixit.events.giver", { player: who, team: Number(event.team) + 1 });
    case "submitted":
      // One card, or two each with three players (DX-3P-2).
      return t("dixit.events.submitted", { player: who, count: Number(event.count ?? 1) });
    case "took_back":
      return event.what === "vote"
        ? t("dixit.events.took_back_vote", { player: who })
        : t("dixit.events.took_back_cards", { player: who, count: Number(event.count ?? 1) });
    case "table":
      return t("dixit.events.table", { count: Array.isArray(event.cards) ? event.cards.length : 0 });
    case "voted":
      return t("dixit.events.voted", { player: who });
    case "reveal":
      return t("dixit.events.reveal", { round: Number(event.round) });
    case "finished":
      return t("dixit.events.finished");
    default:
      return null;
  }
}
