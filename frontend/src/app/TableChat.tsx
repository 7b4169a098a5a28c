// The table chat under a game whose table has no place of its own for it (every game
// but Team Dixit, whose teams talk beside the cards): a fold, open on a wide screen and
// closed on a phone, whose label counts the lines others wrote since it was last open.
// A line another seat writes while the chat is out of sight shows over the page for a
// few seconds; a tap on it opens the chat and brings it into view.
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Chat, isMine, type ChatProps } from "./Chat";
import { useNewestShown } from "./eventLog";
import { writerName } from "./seatName";
import { scrollBehavior } from "./motion";
import { useMutedWriters, writerKey } from "./chatMute";

/** Wider than this (ems of the browser's text size: 900 px at the default 16 px) the
 * chat starts open. */
const OPEN_FROM_EM = 56.25;
/** How long a new line shows over the page (milliseconds). */
const TOAST_MS = 6000;

export function TableChat({ info, seat, chat, sendChat }: ChatProps) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(() => window.matchMedia?.(`(min-width: ${OPEN_FROM_EM}em)`).matches ?? true);
  // A writer this reader hides (chatMute.ts) pops up no more and counts as nothing new.
  const { muted } = useMutedWriters(info.id);
  const lines = (chat ?? []).filter((line) => !muted.includes(writerKey(line)) || isMine(info, line, seat));
  const last = lines.length ? lines[lines.length - 1] : null;
  const newest = last?.id ?? -1;
  const [readUpTo, setReadUpTo] = useState(newest);
  useEffect(() => {
    if (open) setReadUpTo(newest);
  }, [open, newest]);
  const unread = open ? 0 : lines.filter((line) => line.live && line.id > readUpTo && !isMine(info, line, seat)).length;

  // Whether the chat's newest line is on screen: its foot (the line to write on, or a
  // spectator's note) is. (Any of the fold counted: at 1280 × 800 its heading showed at
  // the window's foot, the lines below it, and new ones went unnoticed.) Lines already
  // there when the page opened are old.
  const fold = useRef<HTMLDetailsElement>(null);
  const [inView, setInView] = useState(true);
  useEffect(() => {
    const element = fold.current?.querySelector(".chat-form, .chat-note");
    if (!element || typeof IntersectionObserver === "undefined") return;
    const observer = new IntersectionObserver(([entry]) => setInView(entry.intersectionRatio >= 0.9), {
      threshold: [0, 0.9, 1],
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  // Lines already there when the page opened, and those the reader has had in sight
  // since, are read: only a newer one shows over the page (once scrolled away from the
  // chat, a line read there showed again).
  const [seenUpTo, setSeenUpTo] = useState(newest);
  const inSight = inView && open;
  useEffect(() => {
    if (inSight) setSeenUpTo(newest);
  }, [inSight, newest]);
  const fresh = last !== null && last.live && last.id > seenUpTo && !isMine(info, last, seat) && !inSight ? last : null;
  const shown = useNewestShown(fresh?.id ?? -1, TOAST_MS);
  const [dismissed, setDismissed] = useState(-1);
  const openChat = (id: number) => {
    setDismissed(id);
    setOpen(true);
    fold.current?.scrollIntoView({ block: "center", behavior: scrollBehavior() });
  };

  // With the chat folded its log (a live region) is hidden from screen readers too: a
  // line from someone else is read out here instead (not the lines there on opening,
  // which come in the history: a page that drew the chat before the history came had
  // read those out, and shown them over the page).
  const heard = !open && last !== null && last.live && !isMine(info, last, seat) ? last : null;

  return (
    <>
      <div className="sr-only" aria-live="polite" data-chat-announcer="">
        {heard ? `${writerName(t, heard)}: ${heard.text}` : ""}
      </div>
      {fresh && shown && dismissed !== fresh.id && (
        <button type="button" className="chat-toast" data-action="open-chat" onClick={() => openChat(fresh.id)}>
          <strong>{writerName(t, fresh)}:</strong> <span dir="auto">{fresh.text}</span>
          <span className="sr-only"> ({t("ui.chat.show")})</span>
        </button>
      )}
      <details ref={fold} className="table-chat" open={open} onToggle={(event) => setOpen(event.currentTarget.open)}>
        <summary data-action="toggle-chat">
          {t("ui.chat.title")}
          {unread > 0 && (
            <span className="table-chat-unread" data-unread={unread}>
              {t("ui.chat.unread", { count: unread })}
            </span>
          )}
        </summary>
        <Chat info={info} seat={seat} chat={chat} sendChat={sendChat} className="table-chat-body" />
      </details>
    </>
  );
}

/** Whether a table wants the chat: two or more seats for people (taken or open), or
 * lines already written (a spectator reads them). */
export function wantsChat(info: ChatProps["info"], lines: number): boolean {
  return info.seats.filter((s) => s.kind !== "bot").length >= 2 || lines > 0;
}
