// The table: laid tiles on the triangular lattice, the places the selected tile fits,
// a preview of the tile being placed; pan and zoom with mouse, wheel and fingers.
import { useMemo } from "react";
import { createPortal } from "react-dom";
import { useTranslation } from "react-i18next";
import { TransformComponent, TransformWrapper } from "react-zoom-pan-pinch";
import { useScreenMode } from "../../app/replay";
import { BoardGrid } from "./BoardGrid";
import { LaidTiles, OpenPositions, Origin, Preview, Targets } from "./BoardLayers";
import { boxOf, grow, keyOf, type Box } from "./geometry";
import type { Target } from "./placing";
import type { Bonus, PlaceAction, TriominosView } from "./types";
import { SIDE_PX, useViewport } from "./useViewport";

const MIN_SCALE = 0.25;
const MAX_SCALE = 4;

export interface BoardProps {
  view: TriominosView;
  targets: Map<string, Target>;
  /** The placement being previewed, waiting for the player to confirm its rotation. */
  preview: PlaceAction | null;
  previewSeat: number | null;
  narrow: boolean;
  bonusLabel: (bonus: Bonus) => string;
  /** A bonus's points as shown: "+40". */
  bonusPoints: (bonus: Bonus) => string;
  onTarget: (target: Target) => void;
  /** A seat's name, to say who laid each tile. */
  player: (seat: number) => string;
  /** Changes whenever a tile is pressed to be laid: its places come into sight. */
  lookAt?: number;
  /** Where the button that counts the places out of sight goes: a box in the rack's bar,
   * outside the board's drawing area (over the board it covered tiles and places). */
  placesSlot?: HTMLElement | null;
}

export function Board({ view, targets, preview, previewSeat, narrow, bonusLabel, bonusPoints, onTarget, player, lookAt = 0, placesSlot = null }: BoardProps) {
  const { t } = useTranslation();
  const onScreen = useScreenMode();
  const free = useMemo(() => {
    const laid = new Set(view.board.map((b) => keyOf(b.position)));
    return new Map([...targets].filter(([key]) => !laid.has(key)));
  }, [view.board, targets]);

  // The tiles and the places the selected tile can go (the ring of open positions
  // around the tiles shows in the margin). One object per distinct box, so that the
  // view moves only when the box really changes.
  const box = boxOf([...view.board.map((b) => b.position), ...[...free.values()].map((x) => x.position)]);
  const boxKey = `${box.minX} ${box.minY} ${box.maxX} ${box.maxY}`;
  const layout = useMemo((): Box => {
    const [minX, minY, maxX, maxY] = boxKey.split(" ").map(Number);
    return { minX, minY, maxX, maxY };
  }, [boxKey]);
  const drawn = useMemo(() => grow(layout, 6), [layout]);
  const focus = free.size ? [...free.keys()].join(" ") : view.last ? keyOf(view.last) : "";
  const places = free.size ? focus : "";
  const viewport = useViewport({ layout, focus, round: view.round, narrow, lookAt, places });

  const width = drawn.maxX - drawn.minX;
  const height = drawn.maxY - drawn.minY;
  // The selected tile's places too far apart to be seen at once: how many more lie out
  // of sight, and which way; pressed, it brings the nearest into sight (as the hand's
  // "3 more tiles fit ›" does its tiles). In the rack's bar, beside Draw and Pass: at
  // the board's foot it covered the tiles and places there.
  const morePlaces = viewport.outOfSight && (
    <button type="button" className="tr-more-places" data-action="more-places" onClick={viewport.showNext}>
      {t("triominos.ui.more_places", { count: viewport.outOfSight.count })}{" "}
      <span aria-hidden="true">{viewport.outOfSight.arrow}</span>
    </button>
  );
  return (
    <div className="tr-board" ref={viewport.frame} {...viewport.tapGuard}>
      <TransformWrapper
        ref={viewport.zoom}
        minScale={MIN_SCALE}
        maxScale={MAX_SCALE}
        limitToBounds={false}
        doubleClick={{ disabled: true }}
        wheel={{ step: 0.004 }}
        autoAlignment={{ disabled: true }}
        onInit={viewport.onInit}
        onPanning={viewport.userMoved}
        onWheel={viewport.userMoved}
        onPinch={viewport.userMoved}
        onTransform={viewport.onTransform}
      >
        <TransformComponent
          wrapperClass="tr-board-viewport"
          contentClass="tr-board-content"
          wrapperStyle={{ width: "100%", height: "100%", overflow: "clip" }}
          contentStyle={{ width: 1, height: 1, position: "relative", display: "block" }}
        >
          {/* Drawn in side lengths: the lattice's own coordinates (geometry.ts). */}
          <svg
            className="tr-board-svg"
            viewBox={`${drawn.minX} ${drawn.minY} ${width} ${height}`}
            style={{ left: drawn.minX * SIDE_PX, top: drawn.minY * SIDE_PX, width: width * SIDE_PX, height: height * SIDE_PX }}
            role="group"
            aria-label={t("triominos.ui.board", { count: view.board.length })}
          >
            <BoardGrid box={drawn} centre={layout} />
            {/* Once the game is over no tile goes anywhere: no open places, no bonus hints. */}
            {!view.finished && <OpenPositions open={view.open} hidden={free} bonusPoints={bonusPoints} />}
            {view.board.length === 0 && free.size === 0 && <Origin />}
            <LaidTiles board={view.board} last={view.last ? keyOf(view.last) : null} player={player} />
            <Targets
              targets={free}
              board={view.board}
              chosen={preview ? keyOf(preview.position) : null}
              bonusLabel={bonusLabel}
              bonusPoints={bonusPoints}
              onTarget={onTarget}
            />
            {preview && <Preview action={preview} seat={previewSeat} />}
          </svg>
        </TransformComponent>
      </TransformWrapper>
      {/* The big screen is never touched: no buttons on it. */}
      {!onScreen && <ViewControls onZoom={viewport.zoomBy} onRecentre={viewport.recentre} />}
      {/* (Without a rack's bar, which a tile to lay comes from, over the board's foot.) */}
      {morePlaces && (placesSlot ? createPortal(morePlaces, placesSlot) : morePlaces)}
    </div>
  );
}

function ViewControls({ onZoom, onRecentre }: { onZoom: (direction: 1 | -1) => void; onRecentre: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="tr-zoom" role="group" aria-label={t("triominos.ui.view_controls")}>
      <button type="button" onClick={() => onZoom(1)} aria-label={t("triominos.ui.zoom_in")} title={t("triominos.ui.zoom_in")}>
        +
      </button>
      <button type="button" onClick={() => onZoom(-1)} aria-label={t("triominos.ui.zoom_out")} title={t("triominos.ui.zoom_out")}>
        −
      </button>
      <button type="button" className="tr-recentre" onClick={onRecentre} aria-label={t("triominos.ui.recentre")} title={t("triominos.ui.recentre")}>
        <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
          <circle cx="12" cy="12" r="6.5" fill="none" stroke="currentColor" strokeWidth="2" />
          <circle cx="12" cy="12" r="2" fill="currentColor" />
          <path d="M12 1.5v4M12 18.5v4M1.5 12h4M18.5 12h4" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
        </svg>
      </button>
    </div>
  );
}
