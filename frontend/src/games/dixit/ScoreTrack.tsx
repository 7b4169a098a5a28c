// The scoring track 0–30 as a winding path with a rabbit per player (Team: per team).
// Two rabbits on one space stand side by side; three or more make a ring of dots in
// their colours round the space, with their count; past 30 a rabbit goes round again
// with a lap mark. On a phone the path winds in fewer columns and its rabbits are larger,
// so that the number on each is read at 11 px or more. On the big screen its numbers are
// drawn 12 px or more however far the table is zoomed out, its rabbits larger for it, and
// two on one space already stand as a ring of dots with their count.
import type { TFunction } from "i18next";
import { memo, useLayoutEffect, useRef, useState, type CSSProperties, type RefObject } from "react";
import { useTranslation } from "react-i18next";
import { useScreenMode } from "../../app/replay";
import { seatName } from "../../app/seatName";
import { ZOOMED } from "../../app/useLayout";
import type { TableInfo } from "../../app/types";
import { colourOf, type DixitView } from "./types";

const SPACES = 31; // 0 … 30
/** Columns of the path in a wide window (and the most on a phone). */
const COLUMNS = 8;
/** The fewest a phone's track winds in (six columns make it as tall as wide). */
const FEWEST_COLUMNS = 6;
const STEP = 44;
const PAD = 26;
/** From this many runners on one space they stand as a ring of dots with a count. */
const STACK = 3;
/** How far apart two rabbits on one space stand: their numbers clear of each other. */
const PAIR = 14;
/** The ring of a stack: its radius, each dot's, and the arc left free for the count. */
const RING = 18.5;
const DOT = 3.2;
const FREE_ARC = 60;

/** On a phone: how much larger a rabbit is drawn, how far apart two on one space stand,
 * and the size of the number on it (in the track's units, as dx-track.narrow's
 * .dx-rabbit-number in dixit.css). */
const NARROW_RABBIT = 1.25;
const NARROW_PAIR = 18;
const NARROW_NUMBER = 12;
/** The least size in pixels a rabbit's number is drawn at on a phone. */
const READABLE_PX = 11;
/** The least size in pixels the track's numbers are drawn at on the big screen. */
const SCREEN_PX = 12;
/** The size of a space's number in the track's units (as .dx-track-space text in
 * dixit.css), and of the number on a rabbit drawn at its own size. */
const SPACE_NUMBER = 12;
/** The size of a rabbit's number (in the track's units) per unit of the rabbit's scale on
 * the big screen: about a phone's (12 on a rabbit 1.25 times its size), the number on
 * the rabbit's body. */
const SCREEN_NUMBER_PER_SCALE = 12;
/** How far a line of text's box reaches above its baseline and below it, per unit of its
 * size (the track's numbers and counts, as the browser measures them). */
const ASCENT = 0.92;
const DESCENT = 0.25;
/** Where a stack's count may stand on the big screen: the gaps between rows, at a corner
 * of its space (right or left, above or below). */
const CORNERS: readonly (readonly [number, number])[] = [[1, -1], [-1, -1], [1, 1], [-1, 1]];

/** The width of a track of `columns` columns, in its own units. */
function widthOf(columns: number): number {
  return PAD * 2 + (columns - 1) * STEP;
}

/** The centre of space `n` on a path of `columns` that winds left → right, then
 * right → left, its rows `rowStep` apart. */
function spaceAt(n: number, columns: number, rowStep = STEP): [number, number] {
  const row = Math.floor(n / columns);
  const inRow = n % columns;
  const column = row % 2 === 0 ? inRow : columns - 1 - inRow;
  return [PAD + column * STEP, PAD + row * rowStep];
}

/** The columns of a phone's track drawn `width` pixels wide: the most at which the
 * number on a rabbit is drawn {@link READABLE_PX} or larger (at eight columns a 360 px
 * phone drew it at 7 px), six at the fewest. */
export function narrowColumns(width: number): number {
  for (let columns = COLUMNS; columns > FEWEST_COLUMNS; columns--) {
    if ((NARROW_NUMBER * width) / widthOf(columns) >= READABLE_PX) return columns;
  }
  return FEWEST_COLUMNS;
}

/** The columns the track winds in: {@link COLUMNS}, or on a phone (`narrow`) as many as
 * leave its rabbits' numbers readable at the width it is drawn. */
