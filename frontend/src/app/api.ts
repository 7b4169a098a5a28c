// HTTP calls to the server and the seat tokens kept in this browser.
import { deckKeys } from "./decks";
import type { EarlierOccupant, ErrorMessage, StateMessage, TableInfo } from "./types";
import type { ServerInfo } from "./useGames";

export class ApiError extends Error {
  constructor(public readonly error: ErrorMessage, public readonly status: number) {
    super(error.message);
  }
}

async function call<T>(method: string, path: string, body?: unknown, headers?: Record<string, string>, raw?: string): Promise<T> {
  const response = await fetch(path, {
    method,
    headers: { "Content-Type": "application/json", ...headers },
    body: raw ?? (body === undefined ? undefined : JSON.stringify(body)),
  });
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    const error: ErrorMessage =
      data && data.type === "error"
        ? data
        : { type: "error", code: "http", rule: null, key: "ui.errors.network", params: {}, message: response.statusText };
    throw new ApiError(error, response.status);
  }
  return data as T;
}

export interface SeatRequest {
  kind: "human" | "bot";
  bot?: string;
}

export interface Created {
  table: TableInfo;
  host_token: string;
  seat: number | null;
  token: string | null;
}

function deckKeyHeaders(): Record<string, string> {
  const header = deckKeys.header();
  return header ? { "X-Deck-Key": header } : {};
}

/** The answer of ``POST /api/games/{game}/check`` (docs/protocol.md). */
export interface OptionsCheck {
  ok: boolean;
  /** The rules' refusal of these options and seats, if any. */
  error: ErrorMessage | null;
  /** The seat counts these options allow, ascending. */
  seat_counts: number[];
}

/** A turn clock asked for when creating a table (docs/protocol.md). */
export interface ClockRequest {
  turn_seconds: number | null;
  cover: string;
  cover_absent: boolean;
}

/** Steps of a replay (docs/protocol.md, "Replays"). */
export interface ReplaySteps {
  game: string;
  config: Record<string, unknown>;
  public: Record<string, unknown>;
  seats: {
    seat: number;
    name: string | null;
    bot: string | null;
    bot_since?: number | null;
    earlier?: EarlierOccupant[];
  }[];
  /** The number of actions: steps go from 0 (before the first) to this. */
  steps: number;
  first: number;
  frames: ReplayFrame[];
  /** How many frames this answer holds (fewer than asked when they are big), and the
   *  first step asked for that it left out (null: none). */
  count: number;
  next: number | null;
  meta: Record<string, unknown>;
}

export interface ReplayFrame {
  step: number;
  /** The seat whose action led here (null at step 0). */
  seat: number | null;
  state: StateMessage;
}

function replayQuery(seat: number | null, from: number, count: number): string {
  const query = new URLSearchParams({ from: String(from), count: String(count) });
  if (seat !== null) query.set("seat", String(seat));
  return query.toString();
}

/** The seat and host tokens this browser holds at table `id`, as headers: a finished
 * table whose host switched watching off gives its record and replay only to them. */
export function tableTokenHeaders(id: string): Record<string, string> {
  const headers: Record<string, string> = {};
  const seat = tokens.seat(id);
  const host = tokens.host(id);
  if (seat) headers["X-Seat-Token"] = seat.token;
  if (host) headers["X-Host-Token"] = host;
  return headers;
}

