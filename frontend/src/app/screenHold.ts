// The big screen, which nobody clicks, moves on by itself from a round's result when the
// next round starts; a computer player starting it at once left the room 1–2 s to read
// it. A result that comes while the screen watches stays up at least SCREEN_HOLD_MS.
import { useEffect, useRef, useState } from "react";
import { useScreenMode } from "./replay";

/** How long the big screen keeps a round's result up at least (ms), unless its address
 * says otherwise: `/t/<id>/screen?hold=30` (seconds, 0–600). */
export const SCREEN_HOLD_MS = 20_000;

function holdMs(): number {
  const asked = Number(new URLSearchParams(location.search).get("hold") ?? "NaN");
  return Number.isFinite(asked) && asked >= 0 && asked <= 600 ? asked * 1000 : SCREEN_HOLD_MS;
}

/** Whether the result named `key` (a round number; null: none) is still to be held on
 * the big screen: only there, only for a result that came after the page opened (not
 * the last one of a game joined midway), and for SCREEN_HOLD_MS (or `?hold`) after it came. */
export function useScreenHold(key: number | null): boolean {
  const onScreen = useScreenMode();
  const first = useRef(key); // the result already there when the page opened
  const [held, setHeld] = useState<{ key: number; until: number } | null>(null);
  const [, setTick] = useState(0);
  useEffect(() => {
    if (!onScreen || key === null || key === first.current) return;
    setHeld((old) => (old?.key === key ? old : { key, until: Date.now() + holdMs() }));
  }, [onScreen, key]);
  useEffect(() => {
    if (!held) return;
    const left = held.until - Date.now();
    if (left <= 0) return;
    const timer = window.setTimeout(() => setTick((n) => n + 1), left + 50);
    return () => window.clearTimeout(timer);
  }, [held]);
  return onScreen && held !== null && held.key === key && Date.now() < held.until;
}
