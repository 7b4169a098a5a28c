// Names and clues people type may be written right to left (Hebrew, Arabic…). Set into
// a sentence without isolation, such a name takes the words and numbers beside it along
// ("Anna laid 2-2-4: +8" read with the score on the wrong side), and a name could turn a
// score or another player's name around on everyone's screen.

/** Letters of the scripts written right to left (Hebrew, Arabic, Syriac, Thaana, N'Ko,
 * Samaritan, Mandaic and their presentation forms; the historic scripts of the
 * supplementary planes). */
const RIGHT_TO_LEFT = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc\u{10800}-\u{10fff}\u{1e800}-\u{1efff}]/u;

/** First-strong isolate … pop directional isolate (Unicode bidirectional algorithm,
 * UAX #9, X5c and X6a): the text inside takes its own direction, and nothing outside is
 * reordered by it. */
const ISOLATE = "\u2068";
const POP_ISOLATE = "\u2069";

/** ``text`` ready to be set into a sentence: held apart from the words around it (a
 * first-strong isolate) when it holds right-to-left letters, else unchanged (left-to-right
 * text needs nothing, and stays exactly as typed for copying and searching). The server
 * removes direction marks from what people type, so the isolate cannot be left open. */
export function isolated(text: string): string {
  return RIGHT_TO_LEFT.test(text) ? `${ISOLATE}${text}${POP_ISOLATE}` : text;
}
