// A button's label that gives way to a short one where it does not fit on one line: a
// hand card on a phone is 82 px wide, and "Escolhida ✓" is 93 px.
import { useLayoutEffect, useRef, useState } from "react";

interface Props {
  /** The label where it fits (the button's accessible name says it in full anyway). */
  full: string;
  /** The label otherwise, e.g. "✓". */
  short: string;
}

/** Renders `full` inside a button or a badge (a child of it) unless its one line is wider than the
 * room the button's container gives the button; then `short`. Measured again whenever
 * the container's size changes. */
export function FitLabel({ full, short }: Props) {
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
      setFits(span.getBoundingClientRect().width / zoom <= room + 0.5);
    };
    check();
    const observer = new ResizeObserver(check);
    observer.observe(container);
    return () => observer.disconnect();
  }, [full]);
  return (
    <>
      <span ref={measure} className={fits ? "fit-label" : "fit-label measuring"} aria-hidden={fits ? undefined : true}>
        {full}
      </span>
      {!fits && <span className="fit-label-short">{short}</span>}
    </>
  );
}
