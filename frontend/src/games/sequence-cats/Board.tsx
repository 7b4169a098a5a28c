// The board: breed spaces with cat icons, chips in team colours, highlights.
import { useEffect, useLayoutEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { Action } from "../../app/types";
import { CatIcon } from "./CatIcon";
import { BLANK, EMPTY, FREE, TEAM_COLOURS, type BoardLayout, type SequenceView, labelOf } from "./types";
import { BreakableName } from "./BreakableName";
import { breakable, longestPiece } from "./breaks";

/** Letters beyond which a breed name ("Gato da Floresta Norueguesa", 27) is set smaller
 * to show whole on a small space. */
const LONG_NAME = 21;

export interface BoardProps {
  layout: BoardLayout;
  view: SequenceView;
  /** Spaces the selected card can take (or remove), with the action that does it. */
  targets: Map<number, Action>;
  /** Spaces a card in hand could take, shown faintly while no card is selected. */
  hints: Map<number, Action>;
  removing: boolean;
  /** Spaces of the candidate fives being chosen (SC-WIN-2), and of the one pointed at. */
  candidates?: Set<number>;
  pointed?: Set<number>;
  lastSpace: number | null;
  transposed: boolean;
  cardName: (card: string) => string;
  /** A breed's short form ("Abys"), shown where a space is too small for its name. */
  shortName: (card: string) => string;
  onChoose: (action: Action) => void;
  /** A space pressed where no move goes now (its index), to be told why. */
  onRefused?: (index: number) => void;
}

/** Spaces the arrow keys move by: across, down; Home and End go to a row's ends. */
const STEPS: Record<string, (columns: number) => number> = {
  ArrowLeft: () => -1,
  ArrowRight: () => 1,
  ArrowUp: (columns) => -columns,
  ArrowDown: (columns) => columns,
};

/** From a focused space, the arrow keys move to the next space on the board, whether
 * one may play there or not (its name is read; Enter plays where one may): only the
 * spaces one may play on are tab stops, so the rest of the board was out of the
 * keyboard's reach. */
function moveFocus(event: React.KeyboardEvent<HTMLDivElement>, columns: number) {
  const spaces = Array.from(event.currentTarget.querySelectorAll<HTMLButtonElement>(".sc-space"));
  const at = spaces.indexOf(event.target as HTMLButtonElement);
  if (at < 0) return;
  const column = at % columns;
  let next: number;
  if (event.key === "Home") next = at - column;
  else if (event.key === "End") next = at - column + columns - 1;
  else if (event.key in STEPS) {
    next = at + STEPS[event.key](columns);
    // Left and right stay on the row.
    if ((event.key === "ArrowLeft" && column === 0) || (event.key === "ArrowRight" && column === columns - 1)) next = at;
  } else return;
  event.preventDefault();
  spaces[next]?.focus();
}

/** Places the name tag (`.sc-name-tag`) of the space `label` over the board's frame:
 * above the space, or below it where above would leave the frame or the window, never
 * over the space itself (its chip stays in sight); sideways inside the frame. */
function placeTag(frame: HTMLElement, tag: HTMLElement, label: string) {
  const space = frame.querySelector<HTMLElement>(`.sc-space[data-space="${label}"]`);
  if (!space) return;
  const box = frame.getBoundingClientRect();
  const at = space.getBoundingClientRect();
  const own = tag.getBoundingClientRect();
  const gap = 4;
  const above = at.top - own.height - gap;
  const top = above >= Math.max(box.top, 0) ? above : at.bottom + gap;
  const centred = at.left + at.width / 2 - own.width / 2;
  const left = Math.min(Math.max(centred, box.left + gap), box.right - own.width - gap);
  tag.style.top = `${top - box.top}px`;
  tag.style.left = `${left - box.left}px`;
}

/** Where a chip goes on a space whose name takes four lines (a phone held upright:
 * "Norwe- / gian / Forest / Cat"), leaving 2 to 4 px above it: into a corner of the
 * space, the name's lines set against the other side, so that the mark in the chip
 * (●, ▲, ■: what tells the teams apart without their colours) lies clear of the name.
 * Under the name in the middle of the space, the name hid the mark. */
interface ChipAside {
  corner: "bottom-right" | "bottom-left" | "top-right" | "top-left";
  align: "center" | "left" | "right";
  /** The chip's width, and its centre and top in its picture (`.sc-picture`), in px. */
  size: number;
  left: number;
  top: number;
}

/** The room kept clear of the name around a chip's mark, over the chip's size (the
 * mark's font is half of it, sequence-cats.css). */
const ASIDE_MARK = 0.6;
/** How far (px) a chip in a corner may reach into the box of a line of the name. */
const ASIDE_RIM = 1;
/** Lines from which a name leaves too little room above it for a chip. */
const ASIDE_LINES = 4;

type Box = { left: number; right: number; top: number; bottom: number };

/** The text lines of a space's name (the boxes of its words and hyphens, grouped by
 * line), in px from the space's padding box. */
function nameLines(name: HTMLElement, x: number, y: number): Box[][] {
  const lines = new Map<number, Box[]>();
  const walker = document.createTreeWalker(name, NodeFilter.SHOW_TEXT);
  for (let text = walker.nextNode(); text; text = walker.nextNode()) {
    const range = document.createRange();
    range.selectNodeContents(text);
    for (const rect of range.getClientRects()) {
      if (rect.width <= 0.5) continue;
      const key = Math.round(rect.top - y);
      const line = lines.get(key) ?? [];
      line.push({ left: rect.left - x, right: rect.right - x, top: rect.top - y, bottom: rect.bottom - y });
      lines.set(key, line);
    }
  }
  return [...lines.values()];
}

/** The chip's place on a space whose name takes four lines or more (null elsewhere):
 * of the four corners, each with the name's lines centred or set against the other
 * side, the one where the largest chip (up to the size of a chip elsewhere) keeps its
 * mark off every line of the name. */
function chipAside(space: HTMLElement): ChipAside | null {
  const name = space.querySelector<HTMLElement>(".sc-space-name");
  const picture = space.querySelector<HTMLElement>(".sc-picture");
  if (!name || !picture) return null;
  const own = space.getBoundingClientRect();
  const x = own.left + space.clientLeft;
  const y = own.top + space.clientTop;
  const width = space.clientWidth;
  const height = space.clientHeight;
  const lines = nameLines(name, x, y);
  if (lines.length < ASIDE_LINES) return null;
  const box = name.getBoundingClientRect();
  const nameLeft = box.left - x;
  const nameRight = box.right - x;
  const shifted = (align: ChipAside["align"]) =>
    lines.flatMap((line) => {
      const left = Math.min(...line.map((word) => word.left));
      const right = Math.max(...line.map((word) => word.right));
      const by = align === "left" ? nameLeft - left : align === "right" ? nameRight - right : (nameLeft + nameRight - left - right) / 2;
      return line.map((word) => ({ ...word, left: word.left + by, right: word.right + by }));
    });
  const pictureBox = picture.getBoundingClientRect();
  const largest = 0.45 * pictureBox.width;
  const smallest = Math.min(8, largest);
  const inset = 0.5;
  let best: (ChipAside & { fits: number }) | null = null;
  const corners: [ChipAside["corner"], ChipAside["align"][]][] = [
    ["bottom-right", ["center", "left"]],
    ["bottom-left", ["center", "right"]],
    ["top-right", ["center", "left"]],
    ["top-left", ["center", "right"]],
  ];
  for (const [corner, aligns] of corners) {
    for (const align of aligns) {
      const words = shifted(align);
      // The largest chip whose mark is clear of the name, and whose rim reaches 1 px
      // into the name's lines at most (their boxes, a little taller than the letters).
      let fits = smallest;
      for (let size = largest; size >= smallest; size -= 0.25) {
        const centreX = corner.endsWith("left") ? inset + size / 2 : width - inset - size / 2;
        const centreY = corner.startsWith("top") ? inset + size / 2 : height - inset - size / 2;
        const half = (ASIDE_MARK * size) / 2;
        const reach = size / 2 - ASIDE_RIM;
        const clear = words.every((word) => {
          const across = Math.max(word.left - centreX, 0, centreX - word.right);
          const down = Math.max(word.top - centreY, 0, centreY - word.bottom);
          const markClear = across >= half || down >= half;
          return markClear && across * across + down * down >= reach * reach;
        });
        if (clear) {
          fits = size;
          break;
        }
      }
      // A larger chip wins; at the same size, the name as it was (centred).
      if (!best || fits > best.fits + 0.01) {
        const centreX = corner.endsWith("left") ? inset + fits / 2 : width - inset - fits / 2;
        const top = corner.startsWith("top") ? inset : height - inset - fits;
        best = {
          corner,
          align,
          fits,
          size: fits,
          left: x + centreX - pictureBox.left,
          top: y + top - pictureBox.top,
        };
      }
    }
  }
  if (!best) return null;
  const { fits: _fits, ...aside } = best;
  return aside;
}

/** {@link chipAside} of each space with a chip, by label. */
function chipAsides(frame: HTMLElement): Record<string, ChipAside> {
  const asides: Record<string, ChipAside> = {};
  for (const space of frame.querySelectorAll<HTMLElement>(".sc-space[data-chip]")) {
    const aside = chipAside(space);
    if (aside && space.dataset.space) asides[space.dataset.space] = aside;
  }
  return asides;
}

const round = (value: number) => Math.round(value * 4) / 4;

export function Board({ layout, view, targets, hints, removing, candidates, pointed, lastSpace, transposed, cardName, shortName, onChoose, onRefused }: BoardProps) {
  const { t } = useTranslation();
  const { rows, columns } = layout;
  // A space pressed where no move goes shows its label and whole name in large type
  // beside it: on a phone the names on the spaces are 6.5 to 7.5 px (held sideways, a
  // short form), and many cats look alike. It goes at the next state, another card, a press elsewhere, or Escape.
  const [named, setNamed] = useState<string | null>(null);
  const frameRef = useRef<HTMLDivElement>(null);
  const tagRef = useRef<HTMLSpanElement>(null);
  useEffect(() => setNamed(null), [view, targets]);
  // Chips in a corner of the spaces whose names take four lines: measured after each
  // change of the board, and when the board's size or its font changes.
  const [asides, setAsides] = useState<Record<string, ChipAside>>({});
  const measureAsides = useRef<() => void>(() => {});
  measureAsides.current = () => {
    const frame = frameRef.current;
    if (!frame) return;
    const measured = chipAsides(frame);
    for (const aside of Object.values(measured)) {
      aside.size = round(aside.size);
      aside.left = round(aside.left);
      aside.top = round(aside.top);
    }
    setAsides((shown) => (JSON.stringify(shown) === JSON.stringify(measured) ? shown : measured));
  };
  useLayoutEffect(() => measureAsides.current());
  useEffect(() => {
    const frame = frameRef.current;
    if (!frame) return;
    const observer = new ResizeObserver(() => measureAsides.current());
    observer.observe(frame);
    void document.fonts?.ready.then(() => measureAsides.current());
    return () => observer.disconnect();
  }, []);
  useLayoutEffect(() => {
    const frame = frameRef.current;
    const tag = tagRef.current;
    if (named === null || !frame || !tag) return;
    const place = () => placeTag(frame, tag, named);
    place();
    const away = (event: PointerEvent) => {
      if (!(event.target instanceof Node) || !frame.contains(event.target)) setNamed(null);
    };
    const escape = (event: KeyboardEvent) => {
      if (event.key === "Escape") setNamed(null);
    };
    window.addEventListener("resize", place);
    window.addEventListener("scroll", place, { passive: true });
    document.addEventListener("pointerdown", away);
    document.addEventListener("keydown", escape);
    return () => {
      window.removeEventListener("resize", place);
      window.removeEventListener("scroll", place);
      document.removeEventListener("pointerdown", away);
      document.removeEventListener("keydown", escape);
    };
  }, [named]);
  const sequenceTeam = new Map<number, number>();
  for (const sequence of view.sequences) {
    for (const label of sequence.spaces) {
      const index = (Number(label.slice(1)) - 1) * columns + (label.charCodeAt(0) - 65);
      sequenceTeam.set(index, sequence.team);
    }
  }
  const displayRows = transposed ? columns : rows;
  const displayColumns = transposed ? rows : columns;
  const rowHeader = (r: number) => (transposed ? String.fromCharCode(65 + r) : String(r + 1));
  const columnHeader = (c: number) => (transposed ? String(c + 1) : String.fromCharCode(65 + c));

  // Between turns no space may be played: one space (the last one played, else the
  // first) stays a tab stop all the same, from which the arrow keys walk the board.
  const playable = targets.size > 0 || hints.size > 0;
  const entry = lastSpace ?? 0;
  const cells = [];
  for (let dr = 0; dr < displayRows; dr++) {
    cells.push(
      <span key={`r${dr}`} className="sc-coord sc-coord-row" aria-hidden="true">
        {rowHeader(dr)}
      </span>,
    );
    for (let dc = 0; dc < displayColumns; dc++) {
      const [row, column] = transposed ? [dc, dr] : [dr, dc];
      const index = row * columns + column;
      const label = labelOf(row, column);
      const breed = layout.spaces[row][column];
      const cell = view.cells[index];
      const target = targets.get(index);
      const hint = hints.get(index);
      const action = target ?? hint;
      const inSequence = sequenceTeam.get(index);
      const classes = ["sc-space"];
      if (cell === FREE) classes.push("free");
      if (cell === BLANK) classes.push("blank");
      if (candidates?.has(index)) classes.push("candidate");
      if (pointed?.has(index)) classes.push("pointed");
      if (target) classes.push(removing ? "target remove" : "target");
      else if (hint) classes.push("hint");
      if (index === lastSpace) classes.push("last");
      if (inSequence !== undefined) classes.push("in-sequence");
      const name =
        cell === FREE ? t("sequence_cats.ui.free_space") : cell === BLANK ? t("sequence_cats.ui.blank_space") : cardName(breed);
      // The name as shown, soft hyphens and all, is the label's too: a label that differs
      // from the visible text fails speech input ("click Munchkin"); readers skip them.
      const shown = breakable(name);
      // A chip on a name of four lines lies in a corner (chipAside).
      const aside = cell >= 0 ? asides[label] : undefined;
      const style: Record<string, string> = {};
      if (inSequence !== undefined) style["--seq"] = TEAM_COLOURS[inSequence];
      if (aside) {
        style["--aside-size"] = `${aside.size}px`;
        style["--aside-left"] = `${aside.left}px`;
        style["--aside-top"] = `${aside.top}px`;
      }
      // A chip in a sequence says so (only the tint and the log told it): at two
      // sequences to win it may not be removed, and the next shares one chip at most.
      const chipText =
        cell >= 0
          ? t(inSequence !== undefined ? "sequence_cats.ui.chip_in_sequence" : "sequence_cats.ui.chip_of", { team: t(`sequence_cats.teams.${cell}`) })
          : "";
      cells.push(
        <button
          key={label}
          type="button"
          className={classes.join(" ")}
          data-space={label}
          data-breed={breed}
          data-target={target ? "true" : undefined}
          data-chip={cell >= 0 ? cell : undefined}
          data-chip-aside={aside?.corner}
          data-name-align={aside && aside.align !== "center" ? aside.align : undefined}
          aria-label={`${label}: ${shown}${chipText ? `, ${chipText}` : ""}`}
          aria-disabled={!action}
          // Only the spaces one may play on now are tab stops (not all 88 on the way to
          // the hand); the others stay readable by a screen reader's own cursor and
          // reachable with the arrow keys.
          tabIndex={action || (!playable && index === entry) ? 0 : -1}
          title={`${label} · ${name}`}
          style={Object.keys(style).length ? (style as React.CSSProperties) : undefined}
          onClick={() => {
            if (action) {
              setNamed(null);
              onChoose(action);
              return;
            }
            setNamed((shownNow) => (shownNow === label ? null : label));
            onRefused?.(index);
          }}
        >
          {cell === FREE ? (
            <span className="sc-free" aria-hidden="true">
              ✦
            </span>
          ) : cell === BLANK ? null : (
            <>
              {/* The chip lies on the cat, in the room the name leaves: centred on the
                  space, it hid a name's first line ("Tyrkneskur / angóra- / köttur"). */}
              <span className="sc-picture">
                <CatIcon breed={breed} />
                {cell >= 0 && <span className={`sc-chip team-${cell}`} style={{ background: TEAM_COLOURS[cell] }} aria-hidden="true" />}
                {cell === EMPTY && target && !removing && <span className="sc-ghost" aria-hidden="true" />}
              </span>
              <span
                className={`sc-space-name${name.length > LONG_NAME ? " long" : ""}`}
                style={{ "--longest": longestPiece(shown) } as React.CSSProperties}
              >
                <BreakableName shown={shown} />
              </span>
              {/* Shown instead of the name where the spaces are small (a phone held
                  sideways: a name of three lines was 5 to 6 px there); part of the
                  name, which the label says whole. */}
              {cell !== FREE && cell !== BLANK && (
                <span className="sc-space-short" aria-hidden="true">
                  {shortName(breed)}
                </span>
              )}
            </>
          )}
        </button>,
      );
    }
  }
  let tag: string | null = null;
  if (named !== null) {
    const row = Number(named.slice(1)) - 1;
    const column = named.charCodeAt(0) - 65;
    const cell = view.cells[row * columns + column];
    const name =
      cell === FREE ? t("sequence_cats.ui.free_space") : cell === BLANK ? t("sequence_cats.ui.blank_space") : cardName(layout.spaces[row][column]);
    tag = `${named} · ${name}`;
  }
  return (
    <div className="sc-board-frame" ref={frameRef}>
      <div
        className={`sc-board ${transposed ? "transposed" : ""}`}
        // One group a screen reader can move to or past as a whole (88 buttons).
        role="group"
        aria-label={t("sequence_cats.ui.board")}
        style={{ gridTemplateColumns: `1.1em repeat(${displayColumns}, minmax(0, 1fr))` }}
        onKeyDown={(event) => moveFocus(event, displayColumns)}
      >
        <span className="sc-coord" aria-hidden="true" />
        {Array.from({ length: displayColumns }, (_, c) => (
          <span key={`c${c}`} className="sc-coord sc-coord-column" aria-hidden="true">
            {columnHeader(c)}
          </span>
        ))}
        {cells}
      </div>
      {/* What the space's button already says to a screen reader (its label). */}
      {tag !== null && (
        <span className="sc-name-tag" ref={tagRef} aria-hidden="true" data-space={named ?? undefined}>
          {tag}
        </span>
      )}
    </div>
  );
}
