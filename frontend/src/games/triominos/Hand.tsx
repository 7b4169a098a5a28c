// Your tiles: tap one to see where it fits.
import { useCallback, useEffect, useRef, useState, type CSSProperties } from "react";
import { useTranslation } from "react-i18next";
import { tileValue } from "./geometry";
import { TileGlyph } from "./TileFace";

interface HandProps {
  hand: string[];
  /** Tiles drawn this turn so far (TR-DRAW-1). */
  draws: number;
  playable: Set<string>;
  selected: string | null;
  myTurn: boolean;
  /** The table is empty: the round opens with a tile the rules name (TR-SETUP-4), so a
   * greyed tile is not one that fits nowhere. */
  opening?: boolean;
  /** ``byKeyboard``: chosen with Enter or Space (the page then moves the focus to the
   * tile's first place on the table). */
  onSelect: (tile: string | null, byKeyboard: boolean) => void;
}

/** Scrolls the rack ``list`` sideways until ``item`` lies wholly inside its box. The
 * distance is measured from the boxes and rounded up to whole pixels: ``clientWidth`` is
 * rounded, and a rack of fractional width left the last tile's edge a fraction of a
 * pixel out of sight. */
function bringIntoRow(list: HTMLElement, item: HTMLElement): void {
  const box = list.getBoundingClientRect();
  const at = item.getBoundingClientRect();
  if (at.left < box.left) list.scrollLeft -= Math.ceil(box.left - at.left);
  else if (at.right > box.right) list.scrollLeft += Math.ceil(at.right - box.right);
}

/** How long the note on a greyed tile stays (ms). */
const HINT_MS = 3500;

