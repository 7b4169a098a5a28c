// The reveal of a finished round: whose card lay in each slot, the storyteller's card,
// who voted where (and the red vote), and everyone's points with their reasons.
import { useEffect, useId, useLayoutEffect, useRef, type CSSProperties } from "react";
import { useTranslation } from "react-i18next";
import { FitLabel } from "../../app/FitLabel";
import { keyboardInUse, scrollIntoViewIfNeeded } from "../../app/focus";
import { formatLeft } from "../../app/TurnClock";
import { scrollBehavior } from "../../app/motion";
import { keepNumber } from "../../app/seatName";
import type { TableInfo } from "../../app/types";
import { CardDescription, CardFace, describedBy } from "./Card";
import { ClueText } from "./ClueText";
import { roundNames } from "./roundNames";
import { colourOf, seatColour, type DixitView, type LastRound } from "./types";
import type { DeckInfo } from "./useDeck";

interface Props {
  info: TableInfo;
  view: DixitView;
  round: LastRound;
  deck: DeckInfo;
  seat: number | null;
  /** Shown in the table's place (not a dialog) on a finished game. */
  onContinue: (() => void) | null;
  onZoom: (card: number, title: string) => void;
  /** Told the height in pixels above the cards (the heading with the clue and
   * Continue) and below them (the points, where they stand under the cards; 0 beside),
   * so that the cards can be sized to fit between. */
  onMeasure?: (above: number, below: number) => void;
  /** The points' breakdown stands beside the cards (there is room across). */
  pointsBeside?: boolean;
  /** Narrow columns (a phone, or cards under 120 px): under a card only the owner's short name, the
   * storyteller's badge in one word, voters' chips on two lines if need be. */
  compact?: boolean;
  /** Milliseconds left of the reader's next decision while a turn clock runs, shown
   * beside Continue (null: none runs). */
  turnLeft?: number | null;
  /** The big screen's one row of nine to twelve cards: each voter's chip is one line,
   * as wide as its name, and where the name is wider than the card its initials. */
  oneRow?: boolean;
}

/** A name's initials for a voter's chip too narrow for the name: a word's first letter,
 * a number whole ("Player 11" is "P11"); a name of one word its first three letters. */
export function initials(name: string): string {
  const words = name.split(/\s+/u).filter(Boolean);
  if (words.length === 1) return Array.from(words[0]).slice(0, 3).join("");
  return words
    .map((word) => (/^\d+$/u.test(word) ? word : (word.match(/[\p{L}\p{N}]/u)?.[0] ?? "")))
    .join("");
}

