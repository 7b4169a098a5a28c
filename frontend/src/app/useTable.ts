// The live connection to one table: welcome, table updates, states, errors, the table
// chat; reconnects.
import i18next from "i18next";
import { useCallback, useEffect, useRef, useState } from "react";
import { tokens } from "./api";
import { withRecent } from "./eventLog";
import { keepSame } from "./keepSame";
import { withPresence, type Action, type ClockMessage, type RematchMessage, type ErrorMessage, type PresenceMessage, type StateMessage, type TableInfo } from "./types";

export type ConnectionStatus = "connecting" | "open" | "reconnecting" | "gone";

/** Close codes (docs/protocol.md): no such table (or expired), a page of another site,
 * this connection's seat was given to someone else. */
const CLOSE_NO_TABLE = 4404;
const CLOSE_ORIGIN = 4403;
const CLOSE_SEAT_CHANGED = 4409;
/** The reason of a 4409 close when the host removed the seat's person. */
const REMOVED_REASON = "the host removed you from this seat";
/** …or that the person left it, on another page (server/leaving.py). */
const LEFT_REASON = "you left this seat";
/** The host switched watching off: a connection without a seat is closed with it. */
const CLOSE_WATCHING_OFF = 4410;

/** One message of the table chat (docs/protocol.md). */
/** The chat lines the server refused, the latest few with the numbers of the messages
 * that sent them (the order sent), and how many refusals there have been (two may come
 * before the page draws again). */
export interface UnsentChat {
  lines: { id: number; text: string }[];
  n: number;
}

export interface ChatMessage {
  seat: number;
  /** The seat's name when it was written (null: the seat had none). */
  name: string | null;
  text: string;
  /** When the server received it, in milliseconds since 1970. */
  at: number;
  /** The game's action count then (absent from messages kept from before it was sent):
   * tells the seat's present occupant from an earlier one (`heldNowAt`). */
  version?: number;
  /** Its writer's mark, as their seat's `tag` says while they hold it (absent from
   * messages kept from before it was sent). */
  tag?: string | null;
  /** This browser's number for the message, fixed for as long as it is shown: the
   * chat's lines are keyed by it, so a new message never re-creates the others. */
  id: number;
  /** It came as it was written while this page was open (not in the history the
   * server sends on connecting): only such a line is new to the reader, whether the
   * page had drawn the chat before the history came or not. */
  live?: boolean;
}

/** Messages kept in the browser, as on the server. */
const CHAT_KEPT = 100;

/** A quiet connection is asked for a `pong` this often (ms)… */
const PING_EVERY_MS = 10_000;
/** …and given up for dead (closed and opened again) when nothing came for this long: a
 * network that died without closing anything (Wi-Fi lost, a phone asleep) leaves the
 * socket open, and moves sent on it went nowhere without a word. */
const SILENT_DEAD_MS = 25_000;
/** After a message that the server always answers (an action, a chat line, `back`), a
 * connection that stays silent this long is given up for dead too. */
const ANSWER_WITHIN_MS = 6_000;
/** A connection still not open after this long is given up too (a network that drops
 * everything keeps a new socket waiting for minutes). */
const OPEN_WITHIN_MS = 10_000;
/** The longest pause between attempts to reconnect (ms); a browser that says it is back
 * online, or a page shown again, tries at once. */
const RETRY_MAX_MS = 4_000;

/** The running clock, with how far this browser's clock is behind the server's (ms). */
export type Clock = ClockMessage & { offset: number };

export interface TableConnection {
  status: ConnectionStatus;
  info: TableInfo | null;
  seat: number | null;
  state: StateMessage | null;
  error: ErrorMessage | null;
  /** Bumped on every error, so the same error twice is shown twice. */
  errorCount: number;
  send: (action: Action) => void;
  /** An action sent and not yet answered by a state or an error (nor by a dropped
   * connection). */
  moving: boolean;
  clearError: () => void;
  /** The table chat, oldest first. */
  chat: ChatMessage[];
  /** Write in the table chat (refusals arrive as `error`). */
  /** Sends a chat line; false when it could not be sent (the connection is down). */
  sendChat: (text: string) => boolean;
  /** The chat lines the server refused (too fast, too long, not stored), to put back
   * in the box; `n` counts the refusals. */
  unsentChat: UnsentChat | null;
  /** The turn clock, or null while the table has none. */
  clock: Clock | null;
  /** Take this seat back from the computer player covering for it. */
  sendBack: () => void;
  /** Let a computer player play for this seat until it is back. */
  sendAway: () => void;
  /** The host token this browser holds for the table, if any. */
  hostToken: string | null;
  /** The offer to play again, once someone asked. */
  rematch: RematchMessage | null;
  /** Ask to play again (the game is over). */
  sendRematch: () => void;
}

