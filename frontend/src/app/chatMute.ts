// Each reader may hide a person's chat lines at a table (someone abusive, or just
// noisy): their lines leave the log, pop up no more over the page and count for nothing
// in the chat's "new" tag. Kept in this browser per table, so that a reload keeps them
// hidden; nothing is sent to the server and nobody else's chat changes.
import { useSyncExternalStore } from "react";
import type { ChatMessage } from "./useTable";

/** Who wrote a line, the same across the lines of one person: their seat's mark
 * (`tag`) where the line has one, else their seat and the name they wrote under. */
export function writerKey(line: Pick<ChatMessage, "seat" | "name" | "tag">): string {
  return line.tag ? `tag:${line.tag}` : `seat:${line.seat}:${line.name ?? ""}`;
}

const listeners = new Set<() => void>();
const cache = new Map<string, string[]>();

function storageKey(table: string): string {
  return `gametable.chat-muted.${table}`;
}

function read(table: string): string[] {
  const known = cache.get(table);
  if (known) return known;
  let muted: string[] = [];
  try {
    const stored = JSON.parse(window.localStorage.getItem(storageKey(table)) ?? "[]") as unknown;
    if (Array.isArray(stored)) muted = stored.filter((key): key is string => typeof key === "string");
  } catch {
    // (storage off, or a value not written here: nobody hidden)
  }
  cache.set(table, muted);
  return muted;
}

function write(table: string, muted: string[]): void {
  cache.set(table, muted);
  try {
    if (muted.length) window.localStorage.setItem(storageKey(table), JSON.stringify(muted));
    else window.localStorage.removeItem(storageKey(table));
  } catch {
    // (storage off: hidden until the page is left)
  }
  listeners.forEach((listener) => listener());
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The writers (see {@link writerKey}) this reader hides at `table`, and the means to
 * hide one more or show one again. */
export function useMutedWriters(table: string): {
  muted: readonly string[];
  mute: (key: string) => void;
  unmute: (key: string) => void;
} {
  const muted = useSyncExternalStore(subscribe, () => read(table));
  return {
    muted,
    mute: (key) => {
      if (!read(table).includes(key)) write(table, [...read(table), key]);
    },
    unmute: (key) => write(table, read(table).filter((k) => k !== key)),
  };
}
