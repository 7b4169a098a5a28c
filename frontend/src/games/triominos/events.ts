// Events in words, in the reader's language (docs/triominos.md, "Events").
import type { TFunction } from "i18next";
import type { GameEvent } from "../../app/types";
import { andList } from "../../app/i18n";
import { signed } from "./placing";
import type { RoundStart } from "./types";

/** Events the log and the toasts show; others (game_over…) are shown elsewhere. */
export function describeEvent(t: TFunction, event: GameEvent, player: (seat: number) => string): string | null {
  const who = typeof event.seat === "number" ? player(event.seat) : "";
  const points = Number(event.points ?? 0);
  switch (event.type) {
    case "place": {
      const base = { player: who, tile: String(event.tile), points: signed(points) };
      return event.bonus
        ? t("triominos.ui.events.place_bonus", { ...base, bonus: t(`triominos.reasons.${String(event.bonus)}`) })
        : t("triominos.ui.events.place", base);
    }
    case "draw":
      return t(points ? "triominos.ui.events.draw_penalty" : "triominos.ui.events.draw", { player: who, points: signed(points) });
    case "pass":
      return t(points ? "triominos.ui.events.pass_penalty" : "triominos.ui.events.pass", { player: who, points: signed(points) });
    case "out":
      // TR-END-1: the others finish the round of turns, unless this seat played its last.
      return t(event.others_to_play === 0 ? "triominos.ui.events.out_last" : "triominos.ui.events.out", { player: who });
    case "round_end":
      return event.end === "out"
        ? t("triominos.ui.events.round_end_out", { round: Number(event.round), player: player(Number((event.winners as number[])[0])) })
        : t("triominos.ui.events.round_end_blocked", { round: Number(event.round) });
    case "round_start":
      return describeStart(t, event as unknown as RoundStart, player);
    case "game_over":
      // A shared win (TR-END-4) names every winner, and the verb agrees with them.
      return t("triominos.ui.events.game_over", { players: andList((event.winners as number[]).map(player)), count: (event.winners as number[]).length });
    default:
      return null;
  }
}

/** How the starter of a round was chosen. */
export function describeStart(t: TFunction, start: RoundStart, player: (seat: number) => string): string {
  const base = { round: start.round, player: player(start.starter) };
  if (start.rule === "highest_triple") {
    // The opening's points are its placement's own line: a starter holding 0-0-0 too
    // may open with it instead (+40, TR-SETUP-4), which a "+10" here contradicted.
    return start.bonus
      ? t("triominos.ui.events.start_triple", { ...base, tile: start.tile })
      : t("triominos.ui.events.start_highest", { ...base, tile: start.tile });
  }
  const mine = (start.draws ?? []).filter(([seat]) => seat === start.starter);
  // A player alone draws for nobody (TR-SETUP-3): they simply start.
  if (!mine.length) return t("triominos.ui.events.start_alone", base);
  return t("triominos.ui.events.start_drawn", { ...base, tile: mine[mine.length - 1][1] });
}

/** Events worth a toast even beside the log: bonuses and the end of a round. */
export const isHighlight = (event: GameEvent) =>
  (event.type === "place" && !!event.bonus) || event.type === "out" || event.type === "round_end" || event.type === "game_over";