function useColumns(svg: RefObject<SVGSVGElement | null>, narrow: boolean): number {
  const [columns, setColumns] = useState(COLUMNS);
  useLayoutEffect(() => {
    const element = svg.current;
    if (!narrow || !element) {
      setColumns(COLUMNS);
      return;
    }
    const measure = () => {
      const width = element.getBoundingClientRect().width;
      if (width > 0) setColumns(narrowColumns(width));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [svg, narrow]);
  return columns;
}

/** On the big screen (`active`), the size in the track's units at which `svg`'s text is
 * drawn {@link SCREEN_PX} pixels: the track is drawn at the side's width times the
 * table's zoom (0.6 to 1 at 720p, useFitZoom.ts), its 12-unit numbers 7 to 10.6 px.
 * Measured again as the track or the zoom changes; 0 elsewhere. */
function useScreenNumber(svg: RefObject<SVGSVGElement | null>, active: boolean, units: number): number {
  const [size, setSize] = useState(0);
  useLayoutEffect(() => {
    const element = svg.current;
    if (!active || !element) {
      setSize(0);
      return;
    }
    const measure = () => {
      // (A box's width in the window's pixels includes the zoom it is under.)
      const width = element.getBoundingClientRect().width;
      if (width > 0) setSize(Math.ceil(((SCREEN_PX * units) / width) * 10) / 10);
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    window.addEventListener(ZOOMED, measure);
    return () => {
      observer.disconnect();
      window.removeEventListener(ZOOMED, measure);
    };
  }, [svg, active, units]);
  return active ? size : 0;
}

interface Placed {
  runner: Runner;
  /** The space it stands on, 0–30. */
  space: number;
  /** How many laps of 30 it has run. */
  lap: number;
}

export interface Runner {
  key: string;
  label: string;
  colour: string;
  score: number;
}

/** Who runs on the track: each seat, or each team in Team Dixit. */
export function runners(t: TFunction, info: TableInfo, view: DixitView): Runner[] {
  if (view.teams) {
    return view.teams.map((team, index) => ({
      key: `team-${index}`,
      label: t("dixit.ui.team_of", { team: index + 1, players: team.map((s) => seatName(t, info, s)).join(" & ") }),
      colour: colourOf(index),
      score: view.scores[team[0]] ?? 0,
    }));
  }
  return info.seats.map((s) => ({
    key: `seat-${s.seat}`,
    label: seatName(t, info, s.seat),
    colour: colourOf(s.seat),
    score: view.scores[s.seat] ?? 0,
  }));
}

function Rabbit({ x, y, colour, scale }: { x: number; y: number; colour: string; scale: number }) {
  return (
    <g transform={`translate(${x} ${y})${scale === 1 ? "" : ` scale(${scale})`}`} className="dx-rabbit">
      <ellipse cx={-3.2} cy={-11} rx={2.6} ry={7} fill={colour} stroke="#fff" strokeWidth={1.2} transform="rotate(-12 -3.2 -11)" />
      <ellipse cx={3.2} cy={-11} rx={2.6} ry={7} fill={colour} stroke="#fff" strokeWidth={1.2} transform="rotate(12 3.2 -11)" />
      <ellipse cx={0} cy={4} rx={8.5} ry={7} fill={colour} stroke="#fff" strokeWidth={1.4} />
      <circle cx={0} cy={-3} r={5.6} fill={colour} stroke="#fff" strokeWidth={1.4} />
      <circle cx={-1.9} cy={-3.8} r={0.9} fill="#fff" />
      <circle cx={1.9} cy={-3.8} r={0.9} fill="#fff" />
    </g>
  );
}

/** `narrow`: a phone's track (see {@link useColumns}). */
export const ScoreTrack = memo(function ScoreTrack({ info, view, narrow = false }: { info: TableInfo; view: DixitView; narrow?: boolean }) {
  const { t } = useTranslation();
  const svg = useRef<SVGSVGElement>(null);
  const columns = useColumns(svg, narrow);
  const list = runners(t, info, view);
  const rows = Math.ceil(SPACES / columns);
  const width = widthOf(columns);
  const lastX = PAD + (columns - 1) * STEP;
  // The big screen: every number at least `least` units (12 px as drawn) and each rabbit
  // larger to hold it; two such rabbits side by side on one space hid each other and
  // their neighbours, so from two they stand as a ring of dots with their count.
  const least = useScreenNumber(svg, useScreenMode() && !narrow, width);
  const rabbit = narrow ? NARROW_RABBIT : Math.max(1, least / SCREEN_NUMBER_PER_SCALE);
  const pair = narrow ? NARROW_PAIR : PAIR;
  const stackFrom = least > 0 ? 2 : STACK;
  const spaceNumber = Math.max(SPACE_NUMBER, least);
  const numbers = least > 0 ? ({ "--track-least": `${least}px` } as CSSProperties) : undefined;
  // A space's number reaches this far above its centre and below it (its baseline
  // 4.5 units below the centre at 12 units).
  const numberBaseline = (4.5 * spaceNumber) / SPACE_NUMBER;
  const numberAbove = ASCENT * spaceNumber - numberBaseline;
  const numberBelow = numberBaseline + DESCENT * spaceNumber;
  // The big screen: a stack's count (as large as the numbers) stands in the gap between
  // two rows, 2 px as drawn clear of the numbers above and below it; beside its space it
  // touched the next space's number ("×4" on 3 and "4" at 1024 × 600). The rows are as
  // far apart as that takes (45 units from 44 there).
  const countSize = Math.max(10, least); // as .dx-track-count's on the big screen
  const clear = least / 6; // 2 px as drawn: a unit is 12 / least px
  const rowStep = least > 0 ? Math.max(STEP, numberAbove + numberBelow + (ASCENT + DESCENT) * countSize + 2 * clear + 0.3) : STEP;
  const height = PAD * 2 + (rows - 1) * rowStep;
  const spaceAtHere = (n: number) => spaceAt(n, columns, rowStep);
  const path = Array.from({ length: SPACES }, (_, n) => spaceAtHere(n).join(",")).join(" ");
  const target = view.target_score;

  // Where each rabbit stands: the space, and how many laps of 30 it has run.
  const placed: Placed[] = list.map((runner) => {
    const lap = runner.score > 30 ? Math.floor(runner.score / 30) : 0;
    return { runner, space: lap ? runner.score % 30 : runner.score, lap };
  });
  const bySpace = new Map<number, typeof placed>();
  for (const p of placed) bySpace.set(p.space, [...(bySpace.get(p.space) ?? []), p]);

  // Each stack's corner on the big screen, stacks in the order of their spaces: the
  // first of right above, left above, right below, left below that lies inside the track
  // (none above the first row, below the last, or past either end) and that no other
  // count, lap mark ("+30", right above a rabbit, left in the last column) or rabbit's
  // number (its foot reaches into the gap below its row) holds, nor a rabbit's ears (in
  // the gap above its row); else the first free of text; else the first inside.
  const corners = new Map<number, readonly [number, number]>();
  if (least > 0) {
    const taken = new Set<string>();
    const ears = new Set<string>();
    const cell = (space: number, [dx, dy]: readonly [number, number]) => {
      const [x, y] = spaceAtHere(space);
      return `${x + (dx * STEP) / 2},${y + (dy * rowStep) / 2}`;
    };
    for (const [space, here] of bySpace) {
      if (here.length >= stackFrom) continue;
      const [x] = spaceAtHere(space);
      taken.add(cell(space, [1, 1]));
      taken.add(cell(space, [-1, 1]));
      ears.add(cell(space, [1, -1]));
      ears.add(cell(space, [-1, -1]));
      if (here.some((p) => p.lap > 0)) taken.add(cell(space, [x === lastX ? -1 : 1, -1]));
    }
    for (const space of [...bySpace.keys()].sort((a, b) => a - b)) {
      if ((bySpace.get(space)?.length ?? 0) < stackFrom) continue;
      const [x] = spaceAtHere(space);
      const row = Math.floor(space / columns);
      const inside = CORNERS.filter(([dx, dy]) => (dx > 0 ? x < lastX : x > PAD) && (dy < 0 ? row > 0 : row < rows - 1));
      const corner =
        inside.find((c) => !taken.has(cell(space, c)) && !ears.has(cell(space, c))) ??
        inside.find((c) => !taken.has(cell(space, c))) ??
        inside[0] ??
        CORNERS[0];
      taken.add(cell(space, corner));
      corners.set(space, corner);
    }
  }

  const runnerTitle = (p: Placed) =>
    p.lap ? t("dixit.ui.lap", { player: p.runner.label, score: p.runner.score }) : `${p.runner.label}: ${p.runner.score}`;

  /** The runners of one space, three or more: a ring of dots, one in each runner's
   * colour (a runner past 30 with its lap's "+30" in the title), round the space and its
   * number, leaving a corner free for "×n" (top right, top left in the last column). */
  const stack = (space: number, x: number, y: number, here: Placed[]) => {
    const last = x === lastX;
    const corner = corners.get(space);
    // the corner for the count, in degrees
    const free = corner ? (Math.atan2(corner[1], corner[0]) * 180) / Math.PI : last ? -135 : -45;
    const step = (360 - FREE_ARC) / here.length;
    // On the big screen the count in the middle of its gap between rows: half way
    // between the numbers above and below it (its box's middle (ASCENT - DESCENT) / 2
    // of its size above its baseline).
    const count = corner
      ? {
          x: x + (corner[0] * STEP) / 2,
          y: y + (corner[1] * rowStep) / 2 + (numberBelow - numberAbove) / 2 + ((ASCENT - DESCENT) * countSize) / 2,
          anchor: "middle" as const,
        }
      : { x: last ? x - 12 : x + 12, y: y - 12, anchor: last ? ("end" as const) : ("start" as const) };
    return [
      <g key={`stack-${space}`} className="dx-track-stack" data-space={space} data-count={here.length} aria-hidden="true">
        <circle className="dx-track-stack-ring" cx={x} cy={y} r={15} />
        <text className="dx-track-count" x={count.x} y={count.y} textAnchor={count.anchor}>
          ×{here.length}
        </text>
      </g>,
      ...here.map((p, i) => {
        const angle = ((free + FREE_ARC / 2 + step / 2 + i * step) * Math.PI) / 180;
        return (
          <g
            key={p.runner.key}
            className="dx-track-token stacked"
            data-runner={p.runner.key}
            data-score={p.runner.score}
            data-space={space}
            data-lap={p.lap}
          >
            <title>{runnerTitle(p)}</title>
            <circle className="dx-track-dot" cx={x + RING * Math.cos(angle)} cy={y + RING * Math.sin(angle)} r={DOT} fill={p.runner.colour} />
          </g>
        );
      }),
    ];
  };

  return (
    <figure className={`dx-track ${narrow ? "narrow" : ""}`} data-columns={columns} style={numbers}>
      <svg ref={svg} viewBox={`0 0 ${width} ${height}`} role="img" aria-label={t("dixit.ui.track")}>
        <polyline className="dx-track-path" points={path} />
        {Array.from({ length: SPACES }, (_, n) => {
          const [x, y] = spaceAtHere(n);
          const mark = n === 0 || n === target;
          // A game that ends before 30 (a target of 15, say): the spaces past it are
          // faded, so that where the finish lies reads at a glance.
          const beyond = typeof target === "number" && n > target;
          return (
            <g key={n} className={`dx-track-space ${n % 5 === 0 ? "fifth" : ""} ${mark ? "mark" : ""} ${beyond ? "beyond" : ""}`}>
              <circle cx={x} cy={y} r={15} />
              <text x={x} y={y + numberBaseline} textAnchor="middle">{n}</text>
            </g>
          );
        })}
        {[...bySpace.entries()].flatMap(([space, here]) => {
          const [x, y] = spaceAtHere(space);
          // Three or more on one space (twelve on 0 at the start): their rabbits hid one
          // another and each other's numbers. The space's own number stays in sight, a
          // ring of dots in the runners' colours goes round it, and "×n" says how many.
          if (here.length >= stackFrom) return stack(space, x, y, here);
          return here.map((p, i) => {
            // Two side by side on their space, inside its square: they covered each
            // other's number, and a neighbour's.
            const spread = here.length > 1 ? (i - (here.length - 1) / 2) * pair : 0;
            return (
              <g
                key={p.runner.key}
                className="dx-track-token"
                data-runner={p.runner.key}
                data-score={p.runner.score}
                data-space={space}
                data-lap={p.lap}
              >
                <title>{runnerTitle(p)}</title>
                <Rabbit x={x + spread} y={y} colour={p.runner.colour} scale={rabbit} />
                {/* The space's number on the rabbit's front: the rabbit covers the one on
                    the track (on a phone one could not read where anyone stood). */}
                <text className="dx-rabbit-number" x={x + spread} y={y + 7.2 * rabbit + (narrow ? 1.6 : 0)} textAnchor="middle" aria-hidden="true">
                  {space}
                </text>
                {/* Right of the rabbit, but left of it in the track's last column, where
                    "+30" ran past the edge and read "+3" (a total of 37 or 38). */}
                {p.lap > 0 &&
                  (x === lastX ? (
                    <text className="dx-lap" x={x + spread - 8 * rabbit} y={y - 9 * rabbit} textAnchor="end">
                      +{p.lap * 30}
                    </text>
                  ) : (
                    <text className="dx-lap" x={x + spread + 8 * rabbit} y={y - 9 * rabbit}>
                      +{p.lap * 30}
                    </text>
                  ))}
              </g>
            );
          });
        })}
      </svg>
      {/* Scores stand in the list of players (Team Dixit: in the teams' panel, with
          their colours), not again here. */}
      <figcaption>
        <p className="dx-target">{endRule(t, info, view)}</p>
      </figcaption>
    </figure>
  );
});

/** When the game ends, in words: at a target score (DX-END-1), also when the draw pile
 * runs out (DX-END-2), only then (DX-END-3), or after a number of rounds (Party and
 * Team Dixit: DX-PARTY-7, DX-TEAM-6). */
function endRule(t: TFunction, info: TableInfo, view: DixitView): string {
  const target = view.target_score;
  const onEmpty = info.public.end_on_empty_deck === true;
  if (target !== null) return t(onEmpty ? "dixit.ui.target_or_empty" : "dixit.ui.target", { score: target });
  if (view.rounds_total)
    return t(onEmpty ? "dixit.ui.ends_after_round_or_empty" : "dixit.ui.ends_after_round", { rounds: view.rounds_total });
  return onEmpty ? t("dixit.ui.ends_on_empty") : "";
}
