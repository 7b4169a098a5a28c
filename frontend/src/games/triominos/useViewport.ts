// Where the view of the table looks: it follows the layout until the player pans or
// zooms, brings new tiles and the selected tile's places into sight, and tells a tap
// from a drag.
import { useCallback, useEffect, useMemo, useRef, useState, type MouseEvent, type PointerEvent } from "react";
import type { ReactZoomPanPinchContentRef } from "react-zoom-pan-pinch";
import { boxOf, centroid, cornerPoints, keyOf, type Box } from "./geometry";
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

/** The one of ``positions`` whose middle is nearest the point (``x``, ``y``), in side
 *  lengths. */
function nearest(positions: readonly Position[], x: number, y: number): Position {
  let best = positions[0];
  let distance = Infinity;
  for (const position of positions) {
    const middle = centroid(cornerPoints(position));
    const d = Math.hypot(middle.x - x, middle.y - y);
    if (d < distance) [best, distance] = [position, d];
  }
  return best;
}

/** Arrows pointing from the view's middle to a place out of sight, by eighths of a turn
 *  from "right", clockwise (rows grow downwards). */
const ARROWS = ["→", "↘", "↓", "↙", "←", "↖", "↑", "↗"];

/** The places the selected tile fits that lie out of sight, and which way the nearest is. */
export interface OutOfSight {
  count: number;
  arrow: string;
}

interface Options {
  /** The box to show: the tiles and the selected tile's places. */
  layout: Box;
  /** What must stay in sight after the player moved the view: "r,c r,c …" or "". */
  focus: string;
  round: number;
  narrow: boolean;
  /** Changes whenever a tile is pressed to be laid: ``focus`` comes into sight again. */
  lookAt?: number;
  /** The places the selected tile fits, "r,c r,c …", or "": those out of sight are
   *  counted (``outOfSight``). */
  places?: string;
}

export function useViewport({ layout, focus, round, narrow, lookAt = 0, places = "" }: Options) {
  const zoom = useRef<ReactZoomPanPinchContentRef>(null);
  const frame = useRef<HTMLDivElement>(null);
  /** Keep the layout in view until the player moves the view themselves. */
  const follow = useRef(true);
  const pressed = useRef<{ x: number; y: number } | null>(null);
  const placeList = useMemo(() => (places ? parsePositions(places) : []), [places]);

  /** Whether ``box`` fits wholly inside the frame at ``side`` pixels a side (a few
   *  pixels to spare; not always the room fit() likes to keep around it). */
  const fitsFrame = useCallback((box: Box, side: number) => {
    const wrapper = frame.current;
    if (!wrapper) return true;
    const spare = 8;
    return (
      (box.maxX - box.minX) * side + 2 * spare <= wrapper.clientWidth &&
      (box.maxY - box.minY) * side + 2 * spare <= wrapper.clientHeight
    );
  }, []);

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
        // Places too far apart to be seen at once (a phone held sideways: a strip of
        // about 175 px): the one nearest the view's middle comes wholly into sight, and
        // a button tells how many more lie out of it (OutOfSight). Brought in as one box
        // they stayed half cut by the strip's edges.
        // (The button stands in the rack's bar, not over the board.)
        let shown = focusBox;
        if (placeList.length > 1 && !fitsFrame(focusBox, side)) {
          shown = boxOf([nearest(placeList, (width / 2 - x) / side, (height / 2 - y) / side)]);
        }
        x = bringInto(x, shown.minX * side, shown.maxX * side, width, margin * side);
        y = bringInto(y, shown.minY * side, shown.maxY * side, height, Math.max(margin * side, TOAST_ROOM), margin * side);
      }
      controls.setTransform(x, y, scale, animate ? GLIDE_MS : 0, "easeOut");
    },
    [narrow, placeList, fitsFrame],
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

  /** The view's middle, in side lengths, and the size of a side now (pixels). */
  const middle = useCallback(() => {
    const wrapper = frame.current;
    const controls = zoom.current;
    if (!wrapper || !controls) return null;
    const { positionX, positionY, scale } = controls.instance.state;
    const unit = SIDE_PX * scale;
    return { x: (wrapper.clientWidth / 2 - positionX) / unit, y: (wrapper.clientHeight / 2 - positionY) / unit, unit };
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
    else if (focusBox && !visible(focusBox)) {
      const now = middle();
      if (!now || placeList.length < 2 || fitsFrame(focusBox, now.unit)) centreOn(focusBox);
      // Too far apart for the view: one of the places in sight will do, else the one
      // nearest the view's middle.
      else if (!placeList.some((place) => visible(boxOf([place])))) centreOn(boxOf([nearest(placeList, now.x, now.y)]));
    }
  }, [layout, focusBox, lookAt, fit, visible, centreOn, middle, placeList, fitsFrame]);

  // The places out of sight, counted whenever the view moves or changes size.
  const [outOfSight, setOutOfSight] = useState<OutOfSight | null>(null);
  const count = useCallback(() => {
    const now = middle();
    const hidden = placeList.filter((place) => !visible(boxOf([place])));
    let next: OutOfSight | null = null;
    if (now && hidden.length) {
      const target = centroid(cornerPoints(nearest(hidden, now.x, now.y)));
      const eighth = Math.round(Math.atan2(target.y - now.y, target.x - now.x) / (Math.PI / 4));
      next = { count: hidden.length, arrow: ARROWS[(eighth + 8) % 8] };
    }
    setOutOfSight((shown) => (shown?.count === next?.count && shown?.arrow === next?.arrow ? shown : next));
  }, [middle, placeList, visible]);
  useEffect(() => {
    count();
    const wrapper = frame.current;
    if (!wrapper) return;
    const observer = new ResizeObserver(count);
    observer.observe(wrapper);
    return () => observer.disconnect();
  }, [count]);

  /** Brings the nearest place out of sight wholly into sight, moving the view as little
   *  as it can; each in turn, the places already shown this way last. */
  const shownPlaces = useRef(new Set<string>());
  useEffect(() => {
    shownPlaces.current = new Set();
  }, [places]);
  const showNext = useCallback(() => {
    const wrapper = frame.current;
    const controls = zoom.current;
    const now = middle();
    if (!wrapper || !controls || !now) return;
    const hidden = placeList.filter((place) => !visible(boxOf([place])));
    if (!hidden.length) return;
    let fresh = hidden.filter((place) => !shownPlaces.current.has(keyOf(place)));
    if (!fresh.length) {
      shownPlaces.current = new Set();
      fresh = hidden;
    }
    const place = nearest(fresh, now.x, now.y);
    shownPlaces.current.add(keyOf(place));
    follow.current = false;
    const box = boxOf([place]);
    const { positionX, positionY, scale } = controls.instance.state;
    const margin = 0.9 * now.unit;
    const x = bringInto(positionX, box.minX * now.unit, box.maxX * now.unit, wrapper.clientWidth, margin);
    const y = bringInto(positionY, box.minY * now.unit, box.maxY * now.unit, wrapper.clientHeight, margin);
    controls.setTransform(x, y, scale, 0);
  }, [middle, placeList, visible]);

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
    /** For the TransformWrapper's onTransform: the view moved. */
    onTransform: count,
    outOfSight,
    showNext,
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
