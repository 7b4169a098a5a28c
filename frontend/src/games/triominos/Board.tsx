// The table: laid tiles on the triangular lattice, the places the selected tile fits,
// a preview of the tile being placed; pan and zoom with mouse, wheel and fingers.
import { useCallback, useEffect, useMemo, useRef, type KeyboardEvent, type PointerEvent, type MouseEvent } from "react";
import { useTranslation } from "react-i18next";
import { TransformComponent, TransformWrapper, type ReactZoomPanPinchContentRef } from "react-zoom-pan-pinch";
import { BoardGrid } from "./BoardGrid";
import { boxOf, centroid, cornerNumbers, cornerPoints, grow, keyOf, svgPoints, towardsCentre, type Box } from "./geometry";
import type { Target } from "./placing";
import { TileFace } from "./TileFace";
import { seatColour, seatTint, type Bonus, type PlaceAction, type TriominosView } from "./types";

/** Pixels per side at zoom 1; the view then scales between about 30 and 150 pixels. */
const SIDE_PX = 64;
const MIN_SCALE = 0.25;
const MAX_SCALE = 4;
/** Movement (pixels) after which a press is a drag, not a tap. */
const DRAG = 6;

export interface BoardProps {
  view: TriominosView;
  targets: Map<string, Target>;
  /** The placement being previewed, waiting for the player to confirm its rotation. */
  preview: PlaceAction | null;
  previewSeat: number | null;
  narrow: boolean;
  bonusLabel: (bonus: Bonus) => string;
  onTarget: (target: Target) => void;
}

function clamp(value: number, low: number, high: number) {
  return Math.min(high, Math.max(low, value));
}

