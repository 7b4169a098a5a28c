// What the board draws, bottom to top: open positions, laid tiles, the places the
// selected tile fits, and the tile being placed.
import { useState, type KeyboardEvent } from "react";
import type { TFunction } from "i18next";
import { useTranslation } from "react-i18next";
import { andList } from "../../app/i18n";
import { centroid, cornerNumbers, cornerPoints, keyOf, pointsUp, svgPoints, towardsCentre } from "./geometry";
import type { Target } from "./placing";
import { TileFace } from "./TileFace";
import { seatColour, seatTint, type Bonus, type LaidTile, type OpenPosition, type PlaceAction } from "./types";

/** Empty positions next to the layout; a bonus shows as its points, dead ones darker. */
export function OpenPositions({ open, hidden, bonusPoints }: { open: OpenPosition[]; hidden: Map<string, Target>; bonusPoints: (bonus: Bonus) => string }) {
  return (
    <>
      {open.map((o) => {
        const key = keyOf(o.position);
        if (hidden.has(key)) return null;
        const corners = towardsCentre(cornerPoints(o.position), 0.1);
        const c = centroid(corners);
        return (
          <g key={key} className={`tr-open ${o.fillable ? "" : "dead"}`} data-open={key} aria-hidden="true">
            <polygon points={svgPoints(corners)} />
            {o.bonus && o.fillable && (
              <text className="tr-open-bonus" x={c.x} y={c.y} fontSize={0.13} textAnchor="middle" dominantBaseline="central">
                {bonusPoints(o.bonus)}
              </text>
            )}
          </g>
        );
      })}
    </>
  );
}

/** The middle of the table, where a round's first tile goes. */
export function Origin() {
  return <polygon className="tr-origin" points={svgPoints(towardsCentre(cornerPoints([0, 0]), 0.06))} />;
}

/** The laid tiles in their seats' colours; the latest ringed, bonus tiles starred. */
/** Each is read by a screen reader as one picture, "3-4-4, laid by Anna" (its corner
 * numbers, read one by one, said nothing of whose it was: only its colour did). */
export function LaidTiles({ board, last, player }: { board: LaidTile[]; last: string | null; player: (seat: number) => string }) {
  const { t } = useTranslation();
  return (
    <>
      {board.map((tile) => {
        const key = keyOf(tile.position);
        const corners = cornerPoints(tile.position);
        const c = centroid(corners);
        const isLast = key === last;
        return (
          <g
            key={key}
            className={`tr-tile ${isLast ? "last" : ""}`}
            data-position={key}
            data-tile={tile.tile}
            data-seat={tile.seat}
            data-bonus={tile.bonus ?? undefined}
            data-last={isLast ? "true" : undefined}
            role="img"
            aria-label={`${t("triominos.ui.tile_laid_by", { tile: tile.tile, player: player(tile.seat) })}${tile.bonus ? ` (${t(`triominos.reasons.${tile.bonus}`)})` : ""}`}
          >
            <title>{`${tile.tile}${tile.bonus ? ` · ${t(`triominos.reasons.${tile.bonus}`)}` : ""}`}</title>
            <TileFace corners={corners} numbers={tile.corners} side={1} fill={seatTint(tile.seat)} stroke={seatColour(tile.seat)} />
            {isLast && <polygon className="tr-last-ring" points={svgPoints(towardsCentre(corners, 0.05))} />}
            {tile.bonus && (
              <text className="tr-bonus-mark" x={c.x} y={c.y} fontSize={0.16} textAnchor="middle" dominantBaseline="central">
                ★
              </text>
            )}
          </g>
        );
      })}
    </>
  );
}

/** The sides of a laid tile at ``[row, col]`` a place may touch, as seen on the table
 * (see geometry.ts): left and right of any tile, below an upward triangle, above a
 * downward one. */
type Side = "left" | "right" | "above" | "below";

function sides([row, col]: readonly number[]): [Side, [number, number]][] {
  const third: [Side, [number, number]] = pointsUp([row, col]) ? ["below", [row + 1, col]] : ["above", [row - 1, col]];
  return [["left", [row, col - 1]], ["right", [row, col + 1]], third];
}

/** Where a place is, in words a screen reader says: on which side of the laid tiles it
 * touches it lies ("left of 3-4-5 and below 0-1-2"; a lone tile's three places read
 * apart), or the middle of the table for a round's first tile. */
function placeWords(t: TFunction, language: string, position: readonly number[], laid: Map<string, LaidTile>): string {
  const at = keyOf(position);
  const touching = sides(position).flatMap(([, next]) => {
    const tile = laid.get(keyOf(next));
    const side = tile && sides(next).find(([, back]) => keyOf(back) === at)?.[0];
    return tile && side ? [t(`triominos.ui.side_${side}`, { tile: tile.tile })] : [];
  });
  if (touching.length === 0) return t("triominos.ui.place_first");
  return t("triominos.ui.place_beside", { places: andList(touching, language) });
}

interface TargetsProps {
  targets: Map<string, Target>;
  /** The laid tiles, to say where each place is. */
  board: LaidTile[];
  chosen: string | null;
  bonusLabel: (bonus: Bonus) => string;
  bonusPoints: (bonus: Bonus) => string;
  onTarget: (target: Target) => void;
}

