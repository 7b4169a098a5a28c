// Events in words, in the reader's language (docs/sequence-cats.md): the table's log and
// the replay viewer's line.
import type { TFunction } from "i18next";
import type { GameEvent } from "../../app/types";

/** An event's line, or null for events nobody reads about. `cardName` names a card in the
 * table's card language. */
export function describeEvent(
  t: TFunction,
  event: GameEvent,
  player: (seat: number) => string,
  cardName: (card: string) => string,
): string | null {
  const who = typeof event.seat === "number" ? player(event.seat) : "";
  const teamName = (team: number) => t(`sequence_cats.teams.${team}`);
  switch (event.type) {
    case "place":
      return event.card === "purrr"
        ? t("sequence_cats.events.purrr", { player: who, space: event.space })
        : t("sequence_cats.events.place", { player: who, card: cardName(String(event.card)), space: event.space });
    case "remove":
      return t("sequence_cats.events.remove", { player: who, team: teamName(Number(event.team)), space: event.space });
    case "exchange":
      return event.auto
        ? t("sequence_cats.events.auto_exchange", { player: who, card: cardName(String(event.card)) })
        : t("sequence_cats.events.exchange", { player: who, card: cardName(String(event.card)) });
    case "pass":
      return event.auto ? t("sequence_cats.events.auto_pass", { player: who }) : t("sequence_cats.events.pass", { player: who });
    case "draw_offered":
      return t("sequence_cats.events.draw_offered", { player: who });
    case "draw_accepted":
      return t("sequence_cats.events.draw_accepted", { player: who });
    case "draw_declined":
      return t("sequence_cats.events.draw_declined", { player: who });
    case "sequence":
      return t("sequence_cats.events.sequence", { team: teamName(Number(event.team)) });
    case "reshuffle":
      return t("sequence_cats.events.reshuffle", { count: Number(event.cards) });
    default:
      return null;
  }
}

/** The language of a table's card names: the reader's, unless the table fixes one. */
export function cardLanguageOf(setting: unknown, reader: string): string {
  return setting === "auto" || typeof setting !== "string" ? reader : setting;
}
