import type { TFunction } from "i18next";
import { isolated } from "./bidi";
import type { SeatInfo, TableInfo } from "./types";

/** A name typed by a person, ready for the page: isolated (see {@link isolated}), and
 * otherwise as typed. A box that shows names sets `overflow-wrap: anywhere` (and
 * `min-width: 0` where it is a grid or flex item): lines break between words first, and
 * inside a word only when the word alone is too long for its line (a 40-letter gamer
 * tag); such a box's narrowest width is then a letter's, not the longest word's. (A
 * zero-width space every 7 letters broke "Hallgrímsdóttir" as "Hallgrí / msdóttir"
 * where the whole word fitted on the next line, and went with the name into a copy and
 * a tooltip.) */
export function personName(name: string): string {
  return isolated(name);
}

/** The bot names that are levels (``easy``, ``medium``, ``hard``), weakest first. */
export const LEVELS = ["easy", "medium", "hard"] as const;

export function isLevel(bot: string): boolean {
  return (LEVELS as readonly string[]).includes(bot);
}

/** Each game's players by name that a level seats unchanged, with that level
 * (`{"rollout": "hard", "greedy": "medium"}` for Sequence Cats; GET /api/games, each
 * game's `levels`), as the games' list brings them ({@link addLevels}). */
const twins = new Map<string, Record<string, string>>();

/** Notes `game`'s levels (`{"hard": "rollout"}`) for {@link twinLevel}. Where a level's
 * player is also another's, the stronger level names it. */
export function addLevels(game: string, levels: Record<string, string> | undefined): void {
  twins.set(game, Object.fromEntries(LEVELS.filter((level) => levels?.[level]).map((level) => [levels![level], level])));
}

/** The level that is `bot` under another name in `game` ("hard" for Sequence Cats'
 * "rollout"), or null: the pages name such a seat with its level beside its own name
 * ("Simulator 3 · Hard"), as the lobby's seat menu ties the two. */
export function twinLevel(game: string | undefined, bot: string | null | undefined): string | null {
  if (!game || !bot || isLevel(bot)) return null;
  return twins.get(game)?.[bot] ?? null;
}

/** The table as it was after `version` actions, as far as who sat where: a seat that
 * changed hands later is its earlier occupant's (`earlier`), and one a computer player
 * took over later its person's (docs/protocol.md, `earlier` and `bot_since`). */
export function infoAt(info: TableInfo, version: number): TableInfo {
  if (!info.seats.some((s) => heldThen(s, version) !== s)) return info;
  return { ...info, seats: info.seats.map((s) => heldThen(s, version)) };
}

/** `seat` as it was held after `version` actions (itself when nothing changed since). */
function heldThen(seat: SeatInfo, version: number): SeatInfo {
  const index = seat.earlier?.findIndex((occupant) => version < occupant.until) ?? -1;
  const before = index >= 0 ? seat.earlier?.[index] : undefined;
  // The seat as it was then keeps who held it before that (a replay's step is named
  // so, and its log's older lines from it again).
  const then: SeatInfo = before
    ? {
        ...seat,
        kind: before.bot ? "bot" : "human",
        name: before.name,
        bot: before.bot,
        bot_since: before.bot_since ?? null,
        earlier: seat.earlier?.slice(0, index),
      }
    : seat;
  return then.bot_since != null && version < then.bot_since
    ? { ...then, kind: "human", bot: null, bot_since: null }
    : then;
}

/** Whether `seat`'s present occupant held it after `version` actions: a person who took
 * the seat over later is not "you" for what was done there before (docs/protocol.md,
 * `earlier`). A chat line written just as the seat changed hands (`version` equal to
 * when it did) is the earlier occupant's when it bears their `name`. */
export function heldNowAt(info: TableInfo, seat: number, version: number, name?: string | null): boolean {
  const earlier = info.seats[seat]?.earlier;
  const last = earlier?.[earlier.length - 1];
  if (!last || version > last.until) return true;
  return version === last.until && (name === undefined || name !== last.name);
}

/** Each seat's name (see {@link seatName}) as the seats were after `version` actions: a
 * log line of an earlier move names the person who made it. */
export function namesAt(t: TFunction, info: TableInfo, version: number): string[] {
  const then = infoAt(info, version);
  return then.seats.map((_, s) => seatName(t, then, s));
}

/** What the status line says of `seat` when the game waits for it rather than for its
 * move, as a message key taking `player`: an open seat, its own or another's (the host
 * opened it mid-game: nobody moves until it is taken; "Anna is playing…" was said to
 * Anna, who could not move), a person away whom a computer player covers (`away`: the
 * clock's away seats, see {@link AwaySeats}) or a person not connected; `null` when it
 * plays ("… is playing"). */