/** Arrow keys as a step on the screen (x right, y down, as the drawing's own axes). */
const ARROW_STEPS: Record<string, readonly [number, number]> = {
  ArrowRight: [1, 0],
  ArrowLeft: [-1, 0],
  ArrowDown: [0, 1],
  ArrowUp: [0, -1],
};

/** The place nearest `from` in the direction of `step`, weighing a sideways offset
 * twice as much as distance ahead; `undefined` where no place lies that way. */
function nearestPlace(
  from: { x: number; y: number },
  step: readonly [number, number],
  places: readonly { key: string; x: number; y: number }[],
): string | undefined {
  let best: string | undefined;
  let bestCost = Infinity;
  for (const place of places) {
    const ahead = (place.x - from.x) * step[0] + (place.y - from.y) * step[1];
    if (ahead <= 0.05) continue;
    const aside = Math.abs((place.x - from.x) * step[1] - (place.y - from.y) * step[0]);
    const cost = ahead + 2 * aside;
    if (cost < bestCost) {
      bestCost = cost;
      best = place.key;
    }
  }
  return best;
}

/** The glowing places the selected tile fits, each with the bonus it would earn. They
 * are one stop of the Tab key (the place being decided, else the last one visited, else
 * the first); the arrow keys move between them on the table, Home and End to the first
 * and last (every place a Tab stop of its own put the rack and the zoom a long way on). */
export function Targets({ targets, board, chosen, bonusLabel, bonusPoints, onTarget }: TargetsProps) {
  const { t, i18n } = useTranslation();
  const [visited, setVisited] = useState<string | null>(null);
  const laid = new Map(board.map((tile) => [keyOf(tile.position), tile]));
  const places = [...targets.values()].map((target) => ({
    target,
    corners: towardsCentre(cornerPoints(target.position), 0.07),
  }));
  const centres = places.map(({ target, corners }) => ({ key: target.key, ...centroid(corners) }));
  const stop =
    chosen && targets.has(chosen) ? chosen : visited && targets.has(visited) ? visited : centres[0]?.key;
  const focusPlace = (from: Element, key: string | undefined) => {
    if (key === undefined) return;
    const group = from.closest("svg")?.querySelector<SVGGElement>(`g.tr-target[data-target="${key}"]`);
    group?.focus();
  };
  return (
    <>
      {places.map(({ target, corners }, index) => {
        const c = centroid(corners);
        const isChosen = target.key === chosen;
        const label = target.bonus ? ` (${bonusLabel(target.bonus)})` : "";
        const activate = () => onTarget(target);
        return (
          <g
            key={target.key}
            className={`tr-target ${isChosen ? "chosen" : ""} ${target.bonus ? "bonus" : ""}`}
            data-target={target.key}
            data-rotations={target.actions.length}
            data-bonus={target.bonus ?? undefined}
            role="button"
            tabIndex={target.key === stop ? 0 : -1}
            onFocus={() => setVisited(target.key)}
            aria-label={placeWords(t, i18n.language, target.position, laid) + label}
            onClick={activate}
            // A click must not focus (and so scroll) the panned table.
            onMouseDown={(event) => event.preventDefault()}
            onKeyDown={(event: KeyboardEvent) => {
              // On the place being decided, Enter lays the tile as shown (the table's
              // keys: R turns it, Escape puts it back); Space turns it, as a click does.
              const step = ARROW_STEPS[event.key];
              if (step || event.key === "Home" || event.key === "End") {
                event.preventDefault();
                event.stopPropagation();
                const next = step
                  ? nearestPlace(centres[index], step, centres)
                  : centres[event.key === "Home" ? 0 : centres.length - 1].key;
                focusPlace(event.currentTarget, next);
                return;
              }
              if (event.key === "Enter" && isChosen) return;
              if (event.key === "Enter" || event.key === " ") {
                event.preventDefault();
                event.stopPropagation(); // the table's own Enter (place now) is not meant
                activate();
              }
            }}
          >
            <polygon points={svgPoints(corners)} />
            {target.bonus && !isChosen && (
              <text className="tr-target-bonus" x={c.x} y={c.y} fontSize={0.115} textAnchor="middle">
                <tspan x={c.x} dy="-0.1em">
                  {t(`triominos.reasons.${target.bonus}`)}
                </tspan>
                <tspan x={c.x} dy="1.15em">
                  {bonusPoints(target.bonus)}
                </tspan>
              </text>
            )}
          </g>
        );
      })}
    </>
  );
}

/** The tile being placed, in the rotation shown, in the player's colour. */
export function Preview({ action, seat }: { action: PlaceAction; seat: number | null }) {
  return (
    <g className="tr-preview" data-preview={keyOf(action.position)} data-rotation={action.rotation} pointerEvents="none">
      <TileFace
        corners={cornerPoints(action.position)}
        numbers={cornerNumbers(action.tile, action.rotation)}
        side={1}
        fill={seat !== null ? seatTint(seat) : "#fff"}
        stroke={seat !== null ? seatColour(seat) : "#999"}
      />
    </g>
  );
}