export const api = {
  /** Steps of a finished table's game as `seat` saw them (null: a spectator). */
  replayTable: (id: string, seat: number | null, from: number, count: number) =>
    call<ReplaySteps>("GET", `/api/tables/${encodeURIComponent(id)}/replay?${replayQuery(seat, from, count)}`, undefined, tableTokenHeaders(id)),
  /** The same for a record file's text, sent as it is (with this browser's deck keys: a
   * record of a game with an uploaded deck replays for its owner only). */
  replayRecord: (text: string, seat: number | null, from: number, count: number) =>
    call<ReplaySteps>("POST", `/api/replay?${replayQuery(seat, from, count)}`, undefined, deckKeyHeaders(), text),
  games: () => call<ServerInfo>("GET", "/api/games"),
  create: (game: string, config: Record<string, unknown>, seats: SeatRequest[], name: string | null, clock: ClockRequest | null = null) =>
    // An uploaded deck may be used only by its owner: send the deck keys this browser holds.
    call<Created>("POST", "/api/tables", { game, config, seats, name, clock }, deckKeyHeaders()),
  /** Would these options make a table of ``seats`` seats? (nothing is created) */
  checkOptions: (game: string, config: Record<string, unknown>, seats: number) =>
    call<OptionsCheck>("POST", `/api/games/${encodeURIComponent(game)}/check`, { config, seats }, deckKeyHeaders()),
  table: (id: string) => call<TableInfo>("GET", `/api/tables/${encodeURIComponent(id)}`),
  /** Take an open seat; `code` is a seat link's, for a seat kept for the host's guest. */
  join: (id: string, seat: number | null, name: string, code: string | null = null) =>
    call<{ seat: number; token: string }>("POST", `/api/tables/${encodeURIComponent(id)}/join`, { seat, name, code }),
  /** The host: a new link for an open seat (its earlier link stops working). */
  seatLink: (id: string, seat: number, hostToken: string) =>
    call<{ seat: number; code: string }>("POST", `/api/tables/${encodeURIComponent(id)}/seats/${seat}/link`, undefined, { "X-Host-Token": hostToken }),
  seatBot: (id: string, seat: number, bot: string, hostToken: string) =>
    call<TableInfo>("POST", `/api/tables/${encodeURIComponent(id)}/seats/${seat}/bot`, { bot }, { "X-Host-Token": hostToken }),
  /** Leave the table (one's own seat token): before the first move the seat opens, after
   * it a computer player (`bot`) takes it over (docs/protocol.md, "Leaving a table"). */
  leave: (id: string, seatToken: string) =>
    call<TableInfo & { bot: string | null }>("POST", `/api/tables/${encodeURIComponent(id)}/leave`, undefined, { "X-Seat-Token": seatToken }),
  /** One's new name at the table (one's own seat token; empty: none), told apart from the
   * other seats' (docs/protocol.md, "Changing one's name"). */
  rename: (id: string, name: string, seatToken: string) =>
    call<TableInfo>("POST", `/api/tables/${encodeURIComponent(id)}/name`, { name }, { "X-Seat-Token": seatToken }),
  // The host's controls (docs/protocol.md): each needs the host token.
  removePlayer: (id: string, seat: number, bot: string | null, hostToken: string) =>
    call<TableInfo>("POST", `/api/tables/${encodeURIComponent(id)}/seats/${seat}/remove`, { bot }, { "X-Host-Token": hostToken }),
  /** A computer player plays for a person who is not at the table until their page connects. */
  coverPlayer: (id: string, seat: number, hostToken: string) =>
    call<TableInfo>("POST", `/api/tables/${encodeURIComponent(id)}/seats/${seat}/cover`, {}, { "X-Host-Token": hostToken }),
  /** Before the first move: the table's new options and clock (every hand is dealt again). */
  changeOptions: (id: string, config: Record<string, unknown>, clock: ClockRequest | null, hostToken: string) =>
    call<TableInfo>("POST", `/api/tables/${encodeURIComponent(id)}/options`, { config, clock }, { ...deckKeyHeaders(), "X-Host-Token": hostToken }),
  pauseClock: (id: string, paused: boolean, hostToken: string) =>
    call<TableInfo>("POST", `/api/tables/${encodeURIComponent(id)}/clock`, { paused }, { "X-Host-Token": hostToken }),
  endGame: (id: string, hostToken: string) =>
    call<TableInfo>("POST", `/api/tables/${encodeURIComponent(id)}/end`, {}, { "X-Host-Token": hostToken }),
  setWatching: (id: string, allowed: boolean, hostToken: string) =>
    call<TableInfo>("POST", `/api/tables/${encodeURIComponent(id)}/watching`, { allowed }, { "X-Host-Token": hostToken }),
  handHost: (id: string, seat: number, hostToken: string) =>
    call<TableInfo>("POST", `/api/tables/${encodeURIComponent(id)}/host`, { seat }, { "X-Host-Token": hostToken }),
};

// Tokens are secrets: they live only in this browser's storage, per table.
const seatKey = (table: string) => `gametable.seat.${table}`;
const hostKey = (table: string) => `gametable.host.${table}`;
const removedKey = (table: string) => `gametable.removed.${table}`;
/** The new tables (after Play again) whose seat this browser said no thanks to, the
 * latest few: a bounded list, so that nothing is left in storage for ever. */
const DECLINED_KEY = "gametable.declined";
const DECLINED_KEPT = 20;
const declinedList = (): string[] => {
  try {
    const list: unknown = JSON.parse(localStorage.getItem(DECLINED_KEY) ?? "[]");
    return Array.isArray(list) ? list.filter((id): id is string => typeof id === "string") : [];
  } catch {
    return [];
  }
};
/** The new table (after Play again) this browser's person went to from each finished
 * table, the latest few: a big screen open in this browser follows them there. */
