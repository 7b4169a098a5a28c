// Addresses of deck pictures (docs/protocol.md, "Decks"). Bundled decks are public; an
// uploaded deck's pictures are served with a picture pass: a short-lived signature that a
// seat's token buys for its table's deck. The seat token itself never goes into an address.
import { ApiError } from "./api";
import type { ErrorMessage } from "./types";

export type CardSize = "thumb" | "full";

/** A picture pass as `POST /api/decks/{id}/pass` answers it. */
export interface DeckPass {
  deck: string;
  table: string;
  /** Unix time (seconds) when it stops working; null for a bundled deck (no pass needed). */
  expires: number | null;
  /** What the pictures' addresses carry ("" for a bundled deck). */
  query: string;
}

/** The URL of card number `card` (0-based, manifest order) of deck `deck`, with the picture
 * pass query `pass` ("" for a bundled deck). */
export function cardUrl(deck: string, card: number, size: CardSize, pass = ""): string {
  return `/api/decks/${encodeURIComponent(deck)}/cards/${card}?size=${size}${pass ? `&${pass}` : ""}`;
}

// ---------------------------------------------------------------------------------------
// The deck API (listing, uploading, deleting) and the owner keys kept in this browser.

/** A deck as listed by `GET /api/decks`. */
export interface DeckSummary {
  id: string;
  name: string;
  /** How many cards it has. */
  cards: number;
  /** How many of its cards have a description (computer players read those). */
  described: number;
  uploaded: boolean;
  /** Uploaded by this browser (its owner key is kept here). */
  mine: boolean;
}

export interface DeckCardInfo {
  n: number;
  id: string;
  description: string | null;
  sources: unknown[];
}

/** A deck's manifest as served by `GET /api/decks/{id}`. */
export interface DeckManifest extends Omit<DeckSummary, "cards"> {
  cards: DeckCardInfo[];
}

/** What the server accepts (docs/protocol.md, "Decks"). */
export const DECK_LIMITS = {
  fileBytes: 10 * 1024 * 1024,
  files: 500,
  requestBytes: 200 * 1024 * 1024,
  nameChars: 60,
  descriptionChars: 500,
} as const;

/** The default deck's id: the one offered first. */
export const DEFAULT_DECK = "default";

// Owner keys are secrets, like seat tokens: they stay in this browser's storage.
const KEYS = "gametable.deckKeys";

export const deckKeys = {
  all(): Record<string, string> {
    try {
      const raw = JSON.parse(localStorage.getItem(KEYS) ?? "{}");
      return raw && typeof raw === "object" ? (raw as Record<string, string>) : {};
    } catch {
      return {};
    }
  },
  get(deck: string): string | null {
    return deckKeys.all()[deck] ?? null;
  },
  save(deck: string, key: string) {
    localStorage.setItem(KEYS, JSON.stringify({ ...deckKeys.all(), [deck]: key }));
  },
  forget(deck: string) {
    const keys = deckKeys.all();
    delete keys[deck];
    localStorage.setItem(KEYS, JSON.stringify(keys));
  },
  /** The `X-Deck-Key` header value: every key, comma-separated ("" when none). */
  header(): string {
    return Object.values(deckKeys.all()).join(",");
  },
};

function failure(status: number, data: unknown, fallback: string): ApiError {
  const body = data as Partial<ErrorMessage> | null;
  const error: ErrorMessage =
    body && body.type === "error"
      ? (body as ErrorMessage)
      : { type: "error", code: "http", rule: null, key: fallback, params: {}, message: String(status) };
  return new ApiError(error, status);
}

function keyHeaders(): Record<string, string> {
  const header = deckKeys.header();
  return header ? { "X-Deck-Key": header } : {};
}

/** The bundled decks (the default first) and the decks uploaded from this browser. */
export async function listDecks(): Promise<DeckSummary[]> {
  const response = await fetch("/api/decks", { headers: keyHeaders() });
  const data = await response.json().catch(() => null);
  if (!response.ok) throw failure(response.status, data, "ui.errors.network");
  return (data as { decks: DeckSummary[] }).decks;
}

