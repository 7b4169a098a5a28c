// The games and bots the server offers, loaded once and shared.
import { useEffect, useState } from "react";
import { api } from "./api";
import { addGameMessages } from "./i18n";
import type { GameDescription } from "./types";

let cache: Promise<{ games: GameDescription[]; bots: string[] }> | null = null;

export function loadGames() {
  if (!cache) {
    cache = api.games().then((data) => {
      for (const game of data.games) addGameMessages(game.messages);
      return data;
    });
    cache.catch(() => (cache = null));
  }
  return cache;
}

export function useGames() {
  const [data, setData] = useState<{ games: GameDescription[]; bots: string[] } | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    loadGames().then(
      (d) => live && setData(d),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, []);
  return { data, failed };
}
