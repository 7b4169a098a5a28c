// A move on its way to the server: the page waits for the state that answers it.
import { createContext, useContext, useRef } from "react";

/** True from the moment this seat sends an action until the server answers it (a new
 * state or an error) or the connection drops. */
export const MoveInFlight = createContext(false);

/** ``value`` as it was when the last move was sent, for as long as that move is on its
 * way; else ``value`` itself. A status line read through it does not say "Your turn…"
 * for the moment between a move (the choice cleared) and the state that follows it. */
export function useSteady<T>(value: T): T {
  const inFlight = useContext(MoveInFlight);
  const held = useRef(value);
  if (!inFlight) held.current = value;
  return held.current;
}