export function Reveal({ info, view, round, deck, seat, onContinue, onZoom, onMeasure, pointsBeside = false, compact = false, turnLeft = null, oneRow = false }: Props) {
  const { t } = useTranslation();
  const ids = useId();
  // Each move named after whoever made it (a person who left later played it).
  const names = roundNames(t, info, view, round);
  const { player, short } = names; // `short`: under a card, in a chip
  const continueButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const button = continueButton.current;
    button?.focus({ preventScroll: true });
    // At the keyboard, the focused Continue is brought into sight (it was above the
    // window); a tap leaves the page where the cards are.
    if (button && keyboardInUse()) scrollIntoViewIfNeeded(button);
  }, [round.round]);
  const section = useRef<HTMLElement>(null);
  useLayoutEffect(() => {
    const element = section.current;
    const slots = element?.querySelector<HTMLElement>(".dx-reveal-slots");
    if (!element || !slots || !onMeasure) return;
    const measure = () => {
      const points = element.querySelector<HTMLElement>(".dx-reveal-body:not(.beside) > .dx-reveal-points");
      const below = points ? points.getBoundingClientRect().bottom - slots.getBoundingClientRect().bottom : 0;
      // In the table's own pixels, as the cards are fitted (a zoomed big screen's are
      // not the window's: zoomed out, the points' room came short and they ran below).
      const zoom = cssZoom(element);
      onMeasure(
        Math.ceil(Math.max(0, slots.getBoundingClientRect().top - element.getBoundingClientRect().top) / zoom),
        Math.ceil(Math.max(0, below) / zoom),
      );
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [onMeasure, round.round]);
  const groups: { key: string; seats: number[]; label: string; title?: string; whole?: boolean; colour: string }[] = view.teams
    ? view.teams.map((team, index) => ({
        key: `team-${index}`,
        seats: team,
        // Narrow columns: "Computador 5", its level in the players' list ("Computador 5 ·
        // Médio)" broke before its "·" in a team's heading).
        label: t("dixit.ui.team_of", { team: index + 1, players: team.map(compact ? short : player).join(" & ") }),
        colour: colourOf(index),
      }))
    : // A box of points is narrow: a computer player is "Computador 2", its level in the
      // players' list and the name's tooltip ("Computador 2 · / Difícil" broke at its "·"
      // in every box), its number kept with it ("Computador / 2" left it alone on a line).
      round.totals.map((_, s) => {
        const level = names.isLevel(s);
        return {
          key: `seat-${s}`,
          seats: [s],
          label: level ? keepNumber(short(s)) : player(s),
          title: level ? player(s) : undefined,
          whole: level,
          colour: colourOf(s),
        };
      });

  // The reader's own result, in the heading: with many cards the breakdown lies far
  // below them, and many pressed Continue without ever seeing why they scored.
  const reader = seat !== null && names.heldNow(seat) ? seat : null;
  const mine = reader === null ? null : groups.find((group) => group.seats.includes(reader)) ?? null;
  const myLines = mine ? round.points.filter((line) => mine.seats.includes(line.seat)) : [];
  const myPoints = myLines.reduce((sum, line) => sum + line.points, 0);
  const reason = (line: (typeof round.points)[number]) =>
    t(line.reason, { ...line.params, points: line.points, context: reasonContext(line.params), defaultValue: line.reason });
  // The reader's own lines first, then each teammate's after their name, each seat's
  // apart ("Bob: No one found it; Votes on the card: 2" read the reader's bonus as Bob's).
  const summary = (mine?.seats ?? [])
    .slice()
    .sort((a, b) => Number(b === reader) - Number(a === reader))
    .map((s) => {
      const lines = myLines.filter((line) => line.seat === s).map(reason);
      if (lines.length === 0) return "";
      return s === reader ? lines.join("; ") : `${player(s)}: ${lines.join("; ")}`;
    })
    .filter(Boolean)
    .join(" · ");
  // In a board that scrolls, the points start just under the heading, which stays in
  // sight over what scrolls (scrolled to the box's edge, their first row lay under it);
  // where the page scrolls instead (a phone), as little as brings them in sight.
  const toPoints = () => {
    const points = section.current?.querySelector<HTMLElement>(".dx-reveal-points");
    const head = section.current?.querySelector<HTMLElement>(".dx-reveal-head");
    const board = section.current?.closest<HTMLElement>(".dx-board");
    if (!points) return;
    if (!board || !head || board.scrollHeight <= board.clientHeight + 1) {
      points.scrollIntoView({ block: "nearest", behavior: scrollBehavior() });
      return;
    }
    // Where the heading's foot is once it sticks: read scrolled to the end and back
    // within one frame (nothing is painted in between).
    const was = board.scrollTop;
    board.scrollTop = board.scrollHeight;
    const under = head.getBoundingClientRect().bottom + 8;
    const target = board.scrollTop + points.getBoundingClientRect().top - under;
    board.scrollTop = was;
    board.scrollTo({ top: target, behavior: scrollBehavior() });
  };

  return (
    <section ref={section} className={`dx-reveal ${compact ? "compact" : ""} ${oneRow ? "one-row" : ""}`} data-round={round.round} aria-labelledby="dx-reveal-title">
      <header className="dx-reveal-head">
        <h2 id="dx-reveal-title">{t("dixit.ui.reveal.title", { round: round.round, player: names.storyteller })}</h2>
        {round.clue && <ClueText clue={round.clue} />}
        {onContinue && (
          <button type="button" ref={continueButton} className="primary dx-reveal-continue" data-action="continue" onClick={onContinue}>
            {t("dixit.ui.reveal.continue")}
          </button>
        )}
        {mine && (
          <p className="dx-reveal-mine" data-points={myPoints}>
            <strong>{t(view.teams ? "dixit.ui.reveal.team_scored" : "dixit.ui.reveal.you_scored", { points: myPoints })}</strong>
            {/* Team Dixit: the team's lines, the teammate's named ("Did not find the card"
                read as the reader's own, who had given the card and not voted). */}
            {myLines.length > 0 && <span> · {summary}</span>}
            {/* Beside the cards the points are in sight already. */}
            {!pointsBeside && (
              <>
                {" "}
                <button type="button" className="link-button tap-wide" data-action="see-points" onClick={toPoints}>
                  {t("dixit.ui.reveal.see_points")}
                </button>
              </>
            )}
          </p>
        )}
        {onContinue && turnLeft !== null && (
          <span className="dx-reveal-clock" role="timer" data-left={Math.max(0, Math.ceil(turnLeft / 1000))}>
            {t("dixit.ui.reveal.your_turn_left", { time: formatLeft(turnLeft) })}
          </span>
        )}
      </header>
      <div className={`dx-reveal-body ${pointsBeside ? "beside" : ""}`}>
        <ol className="dx-reveal-slots">
          {round.slots.map((slot) => {
            const owner = names.owner(slot);
            return (
              <li
                key={slot.slot}
                className={`dx-reveal-slot ${slot.storyteller ? "storyteller" : ""} ${slot.red ? "red" : ""} ${slot.owner === reader ? "mine" : ""}`}
                data-slot={slot.slot}
                data-card={slot.card}
                data-owner={slot.owner}
                data-storyteller={slot.storyteller ? "true" : undefined}
                data-votes={slot.votes.length}
              >
                <span className="dx-slot-number" aria-hidden="true">{slot.slot}</span>
                <button
                  type="button"
                  className="dx-card-button"
                  // The badges' words are part of the name, as they are of what is seen.
                  aria-label={[
                    t("dixit.ui.look_at_slot", { slot: slot.slot }),
                    ...(slot.storyteller ? [t("dixit.ui.reveal.storytellers_card")] : []),
                    ...(slot.red ? [t("dixit.ui.reveal.red_card")] : []),
                  ].join(": ")}
                  aria-describedby={describedBy(deck, slot.card, `${ids}-${slot.slot}`)}
                  onClick={() => onZoom(slot.card, t("dixit.ui.slot_card", { slot: slot.slot, player: owner }))}
                >
                  <CardFace deck={deck} card={slot.card} size="thumb" />
                  {slot.storyteller && (
                    <span className="dx-card-badge teller">
                      {/* A card narrower than the word (twelve on a 720p big screen, its
                          text 12 px as drawn): the players list's mark for the
                          storyteller; the card's name says it in words. */}
                      <FitLabel
                        full={t(compact ? "dixit.ui.reveal.storytellers_card_short" : "dixit.ui.reveal.storytellers_card")}
                        short="✎"
                      />
                    </span>
                  )}
                  {slot.red && (
                    <span className="dx-card-badge red" title={t("dixit.ui.reveal.red_card_help")}>
                      {t("dixit.ui.reveal.red_card")}
                    </span>
                  )}
                </button>
                <CardDescription deck={deck} card={slot.card} id={`${ids}-${slot.slot}`} />
                <span className="dx-reveal-owner">
                  <span className="dx-dot" style={{ background: seatColour(view, slot.owner) }} aria-hidden="true" />
                  <span className="dx-reveal-owner-text" title={t("dixit.ui.reveal.owner", { player: owner })}>
                    {/* The big screen's one row: a name with a word wider than the card
                        is its initials, as a voter's chip ("Computad" / "or" under a
                        projector's 48 px card); the tooltip names the owner in full. */}
                    {oneRow ? (
                      <span className="dx-reveal-owner-fit">
                        <FitLabel
                          full={compact ? names.ownerShort(slot) : t("dixit.ui.reveal.owner", { player: names.ownerShort(slot) })}
                          short={initials(names.ownerShort(slot))}
                          words
                        />
                      </span>
                    ) : compact ? (
                      names.ownerShort(slot)
                    ) : (
                      t("dixit.ui.reveal.owner", { player: names.ownerShort(slot) })
                    )}
                  </span>
                </span>
                <span className="dx-reveal-votes" aria-label={t("dixit.ui.reveal.votes", { count: slot.votes.length })}>
                  {slot.votes.length === 0 && <span className="muted">{t("dixit.ui.reveal.no_votes")}</span>}
                  {slot.votes.map((voter, i) => (
                    <span key={`${voter}-${i}`} className="dx-voter" data-voter={voter} title={names.voter(voter)} style={{ borderColor: seatColour(view, voter) }}>
                      {oneRow ? <FitLabel full={names.voterShort(voter)} short={initials(names.voterShort(voter))} /> : names.voterShort(voter)}
                    </span>
                  ))}
                </span>
              </li>
            );
          })}
        </ol>
        <div className="dx-reveal-points">
          {groups.map((group) => {
            const lines = round.points.filter((line) => group.seats.includes(line.seat));
            const total = lines.reduce((sum, line) => sum + line.points, 0);
            const score = round.totals[group.seats[0]];
            return (
              <section key={group.key} className="dx-reveal-group" data-seats={group.seats.join(",")} data-points={total} data-total={score}>
                <h3
                  className={group.whole ? "whole" : undefined}
                  style={group.whole ? ({ "--chars": group.label.length } as CSSProperties) : undefined}
                >
                  <span className="dx-dot" style={{ background: group.colour }} aria-hidden="true" />
                  <span className="dx-reveal-name" title={group.title}>
                    {group.label}
                  </span>
                  <span className="dx-reveal-sum">+{total}</span>
                </h3>
                <ul>
                  {lines.map((line, i) => (
                    <li key={i} data-reason={line.reason}>
                      <span>
                        {reason(line)}
                        {group.seats.length > 1 && <span className="muted"> ({(compact ? short : player)(line.seat)})</span>}
                      </span>
                      <span>+{line.points}</span>
                    </li>
                  ))}
                  {lines.length === 0 && <li className="muted">{t("dixit.ui.reveal.no_points")}</li>}
                </ul>
                <p className="dx-reveal-total">{t("dixit.ui.reveal.total", { score })}</p>
              </section>
            );
          })}
        </div>
      </div>
    </section>
  );
}

/** Which wording of a reason fits its figures: whether everyone or no one found the
 * storyteller's card (``all``), and whether a bonus met its cap (``capped``). */
export function reasonContext(params: Record<string, unknown> | undefined): string | undefined {
  if (params === undefined) return undefined;
  if (typeof params.all === "boolean") return params.all ? "everyone" : "nobody";
  // (The base game's bonus for votes on one's card, DX-SCORE-3; Party's for players on
  // the same card, DX-PARTY-5.)
  if (params.capped === true && ("votes" in params || "players" in params)) return "capped";
  return undefined;
}

/** How much CSS `zoom` enlarges `element` (the big screen zooms its table): a distance
 * the window measures, divided by it, is one in the element's own pixels. 1 where the
 * browser does not say. */
function cssZoom(element: Element): number {
  const zoom = (element as Element & { currentCSSZoom?: number }).currentCSSZoom;
  return typeof zoom === "number" && zoom > 0 ? zoom : 1;
}
