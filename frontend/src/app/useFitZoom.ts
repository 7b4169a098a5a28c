// The big screen's table zoom where the window is short (a 720p TV, a 768 px laptop
// window): styles.css makes a Dixit or Triominos table smaller to the window's height
// (--screen-zoom 0.8 to 0.6), which a ranking or twelve players' points need. Where the
// content fits larger (a six-player reveal left a third of the screen empty with 9–11 px
// text), this raises the zoom as far as it still fits.
import { useEffect, useRef, type RefObject } from "react";
import { ZOOMED } from "./useLayout";

/** The zooms tried above the style sheet's, smallest first. */
const TRIED = [0.66, 0.75, 0.8, 0.9, 1];
/** Milliseconds a table's parts take to lay themselves out for a new zoom. */
const SETTLE_MS = 150;
/** Pixels of overflow a fit forgives (a rounding, a fade's edge). */
const SLACK = 2;

/** Boxes whose hidden part does not count: text for screen readers only, and a log of
 * moves or chat (newest first, its oldest lines below the fold whatever the zoom). */
const UNCOUNTED = ".sr-only, .tr-log, .sc-log, .chat-log";

/** Whether the page fits the window at the zoom now set: it does not scroll, and no box
 * inside `table` holds more than it shows (a box that scrolls, a name clamped; see
 * {@link UNCOUNTED}). */
function fits(table: HTMLElement): boolean {
  if (document.documentElement.scrollHeight > window.innerHeight + SLACK) return false;
  if (document.documentElement.scrollWidth > window.innerWidth + SLACK) return false;
  for (const box of table.querySelectorAll<HTMLElement>("*")) {
    if (box.scrollHeight <= box.clientHeight + SLACK || box.matches(UNCOUNTED)) continue;
    // (A board that pans clips its content by design.)
    const overflow = getComputedStyle(box).overflowY;
    if (overflow === "auto" || overflow === "scroll" || overflow === "hidden") return false;
  }
  return true;
}

/**
 * Keeps `ref`'s element (the big screen's `.screen-table`) at the largest zoom at which
 * the page still fits the window (see {@link fits}), between the zoom the style sheet
 * gives it (`--screen-zoom`, never less) and 1. Measured again whenever the table's
 * content or the window changes, a step up at a time: parts of a table lay themselves
 * out for its size a moment after it changes, so a larger zoom is kept only once it
 * still fits then; one that did not is not tried again until `content` (what the table
 * shows: the game's version) or the window changes. The zoom in use is the element's
 * `data-zoom`.
 */
export function useFitZoom(ref: RefObject<HTMLElement | null>, active: boolean, content: unknown) {
  const ceiling = useRef(Infinity);
  useEffect(() => {
    ceiling.current = Infinity;
  }, [content]);
  useEffect(() => {
    const table = ref.current;
    if (!active || !table) return;
    let frame = 0;
    let check = 0;
    const zoomTo = (zoom: number | null) => {
      if (zoom === null) table.style.removeProperty("--screen-zoom");
      else table.style.setProperty("--screen-zoom", String(zoom));
      window.dispatchEvent(new Event(ZOOMED)); // heights that follow the window follow it
    };
    const fit = () => {
      frame = 0;
      const set = parseFloat(table.style.getPropertyValue("--screen-zoom")) || null;
      table.style.removeProperty("--screen-zoom");
      const sheet = parseFloat(getComputedStyle(table).getPropertyValue("--screen-zoom")) || 1;
      const levels = [sheet, ...TRIED.filter((z) => z > sheet && z <= ceiling.current)];
      let at = Math.max(0, levels.indexOf(set ?? sheet));
      zoomTo(at > 0 ? levels[at] : null);
      if (!fits(table)) {
        // Too large now: down until it fits (the style sheet's zoom at the least), and
        // not up again to the one that did not fit.
        const from = at;
        while (at > 0) {
          at -= 1;
          zoomTo(at > 0 ? levels[at] : null);
          if (fits(table)) {
            ceiling.current = levels[at];
            break;
          }
        }
        // (Nothing fits, not even the style sheet's zoom: a page still laying itself
        // out, or a result paged through. No ceiling then.)
        if (at === 0 && from > 0 && !fits(table)) ceiling.current = Infinity;
      } else if (at + 1 < levels.length) {
        zoomTo(levels[at + 1]);
        if (fits(table)) {
          at += 1;
          // Looked at again once its parts have laid themselves out for it: down if it
          // no longer fits, else a step further up.
          check = window.setTimeout(later, SETTLE_MS);
        } else zoomTo(at > 0 ? levels[at] : null);
      }
      table.dataset.zoom = String(levels[at]);
    };
    const later = () => {
      if (!frame) frame = window.requestAnimationFrame(fit);
    };
    const resized = () => {
      ceiling.current = Infinity;
      later();
    };
    fit();
    // What the table shows changes without this page rendering again (a result held,
    // cards coming in), and its parts lay themselves out again at a new zoom; the zoom's
    // own change changes no element.
    const watcher = new MutationObserver(later);
    watcher.observe(table, { childList: true, subtree: true, characterData: true, attributes: true, attributeFilter: ["class"] });
    window.addEventListener("resize", resized);
    return () => {
      watcher.disconnect();
      window.removeEventListener("resize", resized);
      if (frame) window.cancelAnimationFrame(frame);
      window.clearTimeout(check);
      zoomTo(null);
    };
  }, [ref, active]);
}
