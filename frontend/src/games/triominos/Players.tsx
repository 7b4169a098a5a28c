// Everyone at the table: whose turn, tiles in hand, points this round and in all.
import { useEffect, useLayoutEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { absenceTag, heldNowAt, infoAt, seatLevel, seatName, shortSeatName } from "../../app/seatName";
import type { TableInfo } from "../../app/types";
import { score, signed } from "./placing";
import { roundBegan, seatColour, seatTint, type TriominosView } from "./types";
import { scrollBehavior } from "../../app/motion";

interface Props {
  info: TableInfo;
  view: TriominosView;
  seat: number | null;
  compact: boolean;
}

export function Players({ info, view, seat, compact }: Props) {
  const { t } = useTranslation();
  const list = useRef<HTMLUListElement>(null);
  // In the strip on a phone, whoever plays now is scrolled into sight.
  useEffect(() => {
    const strip = list.current;
    const chip = strip?.querySelector<HTMLElement>(".tr-player.current");
    if (!compact || !strip || !chip) return;
    const left = chip.offsetLeft - strip.offsetLeft;
    if (left < strip.scrollLeft || left + chip.offsetWidth > strip.scrollLeft + strip.clientWidth) {
      strip.scrollTo({ left: left - 8, behavior: scrollBehavior() });
    }
  }, [compact, view.current]);
  // Two on a phone: the narrower entry stays whole where the other keeps room for its
  // tile mark, score and a few letters (see fitTwo). Measured after every change of the
  // entries and of the strip's width.
  const two = compact && info.seats.length === 2;
  useLayoutEffect(() => {
    if (list.current) fitTwo(list.current, two);
  });
  useEffect(() => {
    const strip = list.current;
    if (!two || !strip) return;
    const observer = new ResizeObserver(() => fitTwo(strip, true));
    observer.observe(strip);
    void document.fonts?.ready.then(() => fitTwo(strip, true));
    return () => observer.disconnect();
  }, [two]);
  return (
    <ul
      ref={list}
      className={`tr-players ${compact ? "compact" : ""} ${info.seats.length <= 2 ? "few" : ""} ${compact && info.seats.length <= 2 ? "scroll-fade" : ""}`}
      aria-label={t("triominos.ui.players")}
    >
      {!compact && (
        <li className="tr-player header" aria-hidden="true">
          <span />
          <span>{t("triominos.ui.players")}</span>
          <span className="tr-right">{t("triominos.ui.tiles_column")}</span>
          <span className="tr-right">{t("triominos.ui.round_column")}</span>
          <span className="tr-right">{t("triominos.ui.score_column")}</span>
        </li>
      )}
      {info.seats.map((s) => {
        const current = view.current === s.seat;
        const out = view.out === s.seat;
        const tiles = view.hand_sizes[s.seat] ?? 0;
        const round = view.round_points[s.seat] ?? 0;
        const name = seatName(t, info, s.seat);
        // Four to a phone's row: a computer player is "Computer 3" (its level in the
        // title), so that two of them do not both read "Computer …".
        // Beside the board a computer player's level is a tag ("Computer 3" [Medium]), so
        // that a wrapped name never ends at its "·".
        const level = compact ? null : seatLevel(t, info, s.seat);
        const shown = compact || level ? shortSeatName(t, info, s.seat) : name;
        // Cut short, a name keeps its number ("Datamaski… 3", not "Datamaski…": three
        // computer players read alike).
        const numbered = compact ? /^(.*\S)(\s+\(?\d+\)?)$/u.exec(shown) : null;
        return (
          <li
            key={s.seat}
            className={`tr-player ${current ? "current" : ""} ${s.seat === seat ? "mine" : ""}`}
            data-seat={s.seat}
            data-score={view.scores[s.seat]}
            data-tiles={tiles}
            data-current={current ? "true" : undefined}
            aria-current={current ? "true" : undefined}
          >
            {compact ? (
              // On a phone the seat's colour and its tiles in hand are one mark, a tile
              // in the seat's colour with the count on it: the name gets the room that
              // the dot and "▲ 7" took. A screen reader hears the count after the name.
              // Whoever went out has a ✓ on a tile in the "out" tag's colour, the word in
              // its title.
              <span
                className={`tr-player-tiles tr-tiles-mark ${out ? "out" : ""}`}
                title={out ? t("triominos.ui.out_tag") : t("triominos.ui.tiles_in_hand", { count: tiles })}
                aria-hidden="true"
              >
                <svg viewBox="0 0 24 21" focusable="false">
                  <path d="M12 1.5 22.5 19.5H1.5Z" fill={out ? OUT_FILL : seatTint(s.seat)} stroke={seatColour(s.seat)} strokeWidth="2.5" strokeLinejoin="round" />
                  <text x="12" y="17" textAnchor="middle">
                    {out ? "✓" : tiles}
                  </text>
                </svg>
              </span>
            ) : (
              <span className="tr-seat-dot" style={{ background: seatColour(s.seat) }} aria-hidden="true" />
            )}
            <span className="tr-player-name">
              <span className="tr-player-label" dir="auto" title={compact ? name : s.kind === "bot" ? t("ui.seat.computer") : undefined}>
                {numbered ? (
                  <>
                    <span className="tr-label-head">{numbered[1]}</span>
                    <span className="tr-label-tail">{numbered[2]}</span>
                  </>
                ) : (
                  shown
                )}
              </span>
              <span className="tr-player-tags">
                {level && (
                  <span className="tag muted tr-level">
                    <span className="sr-only"> · </span>
                    {level}
                  </span>
                )}
                {/* On a phone a computer player that took over a person's seat is named
                    by the person alone ("Ola"): the tag says who plays it now. */}
                {compact && s.kind === "bot" && s.name && (
                  <span className="tag muted tr-level" data-taken-over="">
                    {t("ui.seat.computer")}
                  </span>
                )}
                {s.seat === seat && <span className={compact ? "sr-only" : "tag"}>{t("ui.seat.you")}</span>}
                {!compact && absenceTag(s) && <span className="tag muted">{t(absenceTag(s)!)}</span>}
                {/* On a phone the tile mark says "out" (a ✓ for the 0, see above): a quarter
                    of the strip had no room for the tag "sem peças", which went over two
                    lines and left "C… 3". A screen reader hears the word. */}
                {view.out === s.seat && <span className={compact ? "sr-only" : "tag"}>{t("triominos.ui.out_tag")}</span>}
                {view.starter === s.seat && (
                  <span className="tr-starter" role="img" title={t("triominos.ui.started")} aria-label={t("triominos.ui.started")}>
                    ⚑
                  </span>
                )}
              </span>
            </span>
            {/* A screen reader hears what each number is (it read "9, 0, 0": the column
                heads are drawn for the eye only). */}
            {compact ? (
              <span className="sr-only">{t("triominos.ui.tiles_in_hand", { count: tiles })}</span>
            ) : (
              <span className="tr-player-tiles" title={t("triominos.ui.tiles_in_hand", { count: tiles })}>
                <span aria-hidden="true">▲ {tiles}</span>
                <span className="sr-only">{t("triominos.ui.tiles_in_hand", { count: tiles })}</span>
              </span>
            )}
            <span className="tr-player-round" title={t("triominos.ui.round_points")}>
              <span aria-hidden="true">{signed(round)}</span>
              <span className="sr-only">{`${t("triominos.ui.round_points")}: ${signed(round)}`}</span>
            </span>
            <span className="tr-player-score" title={t("triominos.ui.score")}>
              <span aria-hidden="true">{score(view.scores[s.seat])}</span>
              <span className="sr-only">{`${t("triominos.ui.score")}: ${score(view.scores[s.seat])}`}</span>
            </span>
          </li>
        );
      })}
    </ul>
  );
}

/** The "out" tag's colour (styles.css, .tag), on the tile mark of whoever went out. */
const OUT_FILL = "#f2b544";

/** Two players on a phone share the strip in columns as wide as their entries, equally
 * where both do not fit. Beside a long name that left an entry such as "Computer 2 ⚑ 71"
 * one pixel short of its half, cut to "Comput… 2": the narrower entry is marked to keep
 * its whole width (``data-whole``, its index) as long as the other keeps its least one
 * (its tile mark, tags and score, and the name's least room); the long name takes the
 * rest. Where even that does not fit, both have half the strip. */
function fitTwo(strip: HTMLElement, two: boolean): void {
  delete strip.dataset.whole;
  const chips = Array.from(strip.querySelectorAll<HTMLElement>(":scope > .tr-player"));
  if (!two || chips.length !== 2) return;
  strip.style.gridTemplateColumns = "max-content max-content";
  const widths = chips.map((chip) => chip.getBoundingClientRect().width);
  const least = chips.map((chip, index) => {
    const name = chip.querySelector<HTMLElement>(".tr-player-name");
    if (!name) return widths[index];
    return widths[index] - name.getBoundingClientRect().width + (parseFloat(getComputedStyle(name).minWidth) || 0);
  });
  strip.style.gridTemplateColumns = "";
  const room = strip.clientWidth - (parseFloat(getComputedStyle(strip).columnGap) || 0);
  if (widths[0] + widths[1] <= room + 0.5) return; // both whole
  const short = widths[0] <= widths[1] ? 0 : 1;
  if (widths[short] <= room / 2) return; // half the strip holds it
  if (widths[short] + least[1 - short] <= room) strip.dataset.whole = String(short);
}

/** Round, who started it, end condition and pool: the facts under the players (the ⚑
 * beside a player is explained here, where a phone shows no title). */
export function RoundFacts({ info, view, seat }: { info: TableInfo; view: TriominosView; seat: number | null }) {
  const { t } = useTranslation();
  const began = roundBegan(view);
  return (
    <p className="tr-facts">
      <span data-round={view.round}>
        {view.round_limit !== null
          ? t("triominos.ui.round_of", { round: view.round, limit: view.round_limit })
          : t("triominos.ui.round", { round: view.round })}
      </span>
      {info.seats[view.starter] && (
        <span className="tr-started-by" data-starter={view.starter}>
          <span aria-hidden="true">⚑ </span>
          {/* Whoever held the seat when the round began: one who took it over since did
              not start it ("You started this round" was said to them). */}
          {view.starter === seat && heldNowAt(info, seat, began ?? 0)
            ? t("triominos.ui.started_by_you")
            : t("triominos.ui.started_by", { player: clipped(shortSeatName(t, began === null ? info : infoAt(info, began), view.starter)) })}
        </span>
      )}
      {view.target_score !== null && <span>{t("triominos.ui.target", { score: view.target_score })}</span>}
      <span className="tr-pool" data-pool={view.pool}>
        {t("triominos.ui.pool", { count: view.pool })}
      </span>
    </p>
  );
}

/** A name of at most :data:`FACT_NAME_CHARS` characters (the rest as "…"), so that a
 * fact keeps to its line on a phone. */
const FACT_NAME_CHARS = 18;
function clipped(name: string): string {
  const letters = Array.from(name);
  return letters.length > FACT_NAME_CHARS ? `${letters.slice(0, FACT_NAME_CHARS - 1).join("")}…` : name;
}