/** The live connection to table `tableId`, for the seat of `token` (null: watching).
 * `watchOnly` (the watch link): never a seat, and no host token either. */
export function useTable(tableId: string, token: string | null, watchOnly = false): TableConnection {
  const [status, setStatus] = useState<ConnectionStatus>("connecting");
  const [info, setInfo] = useState<TableInfo | null>(null);
  const [seat, setSeat] = useState<number | null>(null);
  const [state, setState] = useState<StateMessage | null>(null);
  const [error, setError] = useState<ErrorMessage | null>(null);
  const [errorCount, setErrorCount] = useState(0);
  const [chat, setChat] = useState<ChatMessage[]>([]);
  const [clock, setClock] = useState<Clock | null>(null);
  const [rematch, setRematch] = useState<RematchMessage | null>(null);
  const [hostToken, setHostToken] = useState<string | null>(() => (watchOnly ? null : tokens.host(tableId)));
  const socket = useRef<WebSocket | null>(null);
  const version = useRef<number | null>(null);
  /** The deal of the latest state (the cards may be dealt again before the first move). */
  const deal = useRef(0);
  const nextId = useRef(1);
  // The chat lines sent, by their message's id, until the server answers (kept short).
  const chatSent = useRef(new Map<number, string>());
  const [unsentChat, setUnsentChat] = useState<UnsentChat | null>(null);
  const nextChatId = useRef(1);
  /** How many times the server has welcomed this page (see `ChatMessage.live`). */
  const welcomes = useRef(0);
  /** Messages still to come of the greeting: welcome, then state, then the chat's
   * history when it has any. */
  const greeting = useRef(0);
  /** When the server was last heard from, and when a message it must answer was sent
   * (null: none waits), in ms since 1970. */
  const heard = useRef(Date.now());
  const awaited = useRef<number | null>(null);
  /** An action sent and not yet answered (by a state or an error). */
  const [moving, setMoving] = useState(false);

  useEffect(() => {
    let stopped = false;
    let retry = 0;
    let timer: number | undefined;
    let seatToken = token; // dropped once the seat is given to someone else
    /** Gives the current connection up (as if it had closed): set by `connect`. */
    let giveUp: (() => void) | null = null;

    const connect = () => {
      window.clearTimeout(timer);
      timer = undefined;
      const scheme = location.protocol === "https:" ? "wss" : "ws";
      const ws = new WebSocket(`${scheme}://${location.host}/api/tables/${encodeURIComponent(tableId)}/ws`);
      socket.current = ws;
      heard.current = Date.now();
      awaited.current = null;
      let over = false; // closed, or given up for dead: its close is handled once
      ws.onopen = () => {
        retry = 0;
        ws.send(JSON.stringify(seatToken ? { type: "hello", token: seatToken } : { type: "hello" }));
        // The server answers a hello at once (welcome or an error): a socket that opened
        // while the network drops everything is given up like any other silent one.
        awaited.current = Date.now();
      };
      ws.onmessage = (event) => {
        heard.current = Date.now();
        awaited.current = null;
        const message = JSON.parse(event.data as string);
        if (message.type === "welcome") {
          greeting.current = 2;
          welcomes.current += 1;
        }
        else if (greeting.current > 0) {
          greeting.current -= 1;
          // No history after the state: the table's chat is empty (a restarted server).
          if (greeting.current === 0 && message.type !== "chat_history") setChat([]);
        }
        switch (message.type) {
          case "welcome":
            setSeat(message.seat);
            if (message.seat !== null && seatToken && !watchOnly) tokens.saveSeat(tableId, message.seat, seatToken);
            setInfo(message.table);
            setStatus("open");
            // "Not sent: you are not connected" is past once the table is back.
            setError((shown) => (shown?.code === "not_sent" ? null : shown));
            break;
          case "table":
            setInfo(message.table);
            // The host took the turn clock away (before the first move).
            if (!message.table.clock) setClock(null);
            break;
          case "presence":
            setInfo((old) => (old ? withPresence(old, message as PresenceMessage) : old));
            break;
          case "state":
            setMoving(false);
            version.current = message.version;
            deal.current = typeof message.deal === "number" ? message.deal : 0;
            // Before the game has begun the server shows no deal (no view): the page
            // shows the waiting room, which needs none.
            if (message.view === null) {
              setState(null);
              break;
            }
            // Keep the parts that did not change (the same objects), so that what shows
            // them is not redone for every other seat's action.
            setState((old) => {
              const next = old ? keepSame(old, message as StateMessage) : (message as StateMessage);
              return { ...next, recent: withRecent(old, message as StateMessage) };
            });
            break;
          case "rematch":
            setRematch(message as RematchMessage);
            break;
          case "rematch_gone":
            // The new table expired before this page joined it: Play again instead.
            setRematch(null);
            break;
          case "host":
            if (watchOnly) break;
            // Sent again on each reconnection while this seat holds a role it was
            // handed: nothing new then.
            if (message.host_token === tokens.host(tableId)) break;
            // The host role was handed to this seat: its new host token.
            tokens.saveHost(tableId, message.host_token as string);
            setHostToken(message.host_token as string);
            // Said once: where the controls are (a role passed on by itself, too).
            setError({ type: "error", code: "became_host", rule: null, key: "ui.host.you_are_host", params: {}, message: "You are the host now." });
            setErrorCount((n) => n + 1);
            break;
          case "clock":
            setClock({ ...(message as ClockMessage), offset: (message as ClockMessage).now - Date.now() });
            break;
          case "chat_history": {
            // After a reconnection the history repeats lines already shown: they keep
            // their numbers (and their place on the page).
            const history = (message.messages as Omit<ChatMessage, "id">[]).slice(-CHAT_KEPT);
            // The first connection's history holds what was written before the page
            // opened; a later one's (a reconnection) also what was written while the
            // connection was down, which is new to the reader.
            const live = welcomes.current > 1;
            setChat((old) => {
              const shown = new Map(old.map((line) => [lineKey(line), line]));
              return history.map(
                (line) => shown.get(lineKey(line)) ?? { ...pick(line), id: nextChatId.current++, ...(live ? { live } : {}) },
              );
            });
            break;
          }
          case "chat": {
            const line = { ...pick(message as ChatMessage), id: nextChatId.current++, live: true };
            setChat((old) => [...old.slice(-(CHAT_KEPT - 1)), line]);
            break;
          }
          case "error":
            setMoving(false);
            // A token this table does not know: forget it. One this browser once sat with
            // (its seat known) was taken away: the host removed its person, who left;
            // unless the host has sent this tab a seat's link since, to come back with.
            if (message.code === "bad_token") {
              const sat = (tokens.seat(tableId)?.seat ?? -1) >= 0 && !tokens.invite(tableId);
              if (sat) tokens.markRemoved(tableId);
              tokens.forgetSeat(tableId);
              // The page says the host removed this person, and that they watch: a toast
              // beside it spoke of a "seat token" that does not belong, and of a seat to
              // join that the page does not offer them.
              if (sat) break;
            }
            if (typeof message.id === "number" && chatSent.current.has(message.id)) {
              const text = chatSent.current.get(message.id) ?? "";
              chatSent.current.delete(message.id);
              const line = { id: message.id, text };
              setUnsentChat((old) => ({ lines: [...(old?.lines ?? []), line].slice(-5), n: (old?.n ?? 0) + 1 }));
            }
            setError(message);
            setErrorCount((n) => n + 1);
            break;
        }
      };
      const closed = (event: { code: number; reason: string }) => {
        if (over) return;
        over = true;
        setMoving(false);
        if (socket.current === ws) socket.current = null;
        if (stopped) return;
        if (event.code === CLOSE_NO_TABLE || event.code === CLOSE_ORIGIN || event.code === CLOSE_WATCHING_OFF) {
          setStatus("gone");
          return;
        }
        if (event.code === CLOSE_SEAT_CHANGED) {
          // A computer player took the seat over: watch from now on.
          seatToken = null;
          tokens.forgetSeat(tableId);
          setSeat(null);
          // The reason says whether the host removed this person (docs/protocol.md).
          const removed = event.reason === REMOVED_REASON;
          // Left on another page: this one was told its seat went to a computer player
          // "or your connection was closed".
          const left = event.reason === LEFT_REASON;
          if (removed) tokens.markRemoved(tableId);
          const code = removed ? "removed_by_host" : left ? "left_elsewhere" : "seat_lost";
          setError({
            type: "error",
            code,
            rule: null,
            key: left ? "ui.leave.left_elsewhere" : `server.errors.${code}`,
            params: {},
            message: event.reason,
          });
          setErrorCount((n) => n + 1);
        }
        setStatus("reconnecting");
        retry = Math.min(retry + 1, 6);
        timer = window.setTimeout(connect, Math.min(250 * 2 ** retry, RETRY_MAX_MS));
      };
      ws.onclose = closed;
      giveUp = () => {
        closed({ code: 1006, reason: "" });
        ws.close();
      };
    };
    connect();

    // A connection that went silent is given up and opened again (see SILENT_DEAD_MS).
    const watch = window.setInterval(() => {
      const ws = socket.current;
      if (ws && ws.readyState === WebSocket.CONNECTING && Date.now() - heard.current > OPEN_WITHIN_MS) {
        giveUp?.();
        return;
      }
      if (!ws || ws.readyState !== WebSocket.OPEN) return;
      const now = Date.now();
      const waited = awaited.current;
      if (now - heard.current > SILENT_DEAD_MS || (waited !== null && now - waited > ANSWER_WITHIN_MS)) {
        giveUp?.();
      } else if (now - heard.current > PING_EVERY_MS && waited === null) {
        ws.send(JSON.stringify({ type: "ping", id: nextId.current++ }));
        awaited.current = now;
      }
    }, 2_000);
    // Back online, or the page shown again (a phone woken): try at once rather than at
    // the next retry, and make sure an open connection still answers.
    const wake = () => {
      if (document.visibilityState === "hidden") return;
      if (timer !== undefined) {
        retry = 0;
        connect();
        return;
      }
      const ws = socket.current;
      if (ws && ws.readyState === WebSocket.OPEN && awaited.current === null && Date.now() - heard.current > 2_000) {
        ws.send(JSON.stringify({ type: "ping", id: nextId.current++ }));
        awaited.current = Date.now();
      }
    };
    // The browser says the network is gone: the connection is given up at once (its
    // socket may stay open, silent, for the 25 s of SILENT_DEAD_MS, while a turn clock
    // runs out and the page says nothing), and tried again as soon as it is back.
    const offline = () => giveUp?.();
    window.addEventListener("online", wake);
    window.addEventListener("offline", offline);
    document.addEventListener("visibilitychange", wake);
    return () => {
      stopped = true;
      window.clearTimeout(timer);
      window.clearInterval(watch);
      window.removeEventListener("online", wake);
      window.removeEventListener("offline", offline);
      document.removeEventListener("visibilitychange", wake);
      socket.current?.close();
    };
  }, [tableId, token, watchOnly]);

  // A message for the server, or while the connection is down a toast saying it was not
  // sent (a move made then vanished without a word).
  const post = useCallback((message: Record<string, unknown>, sent?: (id: number) => void): boolean => {
    const ws = socket.current;
    if (!ws || ws.readyState !== WebSocket.OPEN) {
      setError({ type: "error", code: "not_sent", rule: null, key: "ui.table.not_sent", params: {}, message: "not sent" });
      setErrorCount((n) => n + 1);
      return false;
    }
    const id = nextId.current++;
    ws.send(JSON.stringify({ ...message, id }));
    sent?.(id);
    // The server answers each of these (a state, an error, the chat line): silence means
    // the connection died without closing.
    awaited.current ??= Date.now();
    return true;
  }, []);
  const send = useCallback((action: Action) => {
    if (post({ type: "action", action, version: version.current, deal: deal.current })) setMoving(true);
  }, [post]);
  const clearError = useCallback(() => setError(null), []);
  const sendChat = useCallback((text: string) => post({ type: "chat", text }, (id) => {
    const sent = chatSent.current;
    sent.set(id, text);
    for (const old of sent.keys()) if (sent.size > 20) sent.delete(old);
  }), [post]);
  const sendRematch = useCallback(() => void post({ type: "rematch" }), [post]);
  const sendBack = useCallback(() => void post({ type: "back" }), [post]);
  const sendAway = useCallback(() => void post({ type: "away" }), [post]);

  // The host role went from this seat to another: this browser's host token opens
  // nothing any more, and host controls shown with it would only be refused. Only a move
  // away counts: the seat the role comes to gets its token before the table's news of
  // it. (A page without a seat, say the host watching in another tab, keeps it.)
  const hostSeat = info?.host_seat;
  const lastHostSeat = useRef<number | null | undefined>(undefined);
  useEffect(() => {
    if (hostSeat === undefined || seat === null) return;
    const before = lastHostSeat.current;
    lastHostSeat.current = hostSeat;
    const movedAway = hostSeat !== seat && (before === undefined || before === seat);
    if (hostToken && typeof hostSeat === "number" && movedAway) {
      tokens.forgetHost(tableId);
      setHostToken(null);
      // Said once: the controls are gone, and whose they are now (the role also passes
      // by itself when the host stays away, and after Play again).
      const player = info?.seats[hostSeat]?.name || i18next.t("ui.seat.default_name", { seat: hostSeat + 1 });
      setError({ type: "error", code: "host_moved", rule: null, key: "ui.host.no_longer_host", params: { player }, message: `${player} is the host now.` });
      setErrorCount((n) => n + 1);
    }
  }, [hostToken, hostSeat, seat, tableId, info]);

  return { status, info, seat, state, error, errorCount, send, moving, clearError, chat, sendChat, unsentChat, clock, sendBack, sendAway, hostToken, rematch, sendRematch };
}

function pick({ seat, name, text, at, version, tag }: Omit<ChatMessage, "id">): Omit<ChatMessage, "id"> {
  return { seat, name, text, at, version, tag };
}

/** What tells one message from another in the history the server repeats. */
function lineKey({ seat, at, text }: Omit<ChatMessage, "id">): string {
  return `${at}|${seat}|${text}`;
}
