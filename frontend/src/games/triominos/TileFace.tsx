// One tile drawn as a triangle with its numbers near the corners, upright.
import type { SVGProps } from "react";
import { centroid, cornerNumbers, svgPoints, towardsCentre, type Point } from "./geometry";

interface FaceProps {
  /** The corners 0–2 of the triangle, in the SVG's units. */
  corners: readonly Point[];
  numbers: readonly number[];
  /** Side length of the triangle in the SVG's units (sizes the numbers). */
  side: number;
  className?: string;
  fill?: string;
  stroke?: string;
}

/** A corner number's height, as a share of the side. */
export const NUMBER_SIZE = 0.2;

export function TileFace({ corners, numbers, side, className, fill, stroke }: FaceProps) {
  const body = towardsCentre(corners, 0.045);
  const labels = towardsCentre(corners, 0.38);
  return (
    <g className={className}>
      <polygon className="tr-face" points={svgPoints(body)} fill={fill} stroke={stroke} strokeWidth={side * 0.022} strokeLinejoin="round" />
      {labels.map((p, i) => (
        <text key={i} className="tr-number" x={p.x} y={p.y} fontSize={side * NUMBER_SIZE} textAnchor="middle" dominantBaseline="central">
          {numbers[i]}
        </text>
      ))}
    </g>
  );
}

const SIDE = 100;
const UP: Point[] = [
  { x: SIDE / 2, y: 0 },
  { x: SIDE, y: (SIDE * Math.sqrt(3)) / 2 },
  { x: 0, y: (SIDE * Math.sqrt(3)) / 2 },
];

/** A tile on its own (in the hand, in dialogs): pointing up, rotation 0. */
export function TileGlyph({ tile, rotation = 0, ...svg }: { tile: string; rotation?: number } & SVGProps<SVGSVGElement>) {
  const centre = centroid(UP);
  return (
    <svg viewBox={`-4 -4 ${SIDE + 8} ${UP[1].y + 8}`} aria-hidden="true" {...svg}>
      <TileFace corners={UP} numbers={cornerNumbers(tile, rotation)} side={SIDE} className="tr-glyph" />
      <circle className="tr-glyph-dot" cx={centre.x} cy={centre.y} r={SIDE * 0.035} />
    </svg>
  );
}
