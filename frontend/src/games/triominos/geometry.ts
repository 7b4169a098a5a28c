// The triangular lattice on screen (docs/triominos.md, "The lattice"), in side lengths:
// vertex (line, k) is drawn at (k / 2, line · √3/2); rows grow downwards.
import type { Position } from "./types";

export const H = Math.sqrt(3) / 2;

export interface Point {
  x: number;
  y: number;
}

export interface Box {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

export const keyOf = (position: readonly number[]) => `${position[0]},${position[1]}`;

/** Position [r, c] points up when r + c is even. */
export const pointsUp = ([row, col]: readonly number[]) => (((row + col) % 2) + 2) % 2 === 0;

const vertex = (line: number, k: number): Point => ({ x: k / 2, y: line * H });

/** The corners 0, 1, 2 of a position, clockwise as seen from above. */
export function cornerPoints(position: readonly number[]): [Point, Point, Point] {
  const [r, c] = position;
  return pointsUp(position)
    ? [vertex(r, c + 1), vertex(r + 1, c + 2), vertex(r + 1, c)]
    : [vertex(r, c), vertex(r, c + 2), vertex(r + 1, c + 1)];
}

export function centroid(points: readonly Point[]): Point {
  const x = points.reduce((sum, p) => sum + p.x, 0) / points.length;
  const y = points.reduce((sum, p) => sum + p.y, 0) / points.length;
  return { x, y };
}

/** Each point moved towards the centroid by ``fraction`` of the way. */
export function towardsCentre(points: readonly Point[], fraction: number): Point[] {
  const centre = centroid(points);
  return points.map((p) => ({ x: p.x + (centre.x - p.x) * fraction, y: p.y + (centre.y - p.y) * fraction }));
}

export const svgPoints = (points: readonly Point[]) => points.map((p) => `${p.x.toFixed(4)},${p.y.toFixed(4)}`).join(" ");

/** The numbers a tile "a-b-c" puts on corners 0, 1, 2 when laid with ``rotation``. */
export function cornerNumbers(tile: string, rotation: number): [number, number, number] {
  const n = tile.split("-").map(Number);
  return [n[rotation % 3], n[(rotation + 1) % 3], n[(rotation + 2) % 3]];
}

export const tileValue = (tile: string) => tile.split("-").reduce((sum, n) => sum + Number(n), 0);

/** The smallest box around the given positions (an empty table: the origin). */
export function boxOf(positions: readonly Position[]): Box {
  const points = (positions.length ? positions : [[0, 0] as Position]).flatMap((p) => cornerPoints(p));
  return {
    minX: Math.min(...points.map((p) => p.x)),
    minY: Math.min(...points.map((p) => p.y)),
    maxX: Math.max(...points.map((p) => p.x)),
    maxY: Math.max(...points.map((p) => p.y)),
  };
}

export const grow = (box: Box, by: number): Box => ({
  minX: box.minX - by,
  minY: box.minY - by,
  maxX: box.maxX + by,
  maxY: box.maxY + by,
});
