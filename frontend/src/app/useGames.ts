// The games and bots the server offers, loaded once and shared.
import { useEffect, useState } from "react";
import { api } from "./api";
import { addGameMessages } from "./i18n";
import { addLevels } from "./seatName";
import type { GameDescription, TableInfo } from "./types";

export interface ServerInfo {
  games: GameDescription[];
  bots: string[];
  server: { public_url: string | null; reopen_after_seconds?: number };
}

/** The address friends should use for this table (the server's public one, if set). */
export function inviteUrl(path: string, server: ServerInfo | null): string {
  return `${server?.server.public_url ?? location.origin}${path}`;
}

/** True while the invite link opens a seat: the game is not over and an open seat is not
 * kept for the host's guest (a seat opened once the game has begun is: only its own link
 * opens it). */
export function invitable(info: TableInfo): boolean {
  return info.status !== "finished" && info.seats.some((s) => s.kind === "open" && !s.invited);
}

/** True when the page was opened at an address only this computer can reach. */
export function onlyHere(server: ServerInfo | null): boolean {
  return !server?.server.public_url && ["localhost", "127.0.0.1", "[::1]"].includes(location.hostname);
}

let cache: Promise<ServerInfo> | null = null;

export function loadGames() {
  if (!cache) {
    cache = api.games().then((data) => {
      for (const game of data.games) {
        addGameMessages(game.messages);
        addLevels(game.name, game.levels);
      }
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
