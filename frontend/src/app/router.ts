// A small router: "/" is the lobby, "/t/<table id>" a table, "/t/<table id>/screen" its
// big screen, "/t/<table id>/watch" its watch link (a spectator, never a seat),
// "/t/<table id>/replay" the replay of its finished game, "/replay" the replay of a
// record file opened in the lobby; any other address says there is nothing there.
import { useEffect, useState } from "react";

export type Route =
  | { page: "lobby" }
  | { page: "missing" }
  | { page: "table" | "screen" | "watch"; tableId: string }
  | { page: "replay"; tableId: string | null };

function parse(path: string): Route {
  if (/^\/replay\/?$/.test(path)) return { page: "replay", tableId: null };
  const match = /^\/t\/([A-Za-z0-9_-]+)(?:\/(screen|watch|replay))?\/?$/.exec(path);
  if (!match) return /^\/?$/.test(path) ? { page: "lobby" } : { page: "missing" };
  const page = (match[2] ?? "table") as "table" | "screen" | "watch" | "replay";
  return { page, tableId: match[1] };
}

export function navigate(path: string) {
  history.pushState(null, "", path);
  window.dispatchEvent(new PopStateEvent("popstate"));
  focusNewPageSoon();
}

/** The page a button opened (a new table, the replay, back to the lobby) takes the
 * keyboard's focus that the button, now gone, left on the page's body: a game's status
 * line, else the page's visible heading (a screen reader reads it; Tab goes on from
 * there; a game table's hidden heading waits for its status line). Once
 * it is drawn, within 10 s; nothing is taken from an element focused meanwhile. */
function focusNewPageSoon(): void {
  const focus = () => {
    const now = document.activeElement;
    if (now !== null && now !== document.body) return true;
    const target = document.querySelector<HTMLElement>("[data-status-line]") ?? document.querySelector<HTMLElement>("h1:not(.sr-only)");
    if (!target) return false;
    if (!target.hasAttribute("tabindex")) target.tabIndex = -1;
    target.focus({ preventScroll: true });
    return true;
  };
  const watcher = new MutationObserver(() => {
    if (focus()) watcher.disconnect();
  });
  requestAnimationFrame(() => {
    if (focus()) return;
    watcher.observe(document.body, { childList: true, subtree: true });
    window.setTimeout(() => watcher.disconnect(), 10_000);
  });
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parse(location.pathname));
  useEffect(() => {
    const update = () => setRoute(parse(location.pathname));
    window.addEventListener("popstate", update);
    return () => window.removeEventListener("popstate", update);
  }, []);
  return route;
}
