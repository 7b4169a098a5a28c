import type { TFunction } from "i18next";
import type { ErrorMessage } from "./types";

interface Problem {
  key: string;
  params: Record<string, unknown>;
}

function isProblems(value: unknown): value is Problem[] {
  return Array.isArray(value) && value.every((p) => typeof p === "object" && p !== null && typeof p.key === "string");
}

/** An error from the server in the reader's language (English text as the fallback). An
 * error naming several problems (``params.problems``: each one's key and parameters, as
 * ``decks.errors.bad_pictures`` does) says each of them in that language too. At a table
 * (``seatName`` given), an error naming the seat to play (``params.to_play``, counted from
 * 0 as the API counts) or the storyteller who came first (``params.storyteller``,
 * DX-SETUP-4) names its player instead, by the key's ``_named`` form. */
export function translateError(t: TFunction, error: ErrorMessage, seatName?: (seat: number) => string): string {
  const params: Record<string, unknown> = { ...error.params };
  const seat = [params.to_play, params.storyteller].find((value) => typeof value === "number");
  if (seatName && typeof seat === "number") {
    const named = `${error.key}_named`;
    return t([named, error.key], { ...params, player: seatName(seat), defaultValue: error.message });
  }
  const problems = params.problems;
  if (isProblems(problems)) {
    const listed = problems.map((problem) => t(problem.key, { ...problem.params }));
    const more = Number(params.more ?? 0);
    if (more > 0) listed.push(t("decks.errors.and_more", { count: more }));
    params.list = listed.join(" ");
  }
  return t(error.key, { ...params, defaultValue: error.message });
}
