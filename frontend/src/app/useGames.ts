// The games and bots the server offers, loaded once and shared.
import { useEffect, useState } from "react";
import { api } from "./api";
import { addGameMessages } from "./i18n";
import type { GameDescription } from "./types";

export interface ServerInfo {
  games: GameDescription[];
  bots: string[];
  server: { public_url: string | null; reopen_after_seconds?: number };
}

/** The address friends should use for this table (the server's public one, if set). */
export function inviteUrl(path: string, server: ServerInfo | null): string {
  return `${server?.server.public_url ?? location.origin}${path}`;
}

/** True when the page was opened at an address only this computer can reach. */
export function onlyHere(server: ServerInfo | null): boolean {
  return !server?.server.public_url && ["localhost", "127.0.0.1", "[::1]"].includes(location.hostname);
}

let cache: Promise<ServerInfo> | null = null;

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
  const [data, setData] = useState<ServerInfo | null>(null);
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
