// The largest card width at which `count` cards (2:3, each with `extra` pixels of
// buttons or labels under it) fit the element, less `reserve` pixels of its height
// taken by what stands above them, without scrolling; on a phone, a readable width in
// as many columns as fit, and the area scrolls.
import { useEffect, useState, type RefObject } from "react";

interface Fit {
  width: number;
  columns: number;
  /** Whether the cards fit whole at ``min`` or wider (false: kept at ``min``, scrolling). */
  fits?: boolean;
  /** The element's inner width in pixels (what the cards' columns may take). */
  area?: number;
}

/** Pixels between two cards' columns (the slots' grid gap). */
export const GAP = 12;

/** `fewest`: the fewest columns to try (the big screen's many cards in one row). */
export function bestFit(areaWidth: number, areaHeight: number, count: number, extra: number, min: number, max: number, fewest = 1): Fit {
  let best: Fit = { width: min, columns: Math.max(1, Math.floor((areaWidth + GAP) / (min + GAP))) };
  let bestWidth = 0;
  for (let columns = Math.max(1, Math.min(fewest, count)); columns <= Math.max(1, count); columns++) {
    const rows = Math.ceil(count / columns);
    const byWidth = (areaWidth - (columns - 1) * GAP) / columns;
    const byHeight = ((areaHeight - (rows - 1) * GAP) / rows - extra) / 1.5;
    const width = Math.min(byWidth, byHeight, max);
    if (width > bestWidth) {
      bestWidth = width;
      best = { width, columns };
    }
  }
  if (bestWidth < min) return { width: min, columns: Math.max(1, Math.floor((areaWidth + GAP) / (min + GAP))), fits: false };
  return { width: Math.floor(best.width), columns: best.columns, fits: true };
}

export function useCardFit(
  ref: RefObject<HTMLElement | null>,
  count: number,
  extra: number,
  min: number,
  max: number,
  scrolls: boolean,
  reserve = 0,
  fewest = 1,
): Fit {
  const [fit, setFit] = useState<Fit>({ width: min, columns: Math.max(1, Math.min(count, 4)) });
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const update = () => {
      const style = getComputedStyle(element);
      const width = element.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      const height = element.clientHeight - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom) - reserve;
      const next = scrolls
        ? bestFit(width, Number.POSITIVE_INFINITY, count, extra, min, max)
        : bestFit(width, height, count, extra, min, max, fewest);
      if (scrolls) {
        // Keep at least a readable width; use the room across for as many as fit.
        const columns = Math.max(1, Math.min(count, Math.floor((width + GAP) / (min + GAP))));
        next.columns = columns;
        next.width = Math.floor(Math.min(max, (width - (columns - 1) * GAP) / columns));
      }
      next.area = Math.floor(width);
      setFit((old) =>
        old.width === next.width && old.columns === next.columns && old.area === next.area && old.fits === next.fits ? old : next,
      );
    };
    update();
    const observer = new ResizeObserver(update);
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref, count, extra, min, max, scrolls, reserve, fewest]);
  return fit;
}
