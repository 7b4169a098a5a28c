// Where the view of the table looks: it follows the layout until the player pans or
// zooms, brings new tiles and the selected tile's places into sight, and tells a tap
// from a drag.
import { useCallback, useEffect, useMemo, useRef, type MouseEvent, type PointerEvent } from "react";
import type { ReactZoomPanPinchContentRef } from "react-zoom-pan-pinch";
import { boxOf, type Box } from "./geometry";
import type { Position } from "./types";

/** Pixels per side at zoom 1. */
export const SIDE_PX = 64;
/** Movement (pixels) after which a press is a drag, not a tap. */
const DRAG = 6;
const GLIDE_MS = 280;
/** Fitting never makes a side shorter than this (pixels): a tile's numbers stay at least
 *  8.4 pixels high with a mouse and 10 with a finger (TileFace: 0.2 of a side); a larger
 *  layout is panned. */
const MIN_SIDE = { mouse: 42, finger: 50 };
/** …nor longer than this. */
const MAX_SIDE = 120;

function clamp(value: number, low: number, high: number) {
  return Math.min(high, Math.max(low, value));
}

/** The offset nearest ``offset`` at which the span ``low``…``high`` (pixels from the
 *  layout's origin) lies inside a view of ``size`` pixels with ``before`` and ``after``
 *  to spare; the span's middle in the view's middle when it is too long for that. */
function bringInto(offset: number, low: number, high: number, size: number, before: number, after = before) {
  if (high - low + before + after > size) return size / 2 - (low + high) / 2;
  if (low + offset < before) return before - low;
  if (high + offset > size - after) return size - after - high;
  return offset;
}

/** Pixels kept free above what the view brings into sight: the others' last move shows
 *  there for a few seconds (the toast). */
const TOAST_ROOM = 76;

const parsePositions = (keys: string) => keys.split(" ").map((key) => key.split(",").map(Number) as Position);

interface Options {
  /** The box to show: the tiles and the selected tile's places. */
  layout: Box;
  /** What must stay in sight after the player moved the view: "r,c r,c …" or "". */
  focus: string;
  round: number;
  narrow: boolean;
  /** Changes whenever a tile is pressed to be laid: ``focus`` comes into sight again. */
  lookAt?: number;
}

export function useViewport({ layout, focus, round, narrow, lookAt = 0 }: Options) {
  const zoom = useRef<ReactZoomPanPinchContentRef>(null);
  const frame = useRef<HTMLDivElement>(null);
  /** Keep the layout in view until the player moves the view themselves. */
  const follow = useRef(true);
  const pressed = useRef<{ x: number; y: number } | null>(null);

  /** Scale and move the view so that ``box`` fills it, within readable sizes. When the
   *  box is too large for the smallest readable size, the view stays as near its middle
   *  as it can while showing ``focusBox`` (the newest tile, or the places the selected
   *  tile fits); the rest is panned to. */
  const fit = useCallback(
    (box: Box, focusBox: Box | null, animate: boolean) => {
      const wrapper = frame.current;
      const controls = zoom.current;
      if (!wrapper || !controls) return;
      const { clientWidth: width, clientHeight: height } = wrapper;
      if (width === 0 || height === 0) return;
      const margin = 0.9;
      const whole = Math.min(width / (box.maxX - box.minX + 2 * margin), height / (box.maxY - box.minY + 2 * margin));
      const side = clamp(whole, narrow ? MIN_SIDE.finger : MIN_SIDE.mouse, Math.min(MAX_SIDE, width / 3.5));
      const scale = side / SIDE_PX;
      let x = width / 2 - ((box.minX + box.maxX) / 2) * side;
      let y = height / 2 - ((box.minY + box.maxY) / 2) * side;
      if (side > whole && focusBox) {
        x = bringInto(x, focusBox.minX * side, focusBox.maxX * side, width, margin * side);
        y = bringInto(y, focusBox.minY * side, focusBox.maxY * side, height, Math.max(margin * side, TOAST_ROOM), margin * side);
      }
      controls.setTransform(x, y, scale, animate ? GLIDE_MS : 0, "easeOut");
    },
    [narrow],
  );

  /** Move the view, keeping its zoom, so that ``box`` is in its middle. At once: a
   *  glide was undone about one time in two on a phone by the board's own alignment
   *  (the window below it changes height as a tile is chosen), leaving the places out of
   *  sight. */
  const centreOn = useCallback((box: Box) => {
    const wrapper = frame.current;
    const controls = zoom.current;
    if (!wrapper || !controls) return;
    const { scale } = controls.instance.state;
    const unit = SIDE_PX * scale;
    const x = wrapper.clientWidth / 2 - ((box.minX + box.maxX) / 2) * unit;
    const y = wrapper.clientHeight / 2 - ((box.minY + box.maxY) / 2) * unit;
    controls.setTransform(x, y, scale, 0);
  }, []);

  /** Whether ``box`` lies wholly inside what the view shows now. */
  const visible = useCallback((box: Box) => {
    const wrapper = frame.current;
    const controls = zoom.current;
    if (!wrapper || !controls) return false;
    const { positionX, positionY, scale } = controls.instance.state;
    const unit = SIDE_PX * scale;
    return (
      box.minX * unit + positionX >= 0 &&
      box.minY * unit + positionY >= 0 &&
      box.maxX * unit + positionX <= wrapper.clientWidth &&
      box.maxY * unit + positionY <= wrapper.clientHeight
    );
  }, []);

  // A new round: look at the new layout again.
  useEffect(() => {
    follow.current = true;
  }, [round]);

  // The layout grew, or the selected tile has places to go (or was pressed again): show
  // them. Once the player has moved the view it stays, unless the new tile or the places
  // are out of sight.
  const focusBox = useMemo(() => (focus ? boxOf(parsePositions(focus)) : null), [focus]);
  useEffect(() => {
    if (follow.current) fit(layout, focusBox, true);
    else if (focusBox && !visible(focusBox)) centreOn(focusBox);
  }, [layout, focusBox, lookAt, fit, visible, centreOn]);

  // The window changed size (a phone turned round…).
  useEffect(() => {
    const wrapper = frame.current;
    if (!wrapper) return;
    const observer = new ResizeObserver(() => {
      if (follow.current) fit(layout, focusBox, false);
    });
    observer.observe(wrapper);
    return () => observer.disconnect();
  }, [fit, layout, focusBox]);

  const userMoved = useCallback(() => {
    follow.current = false;
  }, []);

  return {
    zoom,
    frame,
    onInit: () => fit(layout, focusBox, false),
    userMoved,
    recentre: () => {
      follow.current = true;
      fit(layout, focusBox, true);
    },
    zoomBy: (direction: 1 | -1) => {
      userMoved();
      if (direction > 0) void zoom.current?.zoomIn(0.3);
      else void zoom.current?.zoomOut(0.3);
    },
    /** On the board's frame: a drag that ends on a target is not a tap on it. */
    tapGuard: {
      onPointerDownCapture: (event: PointerEvent) => {
        pressed.current = { x: event.clientX, y: event.clientY };
      },
      onClickCapture: (event: MouseEvent) => {
        const start = pressed.current;
        if (start && Math.hypot(event.clientX - start.x, event.clientY - start.y) > DRAG) {
          event.stopPropagation();
          event.preventDefault();
        }
      },
    },
  };
}