export function waitingKey(info: TableInfo, seat: number, away?: Record<string, string> | null): string | null {
  const s = info.seats[seat];
  if (s?.kind === "open" || info.seats.some((other) => other.kind === "open")) return "ui.table.waiting_open_seat";
  if (s?.kind === "human" && away && String(seat) in away) return "ui.table.covered_playing";
  if (s !== undefined && s.kind === "human" && !s.connected) return s.coming ? "ui.table.waiting_coming" : "ui.table.waiting_offline";
  return null;
}

/** The tag beside a person's name when they are not at the table, as a message key:
 * not come yet to a new table (after Play again), or offline; ``null`` for anyone
 * connected, and for computer players. */
export function absenceTag(seat: SeatInfo | undefined): string | null {
  if (!seat || seat.kind !== "human" || seat.connected) return null;
  return seat.coming ? "ui.seat.coming" : "ui.seat.offline";
}

/** How a seat is called at this table: the player's name, the bot's, or "Seat n". */
export function seatName(t: TFunction, info: TableInfo, seat: number): string {
  const s = info.seats[seat];
  if (!s) return t("ui.seat.label", { seat: seat + 1 });
  if (s.kind === "bot" && !s.name && isLevel(s.bot ?? ""))
    return t("ui.seat.level_name", { level: t(`bots.${s.bot}`), seat: seat + 1 });
  // A computer player that took over a person's seat mid-game plays under their name.
  if (s.kind === "bot" && s.name && isLevel(s.bot ?? ""))
    return t("ui.seat.taken_over_name", { name: personName(s.name), level: t(`bots.${s.bot}`) });
  if (s.kind === "bot" && !s.name && twinLevel(info.game, s.bot))
    return t("ui.seat.twin_name", {
      bot: t(`bots.${s.bot}`, { defaultValue: s.bot ?? "" }),
      seat: seat + 1,
      level: t(`bots.${twinLevel(info.game, s.bot)}`),
    });
  if (s.kind === "bot") return s.name ? personName(s.name) : t("ui.seat.bot_name", { bot: t(`bots.${s.bot}`, { defaultValue: s.bot ?? "" }), seat: seat + 1 });
  if (s.kind === "open") return t("ui.seat.open");
  return s.name ? personName(s.name) : t("ui.seat.default_name", { seat: seat + 1 });
}

/** The level of a computer player known by its seat ("Medium" for "Computer 3 ·
 * Medium", and for "Greedy 3 · Medium", the same player), or null for anyone else: a
 * list with room shows it as a tag beside {@link shortSeatName}, so that a wrapped line
 * never ends at the "·". */
export function seatLevel(t: TFunction, info: TableInfo, seat: number): string | null {
  const s = info.seats[seat];
  if (!s || s.kind !== "bot" || s.name) return null;
  const level = isLevel(s.bot ?? "") ? s.bot : twinLevel(info.game, s.bot);
  return level ? t(`bots.${level}`) : null;
}

/** A seat's name where room is short (under a revealed card, a voter's chip): a
 * computer player of a level is "Computer 3", without its level (one known by its own
 * name "Simulator 3", without " · Hard"), and one that took a person's seat over "Cai
 * (computer)" (it read "Cai", crediting the person with the computer player's card and
 * vote); anyone else as {@link seatName}. */
export function shortSeatName(t: TFunction, info: TableInfo, seat: number): string {
  const s = info.seats[seat];
  if (s && s.kind === "bot" && !s.name && isLevel(s.bot ?? "")) return t("ui.seat.level_short", { seat: seat + 1 });
  if (s && s.kind === "bot" && s.name && isLevel(s.bot ?? "")) return t("ui.seat.taken_over_short", { name: personName(s.name) });
  if (s && s.kind === "bot" && s.name) return personName(s.name);
  // "Simulator 3", its level ("· Hard") left to the list's tag
  if (s && s.kind === "bot") return t("ui.seat.bot_name", { bot: t(`bots.${s.bot}`, { defaultValue: s.bot ?? "" }), seat: seat + 1 });
  return seatName(t, info, seat);
}

/** `name` with a no-break space before its closing number ("Computer\u00a03"), so that a
 * wrapped line never leaves the number alone. */
export function keepNumber(name: string): string {
  return name.replace(/ (\d+)$/u, "\u00a0$1");
}

/** `name` with no-break spaces around its seat number where one follows a word
 * ("Computer\u00a02\u00a0· Hard"): a headline that wraps breaks after the "·", never
 * between "Computer" and "2", nor before the "·" (a line began "· Hard" as in a list). */
export function keepSeatNumber(name: string): string {
  // Every one in a team's name ("Team 2 (Computer 2 · Hard & Computer 5 · Hard)").
  return name.replace(/ (\d+)( ·|$)/gu, (_, number: string, dot: string) => `\u00a0${number}${dot ? "\u00a0·" : ""}`);
}

/** Who wrote a chat line: the name it was written under (the seat may have changed hands
 * since: the host reopened it and someone else took it), or a nameless person's
 * "Player n". */
export function writerName(t: TFunction, line: { seat: number; name: string | null }): string {
  return line.name ? personName(line.name) : t("ui.seat.default_name", { seat: line.seat + 1 });
}
