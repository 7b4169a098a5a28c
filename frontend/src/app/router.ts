// A small router: "/" is the lobby, "/t/<table id>" a table, "/t/<table id>/screen" its
// big screen.
import { useEffect, useState } from "react";

export type Route = { page: "lobby" } | { page: "table" | "screen"; tableId: string };

function parse(path: string): Route {
  const match = /^\/t\/([A-Za-z0-9_-]+)(\/screen)?\/?$/.exec(path);
  if (!match) return { page: "lobby" };
  return { page: match[2] ? "screen" : "table", tableId: match[1] };
}

export function navigate(path: string) {
  history.pushState(null, "", path);
  window.dispatchEvent(new PopStateEvent("popstate"));
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