export function Hand({ hand, draws, playable, selected, myTurn, opening = false, onSelect }: HandProps) {
  // A tap on a greyed tile on one's turn says why nothing happens (its title, a
  // tooltip, never shows on a phone), for a few seconds.
  const [hint, setHint] = useState<string | null>(null);
  useEffect(() => {
    if (hint === null) return;
    const timer = window.setTimeout(() => setHint(null), HINT_MS);
    return () => window.clearTimeout(timer);
  }, [hint]);
  useEffect(() => setHint(null), [myTurn, hand.length]);
  const { t } = useTranslation();
  const row = useRef<HTMLUListElement>(null);
  // On a phone the row scrolls sideways: a tile selected for the player (the tile just
  // drawn, TR-DRAW-1) may sit past its edge, so the row (not the page) scrolls to it.
  useEffect(() => {
    const list = row.current;
    if (!list || selected === null) return;
    const button = list.querySelector<HTMLElement>(`[data-tile="${CSS.escape(selected)}"]`);
    if (button) bringIntoRow(list, button);
  }, [selected, hand.length]);

  // The tiles drawn this turn (TR-DRAW-1) say so: one that fits nowhere is greyed like
  // the rest and, on a phone, may lie past the row's edge.
  // The hand as it was before this turn's first draw (a new round deals a whole new
  // hand: none of it is "drawn").
  const beforeDraws = useRef<Set<string> | null>(null);
  if (!myTurn) beforeDraws.current = null;
  else if (draws === 0 || beforeDraws.current === null) beforeDraws.current = new Set(hand);
  const justDrawn = (tile: string) =>
    myTurn && draws > 0 && beforeDraws.current !== null && !beforeDraws.current.has(tile);

  // The rack scrolls to a tile just drawn, which a sorted hand may put past its edge
  // (its "drawn" mark out of sight).
  useEffect(() => {
    const list = row.current;
    if (!list || !myTurn || draws === 0) return;
    const drawnTiles = list.querySelectorAll<HTMLElement>(".tr-just-drawn");
    const item = drawnTiles[drawnTiles.length - 1];
    if (item) bringIntoRow(list, item);
  }, [myTurn, draws, hand.length]);

  // A long hand (after drawing) scrolls sideways: tiles that fit may lie out of sight.
  // The turn opens on the first of them, and a button says how many more are hidden.
  // After a draw the rack stays on the tile drawn (it scrolled off it, to the tiles
  // that fit, when all of them lay past the other edge); the button points to them.
  const [hiddenPlayable, setHiddenPlayable] = useState<string[]>([]);
  const outOfSight = useCallback((): string[] => {
    const list = row.current;
    if (!list || !myTurn) return [];
    const box = list.getBoundingClientRect();
    return [...list.querySelectorAll<HTMLElement>('[data-playable="true"]')]
      .filter((button) => {
        const at = button.getBoundingClientRect();
        return at.left < box.left - 1 || at.right > box.right + 1;
      })
      .map((button) => button.dataset.tile ?? "");
  }, [myTurn]);
  const scrollTo = useCallback((tile: string) => {
    const list = row.current;
    const button = list?.querySelector<HTMLElement>(`[data-tile="${CSS.escape(tile)}"]`);
    if (!list || !button) return;
    const left = button.getBoundingClientRect().left - list.getBoundingClientRect().left + list.scrollLeft;
    list.scrollLeft = Math.max(0, left - (list.clientWidth - button.offsetWidth) / 2);
  }, []);
  useEffect(() => {
    const list = row.current;
    if (!list) return;
    if (myTurn && draws === 0 && selected === null && playable.size > 0) {
      const hidden = outOfSight();
      if (hidden.length === playable.size) scrollTo(hidden[0]);
    }
    const update = () => setHiddenPlayable(outOfSight());
    update();
    list.addEventListener("scroll", update, { passive: true });
    window.addEventListener("resize", update);
    return () => {
      list.removeEventListener("scroll", update);
      window.removeEventListener("resize", update);
    };
    // Once a turn and whenever the tiles change (a draw), not on every selection.
  }, [myTurn, draws, playable, hand.length, outOfSight, scrollTo]);

  return (
    <>
    <ul
      ref={row}
      className="tr-hand scroll-fade"
      tabIndex={-1}
      aria-label={t("triominos.ui.your_tiles", { number: hand.length })}
      style={{ "--tr-hand-count": Math.max(1, hand.length) } as CSSProperties}
    >
      {hand.map((tile) => {
        const canPlay = myTurn && playable.has(tile);
        const isSelected = selected === tile;
        // On one's turn a greyed tile says why: it fits nowhere on the table now, or, on
        // an empty table, the round opens with another tile (TR-SETUP-4).
        const drawn = justDrawn(tile);
        const greyed = opening ? "triominos.ui.tile_not_opening" : "triominos.ui.tile_fits_nowhere";
        const label = t(myTurn && !canPlay ? greyed : "triominos.ui.tile_label",
          { tile, count: tileValue(tile) }) + (drawn ? ` · ${t("triominos.ui.just_drawn")}` : "");
        return (
          <li key={tile} className={drawn ? "tr-just-drawn" : undefined}>
            {drawn && (
              <span className="tr-drawn-badge" aria-hidden="true">
                {t("triominos.ui.just_drawn")}
              </span>
            )}
            <button
              type="button"
              className={`tr-hand-tile ${isSelected ? "selected" : ""} ${canPlay ? "playable" : ""}`}
              data-tile={tile}
              data-playable={canPlay ? "true" : "false"}
              aria-pressed={isSelected}
              title={label}
              disabled={!canPlay && !myTurn}
              aria-disabled={!canPlay}
              // A click from the keyboard has no pointer position: detail 0.
              onClick={(event) => (canPlay ? onSelect(isSelected ? null : tile, event.detail === 0) : setHint(label))}
            >
              <TileGlyph tile={tile} className="tr-hand-glyph" />
              <span className="sr-only">{label}</span>
            </button>
          </li>
        );
      })}
    </ul>
    {hint !== null && (
      <p className="tr-hand-hint" role="status" data-hint="fits-nowhere">
        {hint}
      </p>
    )}
    {hiddenPlayable.length > 0 && (
      <button type="button" className="tr-hand-more tap-wide" data-action="more-tiles" onClick={() => scrollTo(hiddenPlayable[0])}>
        {t("triominos.ui.more_tiles_fit", { count: hiddenPlayable.length })}
      </button>
    )}
    </>
  );
}
