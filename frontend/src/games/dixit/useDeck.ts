// A table's deck: card picture addresses and card descriptions, which serve as alt text.
// An uploaded deck's pictures need a picture pass, which the seat's token buys (the token
// never goes into an address), or which someone watching gets while the host lets people
// watch (the big screen, the watch link); the pass is renewed before it runs out.
import { useCallback, useEffect, useMemo, useState } from "react";
import { tokens } from "../../app/api";
import { cardUrl, deckPass, DEFAULT_DECK, type CardSize } from "../../app/decks";
import type { TableInfo } from "../../app/types";

export interface DeckInfo {
  /** The picture's address, or null while the deck's picture pass is being fetched. */
  src: (card: number, size: CardSize) => string | null;
  /** The card's description, or null when the deck has none. */
  description: (card: number) => string | null;
  /** The language of the descriptions ("en"), or null when the deck does not say (the
   * page's own language is then assumed). */
  language: string | null;
}

type Manifest = { language?: string | null; cards?: ({ description?: string | null } | null)[] };
type Descriptions = { texts: (string | null)[]; language: string | null };

/** Renew a pass this long before it expires (ms). */
const RENEW_BEFORE = 15 * 60 * 1000;

const loaded = new Map<string, Promise<Descriptions>>();

/** The descriptions of a deck's cards in card order ([] when they cannot be had), and
 * their language. */
function loadDescriptions(deck: string, pass: string): Promise<Descriptions> {
  const key = `${deck}?${pass}`;
  let promise = loaded.get(key);
  if (!promise) {
    promise = fetch(`/api/decks/${encodeURIComponent(deck)}${pass ? `?${pass}` : ""}`)
      .then((response) => (response.ok ? (response.json() as Promise<Manifest>) : {}))
      .then((manifest: Manifest) => ({
        texts: (manifest.cards ?? []).map((card) => card?.description ?? null),
        language: typeof manifest.language === "string" && manifest.language ? manifest.language : null,
      }))
      .catch(() => ({ texts: [], language: null }));
    loaded.set(key, promise);
  }
  return promise;
}

/** The picture pass query for `deck` at table `table` ("" when none is needed or none can be
 * had; null while it is being fetched); `token` null: for someone watching. */
function usePass(deck: string, table: string, token: string | null): string | null {
  const [pass, setPass] = useState<string | null>(deck === DEFAULT_DECK ? "" : null);
  useEffect(() => {
    if (deck === DEFAULT_DECK) {
      setPass("");
      return;
    }
    let live = true;
    let timer: number | undefined;
    const fetchPass = () => {
      deckPass(deck, table, token)
        .then((granted) => {
          if (!live) return;
          setPass(granted.query);
          if (granted.expires !== null) {
            const wait = Math.max(60_000, granted.expires * 1000 - Date.now() - RENEW_BEFORE);
            timer = window.setTimeout(fetchPass, wait);
          }
        })
        .catch(() => {
          if (!live) return;
          setPass((current) => current ?? "");
          timer = window.setTimeout(fetchPass, 60_000);
        });
    };
    fetchPass();
    return () => {
      live = false;
      window.clearTimeout(timer);
    };
  }, [deck, table, token]);
  return pass;
}

export function useDeck(info: TableInfo, deck: string): DeckInfo {
  const token = tokens.seat(info.id)?.token ?? null;
  const pass = usePass(deck, info.id, token);
  const fromPublic = (info.public as { descriptions?: (string | null)[] }).descriptions;
  const [descriptions, setDescriptions] = useState<(string | null)[]>(() => fromPublic ?? []);
  const [language, setLanguage] = useState<string | null>(null);

  useEffect(() => {
    if (fromPublic || pass === null) return;
    let live = true;
    void loadDescriptions(deck, pass).then((loaded) => {
      if (!live || loaded.texts.length === 0) return;
      setDescriptions(loaded.texts);
      setLanguage(loaded.language);
    });
    return () => {
      live = false;
    };
  }, [deck, pass, fromPublic]);

  const src = useCallback(
    (card: number, size: CardSize) => (pass === null ? null : cardUrl(deck, card, size, pass)),
    [deck, pass],
  );
  const description = useCallback((card: number) => descriptions[card] ?? null, [descriptions]);
  // The same object while nothing changed: what shows cards is memoised on it.
  return useMemo(() => ({ src, description, language }), [src, description, language]);
}
