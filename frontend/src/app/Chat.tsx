// The table chat: the messages so far with the writers' seat names, and (for seated
// players) a line to write on; Enter sends. A game's table places it where it fits:
//   <Chat info={info} seat={seat} chat={chat} sendChat={sendChat} />
import { memo, useContext, useEffect, useId, useLayoutEffect, useRef, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { localeTag } from "./i18n";
import { heldNowAt, writerName } from "./seatName";
import type { TableInfo } from "./types";
import type { ChatMessage } from "./useTable";
import "./chat.css";
import { upTo } from "./limitText";
import { UnsentChatContext } from "./unsentChat";
import { useMutedWriters, writerKey } from "./chatMute";

/** Longest message the server takes (docs/protocol.md). */
export const CHAT_MAX_CHARS = 300;

export interface ChatProps {
  info: TableInfo;
  /** The reader's seat (null: watching). */
  seat: number | null;
  chat?: ChatMessage[];
  /** Absent for spectators: they read, but cannot write. */
  sendChat?: (text: string) => boolean;
  /** A heading other than "Table chat". */
  title?: string;
  className?: string;
}

/** A line's time as its reader's region writes it. Icelandic, Norwegian and Portuguese
 * write 24-hour times in every region; a browser without time data for the language
 * (Debian's Chromium has none for Icelandic) would fall back to "08:39 PM". */
function time(at: number, language: string): string {
  const hourCycle = language === "en" ? undefined : "h23";
  try {
    return new Date(at).toLocaleTimeString(localeTag(language),
                                           { hour: "2-digit", minute: "2-digit", hourCycle });
  } catch {
    return "";
  }
}

interface Line {
  id: number;
  text: string;
}

/** The box's text: the first of `lines` that fit in it whole (at least one), then
 * `typed` if it fits after them; what does not fit waits in `pending` (`typed` last, as
 * a line of its own). `inBox` counts the lines of `pending` in the box. */
function pack(lines: Line[], typed: string): { box: string; inBox: number; pending: Line[] } {
  let box = "";
  let count = 0;
  for (; count < lines.length; count++) {
    const next = box ? `${box} ${lines[count].text}` : lines[count].text;
    if (box && next.length > CHAT_MAX_CHARS) break;
    box = next;
  }
  const waiting = count < lines.length;
  const joined = box && typed ? `${box} ${typed}` : box || typed;
  if (!typed || (!waiting && joined.length <= CHAT_MAX_CHARS)) {
    return { box: upTo(joined, CHAT_MAX_CHARS), inBox: count, pending: lines };
  }
  return { box: upTo(box, CHAT_MAX_CHARS), inBox: count,
           pending: [...lines, { id: Number.MAX_SAFE_INTEGER, text: typed }] };
}

export function Chat({ info, seat, chat = [], sendChat, title, className = "" }: ChatProps) {
  const { t, i18n } = useTranslation();
  const [draft, setDraft] = useState("");
  const list = useRef<HTMLDivElement>(null);
  const id = useId();

  // Lines the server refused (written too fast, say) come back to the box, to be sent
  // again: in the order they were sent, before anything written since. What does not
  // fit in the box (it holds CHAT_MAX_CHARS) waits, and comes into the box once the box
  // is sent: nothing refused, nor written meanwhile, is lost.
  const unsent = useContext(UnsentChatContext);
  // Writers this reader hides (chatMute.ts): their lines leave the log.
  const { muted, mute, unmute } = useMutedWriters(info.id);
  const lines = chat.filter((message) => !muted.includes(writerKey(message)) || isMine(info, message, seat));
  /** The others who wrote here, by their newest line (the name they write under now). */
  const writers = new Map<string, ChatMessage>();
  for (const message of chat) if (!isMine(info, message, seat)) writers.set(writerKey(message), message);
  const seen = useRef(unsent?.n ?? 0);
  /** Refused lines not sent again yet, in order: the first `inBox` are in the box. */
  const pending = useRef<Line[]>([]);
  const inBox = useRef(0);
  /** The box's text, `typed` after the lines that come back; `space`: the person had
   * typed a space last. It ends with a space where their words go on after the lines
   * (typed on at once, "Too many," came back as "Too many,and more"), or after that
   * space of theirs (kept, so that the next word is not glued to the last). */
  const fill = (typed: string, space = false): string => {
    const packed = pack(pending.current, typed);
    pending.current = packed.pending;
    inBox.current = packed.inBox;
    const goesOn = packed.box !== "" && packed.box.endsWith(typed) && (space || typed === "");
    return goesOn ? upTo(`${packed.box} `, CHAT_MAX_CHARS) : packed.box;
  };
  // A layout effect, so that the line is in the box before the next key is handled: from
  // a passive effect the update waited behind a key pressed meanwhile, whose text (the
  // box without the line) then replaced it, and the line was lost.
  useLayoutEffect(() => {
    if (!unsent || unsent.n <= seen.current) return;
    const fresh = unsent.lines.slice(-Math.min(unsent.n - seen.current, unsent.lines.length));
    seen.current = unsent.n;
    // (As an update of the box's latest text: a key pressed meanwhile is kept.)
    setDraft((now) => {
      const written = now.trim();
      const before = pending.current.slice(0, inBox.current).map((line) => line.text).join(" ");
      let typed = written;
      if (before && written.startsWith(before)) typed = written.slice(before.length).trim();
      else pending.current = pending.current.slice(inBox.current); // edited: the person's now
      pending.current = [...pending.current, ...fresh].sort((a, b) => a.id - b.id);
      return fill(typed, /\s$/.test(now));
    });
  }, [unsent]);

  // Keep the newest message in view, unless the reader has scrolled up to read.
  const last = lines[lines.length - 1];
  useEffect(() => {
    const element = list.current;
    if (!element) return;
    const nearBottom = element.scrollHeight - element.scrollTop - element.clientHeight < 80;
    if (nearBottom || last?.seat === seat) element.scrollTop = element.scrollHeight;
  }, [last, seat]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const text = draft.trim();
    if (!text || !sendChat) return;
    // Kept when it could not be sent (the connection is down), to send again.
    if (sendChat(text)) {
      pending.current = pending.current.slice(inBox.current);
      setDraft(fill(""));
    }
  };

  return (
    <section className={`chat ${className}`} aria-labelledby={`${id}-title`}>
      <h3 className="chat-title" id={`${id}-title`}>
        {title ?? t("ui.chat.title")}
      </h3>
      {/* A log of lines, not a list: under role="log" an <ol>'s items are in no list
          (axe: "<li> elements must be contained in a <ul> or <ol>"). */}
      <div className="chat-log" ref={list} role="log" aria-live="polite" aria-label={t("ui.chat.log_label")} tabIndex={0}>
        {/* (Lines there are, all hidden: the note below says whose, not "No messages yet".) */}
        {chat.length === 0 && <div className="chat-empty">{t("ui.chat.empty")}</div>}
        {lines.map((message) => (
          <ChatLine
            key={message.id}
            message={message}
            name={writerName(t, message)}
            mine={isMine(info, message, seat)}
            language={i18n.language}
          />
        ))}
      </div>
      {writers.size > 0 && (
        <div className="chat-tools">
          {[...writers].filter(([key]) => muted.includes(key)).map(([key, message]) => (
            <p key={key} className="chat-muted" data-muted={key}>
              {t("ui.chat.muted", { player: writerName(t, message) })}{" "}
              <button type="button" className="chat-unmute" data-action="unmute" onClick={() => unmute(key)}>
                {t("ui.chat.unmute")}
              </button>
            </p>
          ))}
          {[...writers.keys()].some((key) => !muted.includes(key)) && (
            <select
              className="chat-mute"
              aria-label={t("ui.chat.mute_label")}
              value=""
              onChange={(event) => event.target.value && mute(event.target.value)}
            >
              <option value="">{t("ui.chat.mute_choose")}</option>
              {[...writers].filter(([key]) => !muted.includes(key)).map(([key, message]) => (
                <option key={key} value={key}>
                  {writerName(t, message)}
                </option>
              ))}
            </select>
          )}
        </div>
      )}
      {sendChat ? (
        <form className="chat-form" onSubmit={submit}>
          <label className="sr-only" htmlFor={`${id}-input`}>
            {t("ui.chat.input_label")}
          </label>
          <input
            id={`${id}-input`}
            className="chat-input"
            value={draft}
            autoComplete="off"
            enterKeyHint="send"
            placeholder={t("ui.chat.placeholder")}
            onChange={(event) => setDraft(upTo(event.target.value, CHAT_MAX_CHARS))}
          />
          <button type="submit" className="primary" disabled={!draft.trim()}>
            {t("ui.chat.send")}
          </button>
        </form>
      ) : (
        <p className="chat-note">{t("ui.chat.spectator")}</p>
      )}
    </section>
  );
}

/** One message; it stays the same element for as long as it is shown. */
const ChatLine = memo(function ChatLine({ message, name, mine, language }: { message: ChatMessage; name: string; mine: boolean; language: string }) {
  const { t } = useTranslation();
  return (
    <div className={`chat-message ${mine ? "mine" : ""}`} data-seat={message.seat}>
      <span className="chat-meta">
        <span className="chat-name">{name}</span>
        {mine && <span className="tag">{t("ui.seat.you")}</span>}
        <time className="chat-time" dateTime={new Date(message.at).toISOString()}>
          {time(message.at, language)}
        </time>
      </span>
      <span className="chat-text" dir="auto">{message.text}</span>
    </div>
  );
});

/** Whether `message` was written by this page's person: from its seat, since they held
 * it (one who took the seat over later, before the game or during it, was shown the
 * earlier occupant's lines as theirs, "you"). A message tells by its writer's `tag`;
 * one kept from before messages had tags, by when it was written (`version`). */
export function isMine(info: TableInfo, message: Omit<ChatMessage, "id">, seat: number | null): boolean {
  if (seat === null || message.seat !== seat) return false;
  const holder = info.seats[seat]?.tag;
  if (message.tag && holder) return message.tag === holder;
  return message.version === undefined || heldNowAt(info, seat, message.version, message.name);
}
