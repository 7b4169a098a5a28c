// A table's deck: card picture addresses (with the seat token for uploaded decks) and
// card descriptions, which serve as alt text.
import { useCallback, useEffect, useMemo, useState } from "react";
import { tokens } from "../../app/api";
import { cardUrl, type CardSize } from "../../app/decks";
import type { TableInfo } from "../../app/types";

export interface DeckInfo {
  src: (card: number, size: CardSize) => string;
  /** The card's description, or null when the deck has none. */
  description: (card: number) => string | null;
}

type Manifest = { cards?: ({ description?: string | null } | null)[] };

const loaded = new Map<string, Promise<(string | null)[]>>();

/** The descriptions of a deck's cards in card order ([] when they cannot be had). */
function loadDescriptions(deck: string, query: string): Promise<(string | null)[]> {
  const key = `${deck}?${query}`;
  let promise = loaded.get(key);
  if (!promise) {
    promise = fetch(`/api/decks/${encodeURIComponent(deck)}${query ? `?${query}` : ""}`)
      .then((response) => (response.ok ? (response.json() as Promise<Manifest>) : {}))
      .then((manifest: Manifest) => (manifest.cards ?? []).map((card) => card?.description ?? null))
      .catch(() => []);
    loaded.set(key, promise);
  }
  return promise;
}

export function useDeck(info: TableInfo, deck: string): DeckInfo {
  const token = tokens.seat(info.id)?.token ?? null;
  const access = useMemo(() => ({ table: info.id, token }), [info.id, token]);
  const fromPublic = (info.public as { descriptions?: (string | null)[] }).descriptions;
  const [descriptions, setDescriptions] = useState<(string | null)[]>(() => fromPublic ?? []);

  useEffect(() => {
    if (fromPublic) return;
    let live = true;
    const query = token ? new URLSearchParams({ table: info.id, token }).toString() : "";
    void loadDescriptions(deck, query).then((list) => live && setDescriptions(list));
    return () => {
      live = false;
    };
  }, [deck, info.id, token, fromPublic]);

  const src = useCallback((card: number, size: CardSize) => cardUrl(deck, card, size, access), [deck, access]);
  const description = useCallback((card: number) => descriptions[card] ?? null, [descriptions]);
  // The same object while nothing changed: what shows cards is memoised on it.
  return useMemo(() => ({ src, description }), [src, description]);
}