/** A deck's cards and descriptions (an uploaded deck needs its key or a picture pass). */
export async function deckManifest(deck: string, pass = ""): Promise<DeckManifest> {
  const key = deckKeys.get(deck);
  const response = await fetch(`/api/decks/${encodeURIComponent(deck)}${pass ? `?${pass}` : ""}`, {
    headers: key ? { "X-Deck-Key": key } : {},
  });
  const data = await response.json().catch(() => null);
  if (!response.ok) throw failure(response.status, data, "ui.errors.network");
  return data as DeckManifest;
}

/** Trade a seat's token for a picture pass to its table's deck (sent in the body, never in
 * an address); without a token, the pass of someone watching the table. */
export async function deckPass(deck: string, table: string, token: string | null): Promise<DeckPass> {
  const response = await fetch(`/api/decks/${encodeURIComponent(deck)}/pass`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(token ? { table, token } : { table }),
  });
  const data = await response.json().catch(() => null);
  if (!response.ok) throw failure(response.status, data, "ui.errors.network");
  return data as DeckPass;
}

/** Delete a deck uploaded from this browser. */
export async function deleteDeck(deck: string): Promise<void> {
  const key = deckKeys.get(deck);
  const response = await fetch(`/api/decks/${encodeURIComponent(deck)}`, {
    method: "DELETE",
    headers: key ? { "X-Deck-Key": key } : {},
  });
  const data = await response.json().catch(() => null);
  if (!response.ok) throw failure(response.status, data, "ui.errors.network");
  deckKeys.forget(deck);
}

export interface DeckUploadRequest {
  name: string;
  /** Pictures (PNG, JPEG, WebP) and zips of pictures, in card order. */
  files: File[];
  /** One per card, in card order (fewer is fine); null or "" for none. */
  descriptions?: (string | null)[];
  /** The descriptions' language (a language tag, "en"); sent with descriptions only. */
  language?: string;
}

export interface DeckUploadTask {
  /** The new deck (its key is already kept in this browser). */
  done: Promise<DeckSummary>;
  abort: () => void;
}

/**
 * Upload a deck with XMLHttpRequest, which reports the upload's progress: `onProgress`
 * gets the fraction sent (0…1); once everything is sent the server prepares the cards.
 * Refusals reject with an `ApiError` whose key is under `decks.errors`.
 */
export function uploadDeck(request: DeckUploadRequest, onProgress: (fraction: number) => void): DeckUploadTask {
  const xhr = new XMLHttpRequest();
  const form = new FormData();
  form.append("name", request.name);
  for (const file of request.files) form.append("files", file, file.name);
  if (request.descriptions?.some((text) => text && text.trim())) {
    form.append("descriptions", JSON.stringify(request.descriptions.map((text) => text?.trim() || null)));
    if (request.language) form.append("language", request.language);
  }
  const done = new Promise<DeckSummary>((resolve, reject) => {
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    xhr.upload.onload = () => onProgress(1);
    xhr.onload = () => {
      let data: unknown = null;
      try {
        data = JSON.parse(xhr.responseText);
      } catch {
        data = null;
      }
      if (xhr.status === 201 && data && typeof data === "object" && "key" in data) {
        const { deck, key } = data as { deck: DeckSummary; key: string };
        deckKeys.save(deck.id, key);
        resolve(deck);
      } else {
        reject(failure(xhr.status, data, "decks.errors.network"));
      }
    };
    xhr.onerror = () => reject(failure(0, null, "decks.errors.network"));
    xhr.onabort = () => reject(new DOMException("aborted", "AbortError"));
  });
  xhr.open("POST", "/api/decks");
  // The server counts uploads per address and per deck key (docs/protocol.md, "Uploads").
  const keys = deckKeys.header();
  if (keys) xhr.setRequestHeader("X-Deck-Key", keys);
  xhr.send(form);
  return { done, abort: () => xhr.abort() };
}
