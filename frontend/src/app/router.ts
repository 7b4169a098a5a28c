// A two-route router: "/" is the lobby, "/t/<table id>" a table.
import { useEffect, useState } from "react";

export type Route = { page: "lobby" } | { page: "table"; tableId: string };

function parse(path: string): Route {
  const match = /^\/t\/([A-Za-z0-9_-]+)\/?$/.exec(path);
  return match ? { page: "table", tableId: match[1] } : { page: "lobby" };
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
