// Nobody scrolls a TV: a box on the big screen whose content is taller than it shows
// it a page at a time, by itself.
import { useEffect, type RefObject } from "react";
import { scrollBehavior } from "./motion";

/** Milliseconds each page stays in sight (the first, the middle ones and the last). */
export const PAGE_DWELL_MS = 6000;
/** Milliseconds the box waits after someone scrolls it themselves (a screen driven from
 * a laptop) before it goes on by itself. */
const HANDS_OFF_MS = 15000;
/** Pixels of overflow below which the box stays put (a rounding, a fade's edge). */
const SLACK = 4;

/**
 * While ``active``, pages the element through its content: after {@link PAGE_DWELL_MS}
 * at the top it scrolls down by most of its height (a line or two of the last page stays
 * in sight, so the eye finds its place), page after page, and from the bottom back to
 * the top, over and over. Content that fits is left alone; the check is made at every
 * step, so content that grows later (a round's points) is paged too. A scroll glides
 * unless the person's system asks for reduced motion (then it jumps). A wheel, a touch or
 * a key on the element holds the paging for {@link HANDS_OFF_MS}.
 */
export function usePagesThrough(ref: RefObject<HTMLElement | null>, active: boolean) {
  useEffect(() => {
    const element = ref.current;
    if (!active || !element) return;
    let timer = 0;
    const step = () => {
      const bottom = element.scrollHeight - element.clientHeight;
      if (bottom > SLACK) {
        const next = element.scrollTop >= bottom - SLACK ? 0 : Math.min(bottom, element.scrollTop + Math.round(element.clientHeight * 0.85));
        element.scrollTo({ top: next, behavior: scrollBehavior() });
      } else if (element.scrollTop > 0) {
        element.scrollTo({ top: 0, behavior: scrollBehavior() });
      }
      timer = window.setTimeout(step, PAGE_DWELL_MS);
    };
    const handsOn = () => {
      window.clearTimeout(timer);
      timer = window.setTimeout(step, HANDS_OFF_MS);
    };
    timer = window.setTimeout(step, PAGE_DWELL_MS);
    element.addEventListener("wheel", handsOn, { passive: true });
    element.addEventListener("touchstart", handsOn, { passive: true });
    element.addEventListener("keydown", handsOn);
    return () => {
      window.clearTimeout(timer);
      element.removeEventListener("wheel", handsOn);
      element.removeEventListener("touchstart", handsOn);
      element.removeEventListener("keydown", handsOn);
      // The next thing shown (the next round's clue) starts at the top.
      element.scrollTop = 0;
    };
  }, [ref, active]);
}
