// Shapes of what the server sends (docs/protocol.md).

export type Action = { type: string; [field: string]: unknown };
export type GameEvent = { type: string; [field: string]: unknown };

export interface SeatInfo {
  seat: number;
  kind: "open" | "human" | "bot";
  name: string | null;
  bot: string | null;
  connected: boolean;
  /** A person's seat: a mark of whoever holds it now, which their chat lines carry too
   * (another for the next person to take the seat). */
  tag?: string;
  /** An open seat kept for whoever has its link (the host's to give). */
  invited?: boolean;
  /** A person who has not come to this new table yet (after Play again, still deciding
   * at the last one): not offline. */
  coming?: boolean;
  /** The host removed the seat's person (it is open since, or a computer player plays on). */
  removed?: boolean;
  /** A computer player took the person's seat over after this many actions (it keeps
   * their name; the moves before were theirs). */
  bot_since?: number | null;
  /** Who held the seat before, once the game had begun, oldest first: each until the
   * record held `until` actions (the seat's moves among those are theirs). */
  earlier?: EarlierOccupant[];
}

/** Who held a seat before its present occupant (docs/protocol.md, `earlier`): a person
 * (`bot` null) or a computer player. */
export interface EarlierOccupant {
  until: number;
  name: string | null;
  bot: string | null;
  bot_since?: number | null;
}

export type TableStatus = "waiting" | "playing" | "finished";

export interface TableInfo {
  id: string;
  game: string;
  config: Record<string, unknown>;
  public: Record<string, unknown>;
  seats: SeatInfo[];
  status: TableStatus;
  version: number;
  invite: string;
  created: number;
  /** Connections watching (no seat); kept up to date by `presence` messages. */
  watchers?: number;
  /** Whether people without a seat may watch (the host may switch it off). */
  watching?: boolean;
  /** The table's turn clock, or null without one. */
  clock?: ClockSettings | null;
  /** The seat whose person holds the host role (null: the host has no seat). */
  host_seat?: number | null;
  /** False where the host role passed on by itself (or was handed on by such a host):
   * that host may give a begun seat to a computer player but not open it. */
  host_chosen?: boolean;
  /** The host ended the game early (its status is then "finished", with no outcome). */
  ended_early?: boolean;
  /** The game has begun: a move was made, or every seat was taken once (the seats saw
   * their hands), so the deal stands: options no longer change, and a player who leaves
   * hands their seat to a computer player. */
  begun?: boolean;
}

/** Someone asked to play again: the new table, and this seat's place and token there. */
export interface RematchMessage {
  type: "rematch";
  /** The new table; for a spectator only when it lets people watch and has no open
   * seat (its id is its invite link too), else null. */
  table: string | null;
  /** The seat (of this table) that asked. */
  by: number;
  /** This seat's seat at the new table and its token; null for a spectator, or a seat
   * whose person had left (their seat there is open). */
  seat: number | null;
  token: string | null;
  /** The new table's host token, for the host's seat only. */
  host_token?: string;
}

/** A table's turn clock as its creator chose it (docs/protocol.md). */
export interface ClockSettings {
  /** Seconds per turn (per decision in Dixit); null: no limit. */
  turn_seconds: number | null;
  /** The computer player that plays for a seat that is away. */
  cover: string;
  /** Computer players also cover for players who stay disconnected while they must act. */
  cover_absent: boolean;
  /** Seconds a seat that must act may stay disconnected (with cover_absent). */
  absent_seconds: number;
}

/** The running clock: sent on every change, and after the welcome. */
export interface ClockMessage {
  type: "clock";
  turn_seconds: number | null;
  cover: string;
  cover_absent: boolean;
  /** Per waiting seat (its number as a string): when it goes away, ms since 1970 (server time). */
  deadlines: Record<string, number>;
  /** Per away seat: why ("turn": its time ran out; "absent": it stayed disconnected;
   * "asked": its person asked a computer player to play for them). */
  away: Record<string, string>;
  /** With every person away: per away seat whose covering computer player waits for the
   * turn's time to run out, when it moves (ms since 1970, server time). */
  cover_at?: Record<string, number>;
  /** Away seats whose person said they are back within the turn whose time ran out: the
   * computer player still makes that move, and they are back from their next turn. */
  returning?: number[];
  /** The server's time when it sent this, ms since 1970. */
  now: number;
  /** While the host has paused the clock: since when (ms since 1970), else null. */
  paused_at: number | null;
}

/** Who is connected, sent (at most a few times a second) when people come and go. */
export interface PresenceMessage {
  type: "presence";
  /** Per human seat (its number as a string): whether someone is connected to it. */
  seats: Record<string, boolean>;
  watchers: number;
}

/** Applies a `presence` message to the table's info. */
export function withPresence(info: TableInfo, presence: PresenceMessage): TableInfo {
  return {
    ...info,
    watchers: presence.watchers,
    seats: info.seats.map((s) => {
      const connected = presence.seats[String(s.seat)];
      if (s.kind !== "human" || connected === undefined) return s;
      // Come once, a person is no longer "coming": gone again, they are offline.
      return { ...s, connected, coming: s.coming && !connected };
    }),
  };
}

export interface Outcome {
  finished: boolean;
  draw: boolean;
  scores: number[];
  winners: number[];
  ranking: number[];
  turns: number;
}

/** One state's events, with that state's version. */
export interface EventBatch {
  version: number;
  events: GameEvent[];
  /** The seat a computer player acted for in this state, while its person was away. */
  covered?: number;
}

export interface StateMessage<View = Record<string, unknown>> {
  type: "state";
  version: number;
  status: TableStatus;
  view: View;
  to_act: number[];
  legal: Action[];
  events: GameEvent[];
  /** Added by the page, not sent: the events of this state and of the few before it
   * (oldest first), so that states arriving together lose no event (`useEventLog`). */
  recent?: EventBatch[];
  /** Sent in the first state after connecting: the events of the states before it
   * (oldest first, at most 15), for the log of a page opened mid-game. */
  earlier?: EventBatch[];
  outcome?: Outcome;
  /** Set when the last action was a computer player's, made for a seat that is away. */
  covered?: { seat: number; reason: string };
  /** Which deal of the cards this state shows: a keyed hash of the table's seed, which
   * tells nothing of it and changes when the cards are dealt again before the first move
   * (docs/protocol.md); an action says which deal it was chosen on. */
  deal?: number;
}

export interface ErrorMessage {
  type: "error";
  code: string;
  rule: string | null;
  key: string;
  params: Record<string, unknown>;
  message: string;
  id?: unknown;
}

export interface JsonSchema {
  type?: string;
  title?: string;
  description?: string;
  default?: unknown;
  enum?: unknown[];
  const?: unknown;
  minimum?: number;
  maximum?: number;
  anyOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
}

export interface GameDescription {
  name: string;
  seats: { allowed: number[]; default: number };
  config_schema: JsonSchema;
  messages?: Record<string, Record<string, unknown>>;
  /** The bots that play this game as themselves (the lobby offers only these). */
  bots?: string[];
  /** Each level that seats one of `bots` unchanged, with that bot's name
   * (`{"hard": "rollout"}`): the lobby's seat menu ties the two together. */
  levels?: Record<string, string>;
}