export function Board({ view, targets, preview, previewSeat, narrow, bonusLabel, onTarget }: BoardProps) {
  const { t } = useTranslation();
  const zoom = useRef<ReactZoomPanPinchContentRef>(null);
  const frame = useRef<HTMLDivElement>(null);
  /** Keep the layout in view until the player moves the view themselves. */
  const follow = useRef(true);
  const pressed = useRef<{ x: number; y: number } | null>(null);

  const box = boxOf([...view.board.map((b) => b.position), ...view.open.map((o) => o.position), ...[...targets.values()].map((x) => x.position)]);
  const boxKey = `${box.minX} ${box.minY} ${box.maxX} ${box.maxY}`;
  // One object per distinct box, so that effects run only when the box really changes.
  const layoutBox = useMemo((): Box => {
    const [minX, minY, maxX, maxY] = boxKey.split(" ").map(Number);
    return { minX, minY, maxX, maxY };
  }, [boxKey]);
  const drawBox = useMemo(() => grow(layoutBox, 6), [layoutBox]);

  /** Scale and move the view so that ``box`` fills it, within readable sizes. */
  const fit = useCallback(
    (box: Box, animate: boolean) => {
      const wrapper = frame.current;
      const controls = zoom.current;
      if (!wrapper || !controls) return;
      const width = wrapper.clientWidth;
      const height = wrapper.clientHeight;
      if (width === 0 || height === 0) return;
      const margin = 0.7;
      const side = clamp(
        Math.min(width / (box.maxX - box.minX + 2 * margin), height / (box.maxY - box.minY + 2 * margin)),
        narrow ? 42 : 32,
        Math.min(150, width / 3.5),
      );
      const scale = side / SIDE_PX;
      const cx = (box.minX + box.maxX) / 2;
      const cy = (box.minY + box.maxY) / 2;
      controls.setTransform(width / 2 - cx * SIDE_PX * scale, height / 2 - cy * SIDE_PX * scale, scale, animate ? 280 : 0, "easeOut");
    },
    [narrow],
  );

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
  }, [view.round]);

  // The layout grew, or the selected tile has places to go: keep them in view.
  useEffect(() => {
    if (follow.current || !visible(layoutBox)) fit(layoutBox, true);
  }, [layoutBox, fit, visible]);

  // The window changed size (a phone turned round…).
  useEffect(() => {
    const wrapper = frame.current;
    if (!wrapper) return;
    const observer = new ResizeObserver(() => {
      if (follow.current) fit(layoutBox, false);
    });
    observer.observe(wrapper);
    return () => observer.disconnect();
  }, [fit, layoutBox]);

  const recentre = () => {
    follow.current = true;
    fit(layoutBox, true);
  };
  const userMoved = () => {
    follow.current = false;
  };
  const zoomBy = (direction: 1 | -1) => {
    userMoved();
    if (direction > 0) void zoom.current?.zoomIn(0.3);
    else void zoom.current?.zoomOut(0.3);
  };

  // A drag that ends on a target is not a tap on it.
  const onPointerDown = (event: PointerEvent) => {
    pressed.current = { x: event.clientX, y: event.clientY };
  };
  const onClickCapture = (event: MouseEvent) => {
    const start = pressed.current;
    if (start && Math.hypot(event.clientX - start.x, event.clientY - start.y) > DRAG) {
      event.stopPropagation();
      event.preventDefault();
    }
  };

  const width = drawBox.maxX - drawBox.minX;
  const height = drawBox.maxY - drawBox.minY;
  const last = view.last ? keyOf(view.last) : null;
  const laid = new Set(view.board.map((b) => keyOf(b.position)));
  const previewKey = preview ? keyOf(preview.position) : null;

  return (
    <div className="tr-board" ref={frame} onPointerDownCapture={onPointerDown} onClickCapture={onClickCapture}>
      <TransformWrapper
        ref={zoom}
        minScale={MIN_SCALE}
        maxScale={MAX_SCALE}
        limitToBounds={false}
        doubleClick={{ disabled: true }}
        wheel={{ step: 0.12 }}
        onInit={() => fit(layoutBox, false)}
        onPanning={userMoved}
        onWheel={userMoved}
        onPinch={userMoved}
      >
        <TransformComponent
          wrapperClass="tr-board-viewport"
          contentClass="tr-board-content"
          wrapperStyle={{ width: "100%", height: "100%" }}
          contentStyle={{ width: 1, height: 1, position: "relative", display: "block" }}
        >
          <svg
            className="tr-board-svg"
            viewBox={`${drawBox.minX} ${drawBox.minY} ${width} ${height}`}
            style={{ left: drawBox.minX * SIDE_PX, top: drawBox.minY * SIDE_PX, width: width * SIDE_PX, height: height * SIDE_PX }}
            role="img"
            aria-label={t("triominos.ui.board", { count: view.board.length })}
          >
            <BoardGrid box={drawBox} centre={layoutBox} />
            {view.open.map((open) => {
              const key = keyOf(open.position);
              if (targets.has(key)) return null;
              const corners = towardsCentre(cornerPoints(open.position), 0.1);
              const c = centroid(corners);
              return (
                <g key={key} className={`tr-open ${open.fillable ? "" : "dead"}`} data-open={key}>
                  <polygon points={svgPoints(corners)} />
                  {open.bonus && open.fillable && (
                    <text className="tr-open-bonus" x={c.x} y={c.y} fontSize={0.13} textAnchor="middle" dominantBaseline="central">
                      ★
                    </text>
                  )}
                </g>
              );
            })}
            {view.board.map((tile) => {
              const key = keyOf(tile.position);
              const corners = cornerPoints(tile.position);
              const c = centroid(corners);
              return (
                <g
                  key={key}
                  className={`tr-tile ${key === last ? "last" : ""}`}
                  data-position={key}
                  data-tile={tile.tile}
                  data-seat={tile.seat}
                  data-bonus={tile.bonus ?? undefined}
                  data-last={key === last ? "true" : undefined}
                >
                  <title>{`${tile.tile}${tile.bonus ? ` · ${t(`triominos.reasons.${tile.bonus}`)}` : ""}`}</title>
                  <TileFace corners={corners} numbers={tile.corners} side={1} fill={seatTint(tile.seat)} stroke={seatColour(tile.seat)} />
                  {key === last && <polygon className="tr-last-ring" points={svgPoints(towardsCentre(corners, 0.05))} />}
                  {tile.bonus && (
                    <text className="tr-bonus-mark" x={c.x} y={c.y} fontSize={0.16} textAnchor="middle" dominantBaseline="central">
                      ★
                    </text>
                  )}
                </g>
              );
            })}
            {[...targets.values()].map((target) => {
              if (laid.has(target.key)) return null;
              const corners = towardsCentre(cornerPoints(target.position), 0.07);
              const c = centroid(corners);
              const chosen = target.key === previewKey;
              const activate = () => onTarget(target);
              const label = target.bonus ? bonusLabel(target.bonus) : null;
              return (
                <g
                  key={target.key}
                  className={`tr-target ${chosen ? "chosen" : ""} ${target.bonus ? "bonus" : ""}`}
                  data-target={target.key}
                  data-rotations={target.actions.length}
                  data-bonus={target.bonus ?? undefined}
                  role="button"
                  tabIndex={0}
                  aria-label={t("triominos.ui.place_here", { position: target.key }) + (label ? ` (${label})` : "")}
                  onClick={activate}
                  onKeyDown={(event: KeyboardEvent) => {
                    if (event.key === "Enter" || event.key === " ") {
                      event.preventDefault();
                      activate();
                    }
                  }}
                >
                  <polygon points={svgPoints(corners)} />
                  {label && !chosen && (
                    <text className="tr-target-bonus" x={c.x} y={c.y} fontSize={0.12} textAnchor="middle" dominantBaseline="central">
                      {label}
                    </text>
                  )}
                </g>
              );
            })}
            {preview && (
              <g className="tr-preview" data-preview={keyOf(preview.position)} data-rotation={preview.rotation} pointerEvents="none">
                <TileFace
                  corners={cornerPoints(preview.position)}
                  numbers={cornerNumbers(preview.tile, preview.rotation)}
                  side={1}
                  fill={previewSeat !== null ? seatTint(previewSeat) : "#fff"}
                  stroke={previewSeat !== null ? seatColour(previewSeat) : "#999"}
                />
              </g>
            )}
          </svg>
        </TransformComponent>
      </TransformWrapper>
      <div className="tr-zoom" role="group" aria-label={t("triominos.ui.view_controls")}>
        <button type="button" onClick={() => zoomBy(1)} aria-label={t("triominos.ui.zoom_in")} title={t("triominos.ui.zoom_in")}>
          +
        </button>
        <button type="button" onClick={() => zoomBy(-1)} aria-label={t("triominos.ui.zoom_out")} title={t("triominos.ui.zoom_out")}>
          −
        </button>
        <button type="button" className="tr-recentre" onClick={recentre} aria-label={t("triominos.ui.recentre")} title={t("triominos.ui.recentre")}>
          ⌖
        </button>
      </div>
    </div>
  );
}
