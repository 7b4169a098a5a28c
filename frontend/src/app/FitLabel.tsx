// A button's label that gives way to a short one where it does not fit on one line: a
// hand card on a phone is 82 px wide, and "Escolhida ✓" is 93 px.
import { useLayoutEffect, useRef, useState } from "react";

interface Props {
  /** The label where it fits (the button's accessible name says it in full anyway). */
  full: string;
  /** The label otherwise, e.g. "✓". */
  short: string;
  /** The full label may take several lines, broken between its words: it gives way
   * only where one of its words is wider than the room (a card's owner under a card of
   * the big screen's one row, where "Computador" broke as "Computad" / "or"). */
  words?: boolean;
}

/** The width of the widest word of `span`'s text as laid out (a word broken over two
 * lines counted whole), in the window's pixels. */
function widestWord(span: HTMLElement): number {
  const text = span.firstChild;
  if (!text || text.nodeType !== Node.TEXT_NODE) return span.getBoundingClientRect().width;
  const range = document.createRange();
  let widest = 0;
  for (const word of (text.textContent ?? "").matchAll(/\S+/gu)) {
    range.setStart(text, word.index);
    range.setEnd(text, word.index + word[0].length);
    let width = 0;
    for (const box of range.getClientRects()) width += box.width;
    widest = Math.max(widest, width);
  }
  return widest;
}

/** Renders `full` inside a button or a badge (a child of it) unless its one line (with
 * `words`, its widest word) is wider than the room the button's container gives the
 * button; then `short`. Measured again whenever the container's size changes. */
export function FitLabel({ full, short, words = false }: Props) {
  const measure = useRef<HTMLSpanElement>(null);
  const [fits, setFits] = useState(true);
  useLayoutEffect(() => {
    const span = measure.current;
    const button = span?.parentElement;
    const container = button?.parentElement;
    if (!span || !button || !container) return;
    const check = () => {
      const outer = getComputedStyle(container);
      const own = getComputedStyle(button);
      const room =
        container.clientWidth -
        parseFloat(outer.paddingLeft) -
        parseFloat(outer.paddingRight) -
        parseFloat(own.paddingLeft) -
        parseFloat(own.paddingRight) -
        parseFloat(own.borderLeftWidth) -
        parseFloat(own.borderRightWidth);
      // (The window's pixels, as a box measures itself, are the label's own times the
      // zoom of a zoomed big screen.)
      const zoom = (span as HTMLElement & { currentCSSZoom?: number }).currentCSSZoom || 1;
      const width = words ? widestWord(span) : span.getBoundingClientRect().width;
      setFits(width / zoom <= room + 0.5);
    };
    check();
    const observer = new ResizeObserver(check);
    observer.observe(container);
    return () => observer.disconnect();
  }, [full, words]);
  return (
    <>
      <span ref={measure} className={fits ? "fit-label" : "fit-label measuring"} aria-hidden={fits ? undefined : true}>
        {full}
      </span>
      {!fits && <span className="fit-label-short">{short}</span>}
    </>
  );
}