export const NEXT_KEY = "gametable.next";
const NEXT_KEPT = 20;
const nextPairs = (): [string, string][] => {
  try {
    const list: unknown = JSON.parse(localStorage.getItem(NEXT_KEY) ?? "[]");
    return Array.isArray(list)
      ? list.filter((pair): pair is [string, string] =>
          Array.isArray(pair) && pair.length === 2 && pair.every((id) => typeof id === "string"))
      : [];
  } catch {
    return [];
  }
};
const inviteKey = (table: string) => `gametable.invite.${table}`;
const inviteSeatKey = (table: string) => `gametable.invite-seat.${table}`;

export const tokens = {
  /** A seat link's code this tab was opened with ("/t/<id>#invite=<code>&seat=<n>"),
   * kept for the tab (a reload) until a seat is taken with it. */
  invite(table: string): string | null {
    return sessionStorage.getItem(inviteKey(table));
  },
  /** The seat (0-based) the link named, null for a link that named none. */
  inviteSeat(table: string): number | null {
    const seat = sessionStorage.getItem(inviteSeatKey(table));
    return seat === null ? null : Number(seat);
  },
  saveInvite(table: string, code: string | null, seat: number | null = null) {
    // A seat link is the host's own invitation: someone the host removed earlier, whom
    // the host now sends a seat's link, is offered that seat again in this browser.
    if (code) localStorage.removeItem(removedKey(table));
    if (code) sessionStorage.setItem(inviteKey(table), code);
    else sessionStorage.removeItem(inviteKey(table));
    if (code && seat !== null) sessionStorage.setItem(inviteSeatKey(table), String(seat));
    else sessionStorage.removeItem(inviteSeatKey(table));
  },
  seat(table: string): { seat: number; token: string } | null {
    try {
      const raw = localStorage.getItem(seatKey(table));
      return raw ? JSON.parse(raw) : null;
    } catch {
      return null;
    }
  },
  saveSeat(table: string, seat: number, token: string) {
    localStorage.setItem(seatKey(table), JSON.stringify({ seat, token }));
  },
  forgetSeat(table: string) {
    localStorage.removeItem(seatKey(table));
  },
  /** The host removed this browser's person from the table: its seats are not offered here
   * again (a courtesy of this browser; without accounts the server cannot tell people apart). */
  removed(table: string): boolean {
    return localStorage.getItem(removedKey(table)) === "1";
  },
  markRemoved(table: string) {
    localStorage.setItem(removedKey(table), "1");
  },
  /** This browser's person said no thanks to the seat kept for them at ``table`` (a new
   * game after Play again): the offer is not made again here, a reload included. */
  declined(table: string): boolean {
    return declinedList().includes(table);
  },
  markDeclined(table: string) {
    const list = [...declinedList().filter((id) => id !== table), table].slice(-DECLINED_KEPT);
    localStorage.setItem(DECLINED_KEY, JSON.stringify(list));
  },
  /** The new table this browser's person joined after Play again at ``table``, if any. */
  next(table: string): string | null {
    return nextPairs().find(([from]) => from === table)?.[1] ?? null;
  },
  saveNext(table: string, next: string) {
    const pairs = [...nextPairs().filter(([from]) => from !== table), [table, next]].slice(-NEXT_KEPT);
    localStorage.setItem(NEXT_KEY, JSON.stringify(pairs));
  },
  host(table: string): string | null {
    return localStorage.getItem(hostKey(table));
  },
  saveHost(table: string, token: string) {
    localStorage.setItem(hostKey(table), token);
  },
  forgetHost(table: string) {
    localStorage.removeItem(hostKey(table));
  },
  /** The tables this browser holds a seat or the host's role at (their ids). */
  tables(): string[] {
    const ids = new Set<string>();
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i) ?? "";
      for (const prefix of ["gametable.seat.", "gametable.host."]) {
        if (key.startsWith(prefix)) ids.add(key.slice(prefix.length));
      }
    }
    return [...ids];
  },
  /** A table that no longer exists: forget what this browser held there. */
  forgetTable(table: string) {
    for (const key of [seatKey(table), hostKey(table), removedKey(table)]) localStorage.removeItem(key);
  },
  name(): string {
    return localStorage.getItem("gametable.name") ?? "";
  },
  saveName(name: string) {
    localStorage.setItem("gametable.name", name);
  },
};
