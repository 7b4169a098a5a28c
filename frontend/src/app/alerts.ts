// "Your turn" alerts: a short chime (unless muted), the tab's title and icon, and a
// desktop notification while the tab is hidden (if the person allowed notifications).
import { useEffect, useSyncExternalStore } from "react";

const MUTED_KEY = "gametable.alerts.muted";
const ICON = "/favicon.svg";
export const TURN_ICON = "/favicon-turn.svg";
export const TURN_MARK = "● ";
/** The site's name: the tab's title outside a table. */
export const APP_TITLE = "gametable";

const listeners = new Set<() => void>();

function readMuted(): boolean {
  try {
    return localStorage.getItem(MUTED_KEY) === "1";
  } catch {
    return false; // storage blocked: sound stays on, nothing remembered
  }
}

/** Whether the chime is switched off; remembered in this browser. */
export function useMuted(): [boolean, (muted: boolean) => void] {
  const muted = useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    readMuted,
  );
  const set = (value: boolean) => {
    try {
      localStorage.setItem(MUTED_KEY, value ? "1" : "0");
    } catch {
      // storage blocked: the switch holds for this page only
    }
    listeners.forEach((listener) => listener());
  };
  return [muted, set];
}

let audio: AudioContext | null = null;

function audioContext(): AudioContext | null {
  if (audio) return audio;
  const Context = window.AudioContext as typeof AudioContext | undefined;
  if (!Context) return null;
  audio = new Context();
  return audio;
}

// Browsers start sound only after a gesture on the page: wake the context on the first
// one. Before it there is no sound to make (a context made then stays silent, warns in
// the console, and would play the notes late, at the first tap).
let gestured = false;
if (typeof window !== "undefined") {
  const wake = () => {
    gestured = true;
    void audioContext()?.resume().catch(() => undefined);
  };
  window.addEventListener("pointerdown", wake, { once: true });
  window.addEventListener("keydown", wake, { once: true });
}

function soundAllowed(): boolean {
  const activation = (navigator as Navigator & { userActivation?: { hasBeenActive: boolean } }).userActivation;
  return gestured || (activation?.hasBeenActive ?? false);
}

/** Two soft rising notes, about 0.4 s; nothing before the person's first tap or key on
 * the page (the browser would not play it). */
export function chime(): void {
  if (!soundAllowed()) return;
  const context = audioContext();
  if (!context) return;
  void context.resume().catch(() => undefined);
  const start = context.currentTime + 0.01;
  [660, 880].forEach((frequency, index) => {
    const at = start + index * 0.14;
    const tone = context.createOscillator();
    const volume = context.createGain();
    tone.type = "sine";
    tone.frequency.value = frequency;
    volume.gain.setValueAtTime(0.0001, at);
    volume.gain.exponentialRampToValueAtTime(0.18, at + 0.02);
    volume.gain.exponentialRampToValueAtTime(0.0001, at + 0.26);
    tone.connect(volume).connect(context.destination);
    tone.start(at);
    tone.stop(at + 0.3);
  });
}

function setIcon(href: string): void {
  const link = document.querySelector<HTMLLinkElement>("link[rel~='icon']");
  if (link && link.getAttribute("href") !== href) link.setAttribute("href", href);
}

/** Whether this browser can show desktop notifications and what the person said. */
export function notificationPermission(): NotificationPermission | "unsupported" {
  return "Notification" in window ? Notification.permission : "unsupported";
}

/**
 * Alerts the person while ``active`` (their seat must act): once when it becomes true
 * a chime (unless ``muted``) and, if the tab is hidden and notifications are allowed, a
 * notification ``{title, body}``; for as long as it holds, the tab's title starts with
 * ``TURN_MARK`` + ``label`` and the tab shows the alert icon. The tab's title is
 * ``page`` otherwise (say, "Dixit · gametable"), and the site's name after.
 */
export function useTurnAlert(
  active: boolean,
  muted: boolean,
  label: string,
  title: string,
  body: string,
  page: string = APP_TITLE,
): void {
  useEffect(() => {
    if (!active) return;
    if (!muted) chime();
    let shown: Notification | null = null;
    if (document.hidden && notificationPermission() === "granted") {
      try {
        shown = new Notification(title, { body, tag: "gametable-turn", icon: TURN_ICON });
        shown.onclick = () => {
          window.focus();
          shown?.close();
        };
      } catch {
        shown = null; // some browsers allow notifications only from a service worker
      }
    }
    const closeOnReturn = () => {
      if (!document.hidden) shown?.close();
    };
    document.addEventListener("visibilitychange", closeOnReturn);
    return () => {
      document.removeEventListener("visibilitychange", closeOnReturn);
      shown?.close();
    };
    // The chime and the notification mark the moment the turn comes, not a mute switch.
  }, [active]); // eslint-disable-line react-hooks/exhaustive-deps

  useEffect(() => {
    // The tab names the game (several tables open side by side read apart), and the
    // turn first while it is the seat's.
    document.title = active ? `${TURN_MARK}${label} · ${page}` : page;
    if (active) setIcon(TURN_ICON);
    return () => {
      document.title = APP_TITLE;
      if (active) setIcon(ICON);
    };
  }, [active, label, page]);
}
