// What the board draws, bottom to top: open positions, laid tiles, the places the
// selected tile fits, and the tile being placed.
import { type KeyboardEvent } from "react";
import { useTranslation } from "react-i18next";
import { centroid, cornerNumbers, cornerPoints, keyOf, svgPoints, towardsCentre } from "./geometry";
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
          <g key={key} className={`tr-open ${o.fillable ? "" : "dead"}`} data-open={key}>
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
export function LaidTiles({ board, last }: { board: LaidTile[]; last: string | null }) {
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

interface TargetsProps {
  targets: Map<string, Target>;
  chosen: string | null;
  bonusLabel: (bonus: Bonus) => string;
  bonusPoints: (bonus: Bonus) => string;
  onTarget: (target: Target) => void;
}

/** The glowing places the selected tile fits, each with the bonus it would earn. */
export function Targets({ targets, chosen, bonusLabel, bonusPoints, onTarget }: TargetsProps) {
  const { t } = useTranslation();
  return (
    <>
      {[...targets.values()].map((target) => {
        const corners = towardsCentre(cornerPoints(target.position), 0.07);
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
            tabIndex={0}
            aria-label={t("triominos.ui.place_here", { position: target.key }) + label}
            onClick={activate}
            // A click must not focus (and so scroll) the panned table.
            onMouseDown={(event) => event.preventDefault()}
            onKeyDown={(event: KeyboardEvent) => {
              // On the place being decided, Enter lays the tile as shown (the table's
              // keys: R turns it, Escape puts it back); Space turns it, as a click does.
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
