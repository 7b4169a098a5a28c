// Layout helpers: phone-sized windows, and a table that fills the window's height.
import { useEffect, useState, type RefObject } from "react";

/** Whether the window matches ``query``, kept up to date. Layout queries are in ems (of
 * the browser's text size: 16 px unless the person set larger text), here as in the
 * style sheets, so that larger text gets the layout of a narrower window, as browser
 * zoom does: 43.75em is 700 px at the default size. */
export function useNarrow(query = "(max-width: 43.75em)") {
  const [narrow, setNarrow] = useState(() => window.matchMedia(query).matches);
  useEffect(() => {
    const list = window.matchMedia(query);
    const update = () => setNarrow(list.matches);
    list.addEventListener("change", update);
    return () => list.removeEventListener("change", update);
  }, [query]);
  return narrow;
}

/** An event on `window` saying that a part of the page was zoomed (the big screen's
 * table, useFitZoom.ts): the sizes that follow the window are set again at once, before
 * the zoom's fit is measured (a resize observer would tell them only after it). */
export const ZOOMED = "gametable:zoomed";

/** Runs ``update`` now and whenever the element may have moved or the window changed:
 * on resizing, and when its parent or the page changes size (bars above the table —
 * reconnecting, spectators, a replay's lines, the turn clock — come and go). Returns
 * the clean-up. */
function followPlace(element: HTMLElement, update: () => void): () => void {
  update();
  window.addEventListener("resize", update);
  window.addEventListener(ZOOMED, update);
  const observer = new ResizeObserver(update);
  if (element.parentElement) observer.observe(element.parentElement);
  observer.observe(document.body);
  return () => {
    window.removeEventListener("resize", update);
    window.removeEventListener(ZOOMED, update);
    observer.disconnect();
  };
}

/** The element's distance from the page's top, in pixels. */
const pageTop = (element: HTMLElement) => element.getBoundingClientRect().top + window.scrollY;

/** How much of the page above the element is panels marked ``data-scrolls-past`` (the
 * waiting room over a game under way), in pixels: the page scrolls past them to a table
 * of its usual size. */
function scrolledPast(element: HTMLElement): number {
  let past = 0;
  for (const panel of document.querySelectorAll<HTMLElement>("[data-scrolls-past]")) {
    if (!(panel.compareDocumentPosition(element) & Node.DOCUMENT_POSITION_FOLLOWING)) continue;
    const style = getComputedStyle(panel);
    past += panel.offsetHeight + parseFloat(style.marginTop) + parseFloat(style.marginBottom);
  }
  return past;
}

/** Sets the element's height to what is left of the window below its top edge (less
 * `bottomGap` pixels, at least `minimum`), not counting panels above it that the page
 * scrolls past (``data-scrolls-past``: under the waiting room over a game under way the
 * Triominos board was a 104 px strip on a phone). Inside a zoomed part of the page (the
 * big screen's) a height set in CSS pixels is drawn zoomed: it is divided by the zoom. */
export function useFillHeight(ref: RefObject<HTMLElement | null>, minimum: number, bottomGap: number) {
  // Coming from a scrolled page (the waiting room, say): start at the top. (Braces: newer
  // browsers' scrollTo returns a promise, which an effect must not return.)
  useEffect(() => {
    window.scrollTo(0, 0);
  }, []);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    return followPlace(element, () => {
      const zoom = element.currentCSSZoom || 1; // 0 or undefined: an older browser
      const top = pageTop(element) - scrolledPast(element);
      const height = Math.max(minimum, (window.innerHeight - top - bottomGap) / zoom);
      element.style.height = `${Math.floor(height)}px`;
    });
  }, [ref, minimum, bottomGap]);
}

/** Sets the CSS variable ``--top`` on the element to its distance from the page's top
 * (pixels), kept up to date as the window and the bars above it change: a table sized
 * to the window in CSS ("100vh - var(--top) - …") then fits below whatever stands above
 * it (the replay's controls, the turn clock, the "play again" bar). A panel above it
 * marked ``data-scrolls-past`` (the waiting room over a game under way) is not counted:
 * the page scrolls past it to a table of its usual size. */
export function useTopOffset(ref: RefObject<HTMLElement | null>) {
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    return followPlace(element, () => {
      const value = `${Math.round(Math.max(0, pageTop(element) - scrolledPast(element)))}px`;
      if (element.style.getPropertyValue("--top") !== value) element.style.setProperty("--top", value);
    });
  }, [ref]);
}
