// A page shut by "Watching is off" (the watch link's, the big screen's) asks now and
// then whether watching is on again, and reloads when it is: a TV has no keyboard, and
// such a page stayed shut until someone reloaded it by hand.
import { useEffect } from "react";
import { api } from "./api";

/** How often it asks (milliseconds). */
const WATCHING_CHECK_MS = 10_000;

/** Asks every :data:`WATCHING_CHECK_MS` whether ``tableId`` lets people watch again,
 * and reloads the page when it does. Shows nothing. */
export function WatchingCheck({ tableId }: { tableId: string }) {
  useEffect(() => {
    const timer = window.setInterval(() => {
      api.table(tableId).then(
        (info) => {
          if (info.watching !== false) window.location.reload();
        },
        () => undefined, // (asked again next time)
      );
    }, WATCHING_CHECK_MS);
    return () => window.clearInterval(timer);
  }, [tableId]);
  return null;
}
