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
          aria-label={`${label}: ${shown}${chipText ? `, ${chipText}` : ""}`}
          aria-disabled={!action}
          // Only the spaces one may play on now are tab stops (not all 88 on the way to
          // the hand); the others stay readable by a screen reader's own cursor and
          // reachable with the arrow keys.
          tabIndex={action || (!playable && index === entry) ? 0 : -1}
          title={`${label} · ${name}`}
          style={inSequence !== undefined ? ({ "--seq": TEAM_COLOURS[inSequence] } as React.CSSProperties) : undefined}
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
