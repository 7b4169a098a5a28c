// A Dixit game in the browser: the clue, the table of cards, your hand and what you
// may do now, the scoring track, the reveal of each round and the final ranking.
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import { forgetKept, keep, readKept } from "../../app/keptChoice";
import { useScreenHold } from "../../app/screenHold";
import type { TFunction } from "i18next";
import { useTranslation } from "react-i18next";
import { useDecisionsOpen, useReplayMode, useScreenMode, useTableEnded } from "../../app/replay";
import { infoAt, seatName, shortSeatName, waitingKey } from "../../app/seatName";
import { useAwaySeats, useMyDeadline, useTimeLeft } from "../../app/TurnClock";
import { useFillHeight, useNarrow, ZOOMED } from "../../app/useLayout";
import { usePagesThrough } from "../../app/usePagesThrough";
import { scrollBehavior } from "../../app/motion";
import type { Action, TableInfo } from "../../app/types";
import type { GameTableProps } from "../registry";
import { ActionPanel } from "./ActionPanel";
import { CardBack } from "./Card";
import { CardZoom } from "./CardZoom";
import { ClueText } from "./ClueText";
import { FinalRanking, rankedEntries } from "./FinalRanking";
import { gameOverStatus } from "../../app/gameOver";
import { useSteady } from "../../app/moveInFlight";
import { Hand } from "./Hand";
import { findSubmit, findVote, readLegal } from "./legal";
import { Players } from "./Players";
import { History } from "./History";
import { Reveal } from "./Reveal";
import { ScoreTrack } from "./ScoreTrack";
import { statusText } from "./status";
import { Submissions } from "./Submissions";
import { SlotButtons, TableSlots } from "./TableSlots";
import { ChatToast, TeamPanel } from "./TeamPanel";
import { normalize, type DixitView } from "./types";
import { GAP, useCardFit } from "./useCardFit";
import { useDeck } from "./useDeck";
import "./dixit.css";

/** A round's result closes by itself when this many milliseconds are left of the
 * reader's next decision (a turn clock runs). */
const REVEAL_CLOSES_MS = 15_000;

const NOTHING: Action[] = [];
const NONE: number[] = [];

/** A card seen large: from the hand, from a table slot, or from the reveal. */
type Zoom = { kind: "hand"; card: number } | { kind: "slot"; slot: number; card: number } | { kind: "other"; card: number; title: string };

/** Add or remove `item`; with room for one, choosing another replaces it. */
/** Whether choosing `item` is refused: `room` (two or more) items are chosen and it is
 * not one of them. With room for one, a new choice replaces the old. */
function isFull(list: number[], item: number, room: number): boolean {
  return room > 1 && list.length >= room && !list.includes(item);
}

/** Where the focus goes after a keyboard choice, the first of these that is there and
 * enabled: a selection that is not complete yet leaves the confirm button disabled, and
 * the focus stays on the choice. */
const AFTER_CHOICE = [
  ".dx-clue-form input[name=clue]:not(:disabled)",
  "[data-action=send-clue]:not(:disabled)",
  "[data-action=submit]:not(:disabled)",
];
const AFTER_VOTE = ["[data-action=cast-vote]:not(:disabled)"];

/** The table's box fades out over its last 28 px where more is below (styles.css). */
const FADE = 28;

/** After a vote is put on ``slot``: the board scrolls as little as keeps that card whole
 * in sight between the clue pinned at the box's top and its faded foot, and, as far as
 * that allows, brings the other chosen cards (``others``) into sight too. A button the
 * browser brought into sight for the choice (a click, Tab) was centred in the box: on a
 * phone the Party red vote on the second row left the green vote's card wholly under the
 * clue. */
function keepChoicesInSight(board: HTMLElement, slot: number, others: number[]): void {
  if (board.scrollHeight <= board.clientHeight + 1) return;
  const card = (n: number) => board.querySelector<HTMLElement>(`.dx-slot[data-slot="${n}"]`)?.getBoundingClientRect();
  const chosen = card(slot);
  if (!chosen) return;
  const box = board.getBoundingClientRect();
  const clue = board.querySelector<HTMLElement>(".dx-round > .dx-clue-box")?.getBoundingClientRect();
  const top = Math.max(box.top + board.clientTop, clue?.bottom ?? 0);
  const bottom = box.top + board.clientTop + board.clientHeight - FADE;
  // How far the board may scroll (down: positive) with the chosen card whole in sight.
  const least = Math.min(chosen.bottom - bottom, chosen.top - top);
  const most = chosen.top - top;
  const rest = others.map(card).filter((r): r is DOMRect => r !== undefined);
  let wanted = 0;
  if (rest.length) {
    const restTop = Math.min(...rest.map((r) => r.top));
    const restBottom = Math.max(...rest.map((r) => r.bottom));
    if (restTop < top) wanted = restTop - top;
    else if (restBottom > bottom) wanted = Math.min(restBottom - bottom, restTop - top);
  }
  const by = Math.round(Math.min(Math.max(wanted, least), most));
  if (Math.abs(by) >= 1) board.scrollBy({ top: by, behavior: scrollBehavior() });
}

function toggle(list: number[], item: number, room: number): number[] {
  if (list.includes(item)) return list.filter((x) => x !== item);
  const next = [...list, item];
  return next.slice(Math.max(0, next.length - room));
}

/** The facts line's draw pile. Where the discard pile is shuffled into a new draw pile
 * (DX-ROUND-6, the IS edition), a pile too short for the next round says so, rather than
 * announcing an end that does not come. */
function drawPileFact(t: TFunction, info: TableInfo, view: DixitView): string {
  const perRound = Number(info.public.cards_per_round ?? view.seats);
  if (info.public.end_on_empty_deck === false && !view.finished && view.draw_pile < perRound) {
    return t("dixit.ui.draw_pile_reshuffle", { count: view.draw_pile });
  }
  return t("dixit.ui.draw_pile", { count: view.draw_pile });
}

/** Pixels under a revealed card for its owner and a first row of votes. */
const REVEAL_UNDER = 64;
/** Pixels of a further row of votes (the big screen's). */
const VOTES_ROW = 24;
/** From this many revealed cards the big screen shows them in one row. */
const ONE_ROW_FROM = 9;
/** Windows where the table, the hand and the players stand one above another (as on a
 * phone): narrow ones, and a tablet held upright, beside whose 340 px side panel the
 * hand showed one card and a half. */
const STACKED = "(max-width: 43.75em), (max-width: 68.75em) and (orientation: portrait)";
/** A phone held sideways (844 × 390): laid out as on a phone (the players in a strip, the
 * cards at a phone's sizes), but the table and the hand stand side by side, both in the
 * window (stacked, the hand was below its edge). */
const SIDEWAYS = "(max-height: 31.25em) and (min-aspect-ratio: 3/2)";

/** Players at most for the large hand while the clue is given and cards come in. */
const BIG_HAND_SEATS = 8;
/** Windows that draw that hand large (dixit.css). */
const BIG_HAND_WINDOW = "(min-width: 75em) and (min-height: 47.5em)";
/** A revealed card narrower than this (pixels) names its owner alone under it, as on a
 * phone ("Carta de Computador 4" was cut to "Carta de Comput…" on a tablet with eight
 * cards). */
const COMPACT_SLOT_W = 120;
/** Pixels a slot's vote button takes under its card on a phone held sideways. */
const SIDEWAYS_BUTTON = 47;
/** Pixels the clue and its teller's name take above the cards there. */
const SIDEWAYS_CLUE_ABOVE = 56;

/** Pixels under a card voted on for its buttons (Vote, and Party's Red beside it: 44 px
 * and the gap above them, measured). */
const VOTE_UNDER = 56;
/** From this many cards on the table a wide window fits them whole with smaller buttons. */
const CROWDED_FROM = 7;

/** The narrowest the points' breakdown may be to stand beside the reveal's cards. */
const POINTS_BESIDE = 250;
/** Pixels under a card coming in, on the big screen: the giver's name and "card in". */
const GIVEN_UNDER = 72;
/** Pixels the clue and its teller's name take above the cards, on the big screen. */
const CLUE_ABOVE = 130;
/** The widest a card grows on the big screen, in pixels before the screen's zoom. */
const SCREEN_CARD_MAX = 330;

/** Pixels between the top of the board's content and the cards voted on (the clue and
 * its teller's name, a turn clock's row), measured while ``active``; 0 otherwise. */
function useSlotsAbove(board: React.RefObject<HTMLDivElement | null>, active: boolean): number {
  const [above, setAbove] = useState(0);
  useLayoutEffect(() => {
    const element = board.current;
    if (!active || !element) return;
    const measure = () => {
      const slots = element.querySelector(".dx-slots");
      if (!slots) return;
      const padding = parseFloat(getComputedStyle(element).paddingTop) || 0;
      const next = Math.ceil(Math.max(0, slots.getBoundingClientRect().top - element.getBoundingClientRect().top + element.scrollTop - padding));
      setAbove((old) => (Math.abs(old - next) < 2 ? old : next));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    const clue = element.querySelector(".dx-clue-box");
    if (clue) observer.observe(clue);
    return () => observer.disconnect();
  }, [board, active]);
  return active ? above : 0;
}

/** Where the hand is drawn large (a laptop's window while the clue is given and the cards
 * come in, dixit.css), its cards take the height the table leaves, measured: the table's
 * content (a prompt, or the clue and the cards coming in with their givers' names) is
 * what it is, and the hand's cards are as wide as leaves it room. A prompt on two lines
 * (a storyteller's teammate in Team Dixit, or a longer language) took 23 px of the table,
 * and the names under the cards coming in were cut at its bottom edge (the table scrolled
 * by 2 to 18 px at 1366 × 768): a width from the window's height alone cannot know it.
 * Sets ``--hand-room`` (pixels) on the table's element while ``active``, the widest a
 * hand's card may be; the width from the window's height (dixit.css) stays the most. */
function useHandRoom(
  tableRef: React.RefObject<HTMLDivElement | null>,
  boardRef: React.RefObject<HTMLDivElement | null>,
  active: boolean,
) {
  const fitRef = useRef<() => void>(() => {});
  useLayoutEffect(() => {
    const table = tableRef.current;
    const board = boardRef.current;
    if (!table || !board) return;
    if (!active) {
      table.style.removeProperty("--hand-room");
      fitRef.current = () => {};
      return;
    }
    const fit = () => {
      // A few passes: each sets the width the room measured calls for (a card's height
      // is 1.5 times its width); a width the hand's own breadth keeps smaller anyway
      // changes nothing further.
      for (let pass = 0; pass < 3; pass++) {
        const round = board.querySelector(":scope > .dx-round");
        const card = table.querySelector(".dx-hand-card");
        const first = round?.firstElementChild;
        const last = round?.lastElementChild;
        if (!card || !first || !last) return;
        const style = getComputedStyle(board);
        const content = last.getBoundingClientRect().bottom - first.getBoundingClientRect().top;
        const free = board.clientHeight - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom) - content;
        const set = table.style.getPropertyValue("--hand-room");
        const room = set ? parseFloat(set) : null;
        // It fits: keep the width unless room is held back that the table does not need.
        if (free >= 0 && (room === null || free < 2)) return;
        const width = card.getBoundingClientRect().width;
        const next = Math.max(0, Math.floor(width + free / 1.5));
        if (room !== null && next <= room && free >= 0) return;
        if (next === room) return;
        table.style.setProperty("--hand-room", `${next}px`);
      }
    };
    fitRef.current = fit;
    let frame = 0;
    const later = () => {
      if (!frame) frame = requestAnimationFrame(() => {
        frame = 0;
        fit();
      });
    };
    // The window's and the status line's changes reach the table's and the board's size.
    const observer = new ResizeObserver(later);
    observer.observe(table);
    observer.observe(board);
    void document.fonts?.ready.then(later);
    return () => {
      observer.disconnect();
      cancelAnimationFrame(frame);
      fitRef.current = () => {};
    };
  }, [tableRef, boardRef, active]);
  // What the board holds changes with the view (the clue told, cards coming in, a name
  // on two lines): measured after each render, before it is drawn.
  useLayoutEffect(() => {
    fitRef.current();
  });
}

/** The CSS zoom of `ref`'s element (the big screen's, useFitZoom.ts), followed while
 * `active`; 1 otherwise or where the browser does not say. */
function useZoomOf(ref: React.RefObject<HTMLElement | null>, active: boolean): number {
  const [zoom, setZoom] = useState(1);
  useEffect(() => {
    if (!active) return;
    const read = () => {
      const now = (ref.current as (HTMLElement & { currentCSSZoom?: number }) | null)?.currentCSSZoom;
      setZoom(typeof now === "number" && now > 0 ? now : 1);
    };
    read();
    window.addEventListener(ZOOMED, read);
    return () => window.removeEventListener(ZOOMED, read);
  }, [ref, active]);
  return active ? zoom : 1;
}

export function DixitTable(props: GameTableProps) {
  const { info, state, send } = props;
  const { t } = useTranslation();
  const away = useAwaySeats();
  const view = useMemo(() => normalize(state.view), [state.view]);
  // Just after taking a seat, the spectator's view may still be the latest one.
  const seat = props.seat !== null && (view.seat === undefined || view.seat === props.seat) ? props.seat : null;
  const stacked = useNarrow(STACKED);
  const sideways = useNarrow(SIDEWAYS);
  const narrow = stacked || sideways;
  const tableRef = useRef<HTMLDivElement>(null);
  const belowRef = useRef<HTMLDivElement>(null);
  const boardRef = useRef<HTMLDivElement>(null);
  // At least 460 px: a laptop's 1366 × 650 window fits the table without scrolling the
  // page (the hand gives the table its room while the cards are voted on, dixit.css).
  useFillHeight(tableRef, sideways ? 240 : narrow ? 560 : 460, narrow ? 0 : 12);
  const deck = useDeck(info, view.deck);
  const player = useCallback((s: number) => seatName(t, info, s), [t, info]);
  // Before "'s" a computer player is "Computer 2", not "Computer 2 · Hard" ("Computer 2 ·
  // Hard's clue" read as the level's); the players' list says the level.
  const owner = useCallback((s: number) => shortSeatName(t, info, s), [t, info]);
  // The clue's teller as the seat was held when it was told (one who took the seat over
  // since was named as its teller).
  const tellerInfo = useMemo(() => (view.told_at != null ? infoAt(info, view.told_at - 1) : info), [info, view.told_at]);
  const teller = view.storyteller !== null ? shortSeatName(t, tellerInfo, view.storyteller) : "";
  const isComputer = useCallback((s: number) => info.seats[s]?.kind === "bot", [info]);

  // No decision is anyone's to make in a replay, nor at a table its host ended.
  const decisionsOpen = useDecisionsOpen();
  const myTurn = decisionsOpen && seat !== null && state.to_act.includes(seat);
  // While the clue is given and cards come in, a laptop draws the hand large (dixit.css):
  // not in a replay, whose controls take the room, nor with more than eight players,
  // whose cards coming in take two rows of the table.
  const bigHand = decisionsOpen && view.seats <= BIG_HAND_SEATS;
  const bigHandWindow = useNarrow(BIG_HAND_WINDOW);
  const legal = myTurn ? state.legal : NOTHING;
  const options = useMemo(() => readLegal(legal), [legal]);
  const [chosen, setChosen] = useState<number[]>([]);
  const [green, setGreen] = useState<number[]>([]);
  const [red, setRed] = useState<number | null>(null);
  // Dixit Party: the red vote was put on the green vote's card, which took the green away.
  const [greenDisplaced, setGreenDisplaced] = useState(false);
  // Two cards to give (3 players) or two votes (7 or more, IS): a third tapped while both
  // are chosen changes nothing and the hint says how to change one (it had put the first
  // back without a word).
  const [choiceFull, setChoiceFull] = useState(false);
  const [zoom, setZoom] = useState<Zoom | null>(null);
  // The reveal of a round shows once, when it happens, until "continue"; a reload does
  // not bring back a reveal already closed (the button under the status does). One
  // closed by nobody (the page reloaded as it was read) is shown again until the next
  // clue is told.
  const lastRound = view.last_round;
  const seenKey = `gametable.reveal-seen.${info.id}`;
  const [dismissed, setDismissedHere] = useState<number | null>(() => {
    if (view.finished || !lastRound) return null;
    const seen = Number(sessionStorage.getItem(seenKey) ?? NaN);
    const unread = seen !== lastRound.round && view.round === lastRound.round + 1 && view.clue === null;
    return unread ? null : lastRound.round;
  });
  const setDismissed = useCallback(
    (round: number | null) => {
      setDismissedHere(round);
      if (round !== null) sessionStorage.setItem(seenKey, String(round));
    },
    [seenKey],
  );
  // Someone watching (the big screen, which nobody clicks) sees it until the next clue.
  const nextClueTold = lastRound !== null && view.round > lastRound.round && view.clue !== null;
  // The big screen keeps it up a while even so (a computer storyteller tells at once),
  // but not over the next round's vote: with computer players giving at once, the room
  // saw the vote's cards never, the status line counting votes over the last result.
  const nextVote = lastRound !== null && view.round > lastRound.round && view.phase === "vote";
  const held = useScreenHold(lastRound?.round ?? null) && !nextVote;
  // …unless they asked for it again ("Previous round": for someone watching, and in a
  // replay, the button did nothing once the next clue was told).
  const [askedFor, setAskedFor] = useState<number | null>(null);
  const showReveal =
    lastRound !== null &&
    dismissed !== lastRound.round &&
    !view.finished &&
    (askedFor === lastRound.round || !(seat === null && nextClueTold && !held));
  // With a turn clock the next decision's time runs while the result covers the hand:
  // the result says how long is left, and closes by itself when little is.
  const deadline = useMyDeadline();
  const turnLeft = useTimeLeft(showReveal ? deadline : null);
  useEffect(() => {
    if (showReveal && lastRound && turnLeft !== null && turnLeft <= REVEAL_CLOSES_MS) setDismissed(lastRound.round);
  }, [showReveal, lastRound, turnLeft]);

  // A new phase or round: start the choice afresh. (In the commit that shows the phase:
  // as a passive effect it could run after a vote tapped at once, and wipe it.)
  const step = `${view.round}:${view.phase}`;
  const table = view.phase === "vote" && view.table ? view.table : null;
  // What this seat chose and has not sent yet comes back after a reload (keptChoice.ts).
  const keptKey = `gametable.dixit-choice.${info.id}.${seat}.${step}`;
  const keptStep = useRef<string | null>(null);
  useLayoutEffect(() => {
    if (keptStep.current !== null && keptStep.current !== keptKey) {
      for (const part of ["chosen", "green", "red", "clue"]) keep(`${keptStep.current}.${part}`, null);
    } else if (keptStep.current === null) {
      // Opened (or reloaded) in another phase than the one a choice was kept for.
      forgetKept(`gametable.dixit-choice.${info.id}.`, `${keptKey}.`);
    }
    keptStep.current = keptKey;
    // (Once sent, the seat waits: its choice is not shown again.)
    setChosen((myTurn && readKept<number[]>(`${keptKey}.chosen`)) || []);
    setGreen((myTurn && readKept<number[]>(`${keptKey}.green`)) || []);
    setRed(myTurn ? readKept<number>(`${keptKey}.red`) : null);
    setGreenDisplaced(false);
    setChoiceFull(false);
    setZoom((z) => (z?.kind === "hand" ? z : null));
  }, [keptKey]);
  // What the board shows changes when a round's result opens or closes, and with the
  // phase: it opens at its top (the clue, the cards), not where the last reading left it;
  // but a result being read stays where it is while the next round begins behind it.
  const revealWasShown = useRef(showReveal);
  useEffect(() => {
    const revealToggled = revealWasShown.current !== showReveal;
    revealWasShown.current = showReveal;
    if (boardRef.current && (revealToggled || !showReveal)) boardRef.current.scrollTop = 0;
    // On a phone the result is read down the page (it scrolls as a page there): the
    // next phase opens at the page's top, the board fitted to the window again.
    if (revealToggled && !showReveal && narrow) window.scrollTo(0, 0);
  }, [step, showReveal, narrow]);

  const handChoosable = useMemo(() => {
    if (options.canClue && options.clueCards) return options.clueCards;
    if (options.submits.length) return options.submitCards;
    return new Set<number>();
  }, [options]);
  const room = options.canClue ? 1 : options.submitCount;
  // Each choice is kept as it is made (an effect would run once with the last step's
  // choice under the new step's key); keeping the same value twice does no harm.
  const kept = useCallback(<T,>(part: string, value: T): T => {
    keep(`${keptKey}.${part}`, value);
    return value;
  }, [keptKey]);
  // A choice made with the keyboard that completes what the phase asks for takes the
  // focus on to what comes next (the clue's field, "Give", "Cast my vote"): without it
  // that button lay a dozen Tab presses away, past every card's two buttons.
  // Each request is an object of its own: a request that named the same selectors as the
  // last one, made before the page had drawn that one's reset (two choices in quick
  // succession), left the state as it was, and the effect did not run again: the focus
  // stayed on the card.
  const [focusNext, setFocusNext] = useState<{ selectors: readonly string[] } | null>(null);
  useEffect(() => {
    if (!focusNext) return;
    for (const selector of focusNext.selectors) {
      const next = tableRef.current?.querySelector<HTMLElement>(selector);
      if (next) {
        next.focus();
        return;
      }
    }
  }, [focusNext]);
  // A vote just put on a card: the board keeps it and the other chosen cards in sight.
  const [voted, setVoted] = useState<{ slot: number } | null>(null);
  useEffect(() => {
    if (!voted || !boardRef.current) return;
    keepChoicesInSight(boardRef.current, voted.slot, [...green, ...(red === null ? [] : [red])].filter((s) => s !== voted.slot));
    // Once for each vote put on a card (not again as the votes change later).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [voted]);
  const chooseCard = useCallback(
    (card: number, byKeyboard = false) => {
      const full = isFull(chosen, card, room);
      setChoiceFull(full);
      if (full) return;
      setChosen((old) => kept("chosen", toggle(old, card, room)));
      if (byKeyboard && !chosen.includes(card)) setFocusNext({ selectors: AFTER_CHOICE });
    },
    [room, kept, chosen],
  );
  const chooseGreen = useCallback(
    (slot: number, byKeyboard = false) => {
      const votes = Math.max(1, options.maxVotes);
      const full = isFull(green, slot, votes);
      setChoiceFull(full);
      if (full) return;
      setGreen((old) => kept("green", toggle(old, slot, votes)));
      setRed((old) => kept("red", old === slot ? null : old));
      setGreenDisplaced(false);
      if (!green.includes(slot)) setVoted({ slot });
      if (byKeyboard && !green.includes(slot)) setFocusNext({ selectors: AFTER_VOTE });
    },
    [options.maxVotes, kept, green],
  );
  const chooseRed = useCallback(
    (slot: number, byKeyboard = false) => {
      setRed((old) => kept("red", old === slot ? null : slot));
      setGreen((old) => kept("green", old.filter((s) => s !== slot)));
      if (green.includes(slot)) setGreenDisplaced(true);
      if (red !== slot) setVoted({ slot });
      if (byKeyboard && red !== slot) setFocusNext({ selectors: AFTER_VOTE });
    },
    [green, red, kept],
  );

  const act = useCallback(
    (action: Action | null) => {
      if (!action) return;
      setZoom(null);
      send(action);
    },
    [send],
  );
  // The same functions from one message to the next, so that the memoised action panel,
  // hand and table slots are not redone for a chat line or another seat's action.
  const sendClaim = useCallback(() => act({ type: "claim" }), [act]);
  const sendClue = useCallback(
    (text: string, mime: boolean) =>
      act(options.clueCards ? { type: "clue", card: chosen[0], text, mime } : { type: "clue", text, mime }),
    [act, options, chosen],
  );
  const sendSubmit = useCallback(() => act(findSubmit(options, chosen)), [act, options, chosen]);
  const sendGiver = useCallback((s: number) => act({ type: "giver", seat: s }), [act]);
  const sendVote = useCallback(() => act(findVote(options, green, red)), [act, options, green, red]);
  const sendTakeBack = useCallback(() => act({ type: "take_back" }), [act]);
  const zoomHand = useCallback((card: number) => setZoom({ kind: "hand", card }), []);
  const zoomSlot = useCallback(
    (slot: number) => {
      if (table) setZoom({ kind: "slot", slot, card: table[slot - 1] });
    },
    [table],
  );

  const ended = useTableEnded();
  // A replay is read by anyone: its status names the winner, never "you".
  const replay = useReplayMode();
  // A game its host ended shows its last position with nobody at work in it.
  const asShown = useMemo(() => (ended && !view.finished ? { ...view, finished: true } : view), [ended, view]);
  // The big screen, which nobody clicks, keeps a round's result until the next clue.
  const onScreen = useScreenMode();
  // A finished game says who won where the ranking, scrolled away, no longer does.
  const winners = view.finished && !ended ? rankedEntries(t, view, state.outcome, player).filter((e) => e.rank === 1) : [];
  const next = winners.length
    ? gameOverStatus(t, winners.map((e) => e.label), !replay && seat !== null && winners.some((e) => e.seats.includes(seat)))
    : statusText(t, {
        view: ended ? { ...view, finished: true } : view,
        seat,
        options,
        player,
        // A replay shows a past position: who moves next, not someone at work now.
        waiting: (s) => (replay ? "ui.replay.next_move" : waitingKey(info, s, away)),
        openSeat: !replay && info.seats.some((s) => s.kind === "open"),
      });
  // While the last round's result covers the hand, the status line said "Give the card
  // from your hand…" of a hand out of sight: it says how to get back to it first.
  // Once the next round has begun, the line says so between the two tasks. Between a
  // move and the state that answers it the line keeps what it said.
  // The next round's clue, where the result hides it, comes before what to do with it
  // ("… has begun: Give the card that fits the clue best" named no clue).
  const nextClueSaid =
    view.clue && view.storyteller !== null && (view.phase === "submit" || view.phase === "vote")
      ? `${t("dixit.ui.clue_by", { player: teller })}: ${
          view.clue.mime && !view.clue.text ? t("dixit.ui.clue_mime") : `${t("dixit.ui.clue_quoted", { text: view.clue.text })}.`
        } `
      : "";
  const status = useSteady(
    showReveal && lastRound && seat !== null && !onScreen
      ? view.finished || ended || view.round <= lastRound.round
        ? t("dixit.ui.status.after_reveal", { round: lastRound.round, next })
        : // A replay says who moves next as a sentence of its own ("… has begun: Next
          // move: Ana").
          t(replay ? "dixit.ui.status.after_reveal_next_replay" : "dixit.ui.status.after_reveal_next", {
            round: lastRound.round,
            next_round: view.round,
            next: nextClueSaid + next,
          })
      : next,
  );
  // While a round's reveal shows, its cards are sized so that they and the two lines
  // under each (the owner, the first votes) fit the table under the heading, on a
  // 1366 × 768 laptop's window too; more votes may scroll.
  const [revealAbove, setRevealAbove] = useState(64);
  const [revealBelow, setRevealBelow] = useState(0);
  const measureReveal = useCallback((above: number, below: number) => {
    setRevealAbove((old) => (Math.abs(old - above) < 2 ? old : above));
    setRevealBelow((old) => (Math.abs(old - below) < 2 ? old : below));
  }, []);
  // The big screen sizes the last round's cards at the end too: nobody scrolls a TV.
  const finalOnScreen = onScreen && view.finished && lastRound !== null;
  const fitReveal = (showReveal || finalOnScreen) && lastRound !== null && !narrow;
  // There the ranking takes the players' place beside the table, which keeps the round.
  const rankingAside = finalOnScreen && !narrow;
  // The big screen sizes the cards coming in to the table too (on a laptop they are small
  // beside one's hand), and lets every card grow with the TV: it is read from the sofa.
  const fitGiven = onScreen && !narrow && !showReveal && !view.finished && view.phase === "submit";
  // A phone held sideways has too little height for a readable card above its button:
  // the table's cards are fitted whole to the window (a tap shows one large).
  const fitSideways = sideways && table !== null && !showReveal;
  // In a wide window the cards voted on are sized to fit under the clue, whose height is
  // measured (a turn clock's row or a long clue takes some of the board: the fifth
  // card's Vote button was below the box's edge).
  const wideVote = !narrow && !onScreen && table !== null && !showReveal;
  const slotsAbove = useSlotsAbove(boardRef, wideVote);
  const roomy = useCardFit(boardRef, wideVote ? table.length : 0, options.votes.length ? VOTE_UNDER : 16, 120, 240, false, slotsAbove);
  // Seven to twelve cards voted on in a tablet's or small laptop's window (1024 × 768),
  // or fewer that do not fit under full-size buttons: eight were in sight, the others in
  // a box that scrolled. They are fitted whole, their buttons a size smaller, as on a
  // phone held sideways.
  const crowded = wideVote && (table.length >= CROWDED_FROM || roomy.fits === false);
  const compact = fitSideways || crowded;
  // On the big screen nine to twelve revealed cards stand in one row, smaller, with room
  // under each for a second row of votes (nobody scrolls a TV): in two rows each row
  // paid for its owners and votes, and at 720p the points were left no room. A card's
  // owner and votes are 12 px as drawn however far the table is zoomed out (dixit.css),
  // so that room grows as it is (at 0.6 they took twice the 64 px allowed).
  const revealed = lastRound?.slots.length ?? 0;
  const oneRow = onScreen && fitReveal && revealed >= ONE_ROW_FROM ? revealed : 1;
  const screenZoom = useZoomOf(boardRef, onScreen);
  const underCards = onScreen
    ? Math.ceil((REVEAL_UNDER + (oneRow > 1 ? VOTES_ROW : 0)) * Math.max(1, 1 / screenZoom))
    : REVEAL_UNDER;
  const fit = useCardFit(
    boardRef,
    fitReveal ? lastRound.slots.length : fitGiven ? view.gives.length : table?.length ?? 0,
    fitReveal
      ? underCards
      : fitGiven
        ? GIVEN_UNDER
        : compact
          ? (options.redSlots.size ? 2 : options.votes.length ? 1 : 0) * SIDEWAYS_BUTTON + 8
          : options.votes.length ? VOTE_UNDER : 16,
    fitReveal ? 96 : fitSideways ? 56 : crowded ? 84 : narrow ? 96 : 120,
    onScreen && !narrow ? SCREEN_CARD_MAX : fitReveal ? 150 : narrow ? 190 : 240,
    narrow && !fitSideways,
    fitReveal ? revealAbove : onScreen && !narrow ? CLUE_ABOVE : fitSideways ? SIDEWAYS_CLUE_ABOVE : wideVote ? slotsAbove : 0,
    oneRow,
  );
  // Where the cards leave room across (few of them, or cards kept small by the window's
  // height), the round's points stand beside them rather than below, in sight.
  const cardsAcross = fit.columns * fit.width + (fit.columns - 1) * GAP;
  const pointsBeside = fitReveal && (fit.area ?? 0) - cardsAcross - 2 * GAP >= POINTS_BESIDE;
  // Nobody scrolls a TV: where the points stand under the cards (nine to twelve players),
  // the big screen sizes the cards to leave the points' room below them too (two rows
  // of cards ran 170 px past a TV's bottom edge). Whether the points stand beside is
  // decided on the cards' size without that room, so the two never chase each other.
  const pointsRoom = onScreen && fitReveal && !pointsBeside ? revealBelow : 0;
  const screenFit = useCardFit(boardRef, pointsRoom ? lastRound?.slots.length ?? 0 : 0, underCards, 72, SCREEN_CARD_MAX, false, revealAbove + pointsRoom, oneRow);
  const cardFit = pointsRoom ? screenFit : fit;
  const handHidden = view.hand_hidden;
  // On a phone the board scrolls inside the page so that the hand stays in the window;
  // where there is no hand to keep (watching, the end) or a round's result is read, the
  // page scrolls instead: the points and the end's buttons were out of sight in a box
  // nothing said could scroll.
  const pageScrolls = narrow && (seat === null || asShown.finished || showReveal);
  const clueStays = view.phase === "vote" && !showReveal;
  // Nobody scrolls a TV: a round's result taller than the board (nine to twelve players'
  // votes and points) is shown a page at a time (the last players' points were cut off).
  usePagesThrough(boardRef, onScreen && (showReveal || view.finished));
  // …and so is the end's ranking beside it (twelve rows under who reached the target).
  const sideRef = useRef<HTMLElement>(null);
  usePagesThrough(sideRef, onScreen && view.finished);
  // The large hand's cards are as wide as the table's content leaves room for.
  const handLarge = bigHand && bigHandWindow && !narrow && !showReveal && !view.finished;
  useHandRoom(tableRef, boardRef, handLarge && seat !== null && (view.phase === "clue" || view.phase === "submit"));

  const board = (
    <div
      ref={boardRef}
      // On a phone the table scrolls inside the page: it fades out where more is below
      // (the seventh and eighth cards of a vote were out of sight with no sign of them).
      // In a wide window it fades at its bottom alone while more is below (its top holds
      // a round result's heading, which stays in sight).
      // While the cards are voted on, the clue stays at the box's top: it fades below only.
      className={`dx-board ${!narrow ? "scroll-fade-below" : pageScrolls ? "" : clueStays ? "scroll-fade-below" : "scroll-fade-block"}`}
      style={{ ["--slot-w" as string]: `${cardFit.width}px`, ["--slot-columns" as string]: String(cardFit.columns) }}
    >
      {view.finished && !rankingAside && <FinalRanking info={info} view={view} seat={seat} outcome={state.outcome} />}
      {showReveal || view.finished ? (
        // A round's result, or at the end the last one (fitted on the big screen too).
        lastRound && (
          <Reveal
            info={info}
            view={view}
            round={lastRound}
            deck={deck}
            seat={seat}
            onContinue={showReveal && !onScreen ? () => setDismissed(lastRound.round) : null}
            turnLeft={showReveal ? turnLeft : null}
            onZoom={(card, title) => setZoom({ kind: "other", card, title })}
            onMeasure={fitReveal ? measureReveal : undefined}
            compact={narrow || cardFit.width < COMPACT_SLOT_W}
            pointsBeside={pointsBeside}
            oneRow={oneRow > 1}
          />
        )
      ) : (
        <div className="dx-round" data-phase={view.phase}>
          {view.clue ? (
            <div className="dx-clue-box">
              <span className="dx-clue-by">{t("dixit.ui.clue_by", { player: teller })}</span>
              <ClueText clue={view.clue} />
            </div>
          ) : (
            <PhasePrompt view={view} seat={seat} player={player} past={replay || ended} />
          )}
          {view.phase === "submit" && <Submissions info={info} view={view} deck={deck} seat={seat} over={ended} />}
          {table && (
            <TableSlots
              deck={deck}
              table={table}
              ownSlots={view.own_slots}
              voteSlots={options.voteSlots}
              redSlots={options.redSlots}
              green={green}
              red={red}
              cast={view.my_vote}
              onGreen={chooseGreen}
              onRed={chooseRed}
              onZoom={zoomSlot}
            />
          )}
        </div>
      )}
      {narrow && (
        <div className="dx-board-extra">
          {/* Team Dixit: the teams and their chat, where teammates decide, come first */}
          {view.teams && <TeamPanel {...props} seat={seat} view={view} />}
          <ScoreTrack info={info} view={view} narrow />
        </div>
      )}
    </div>
  );

  // The big screen keeps the round in play in view for the room (the last result shows
  // there until the next clue anyway).
  const lastButton = lastRound && !showReveal && !view.finished && !onScreen && (
    <button
      type="button"
      className="dx-last-button"
      data-action="show-reveal"
      onClick={() => {
        setAskedFor(lastRound.round);
        setDismissed(null);
        // From below the table (a phone) back up to the result.
        if (window.scrollY > 0) window.scrollTo({ top: 0, behavior: scrollBehavior() });
      }}
    >
      {t("dixit.ui.show_last_round")}
    </button>
  );

  const roundFact = view.rounds_total
    ? t("dixit.ui.round_of", { round: Math.max(1, view.round), limit: view.rounds_total })
    : t("dixit.ui.round", { round: Math.max(1, view.round) });
  const belowCue = narrow && lastRound !== null && !onScreen;

  return (
    <>
    <div
      ref={tableRef}
      className={`dx-table ${narrow ? "narrow" : ""} ${sideways ? "sideways" : ""} ${crowded ? "crowded" : ""} ${bigHand ? "big-hand" : ""} ${seat === null || asShown.finished ? "no-hand" : ""} ${
        pageScrolls ? "grows" : ""} ${fitSideways && (table?.length ?? 0) >= CROWDED_FROM ? "many-cards" : ""}`}
      data-version={state.version}
      data-phase={view.phase}
      data-round={view.round}
      data-variant={view.variant}
      data-my-turn={myTurn ? "true" : "false"}
      data-finished={view.finished ? "true" : "false"}
      data-reveal={showReveal ? "true" : "false"}
    >
      {/* Only the words are live (a button in the line was read out with them). */}
      <div className="dx-status" tabIndex={-1} data-status-line data-my-turn={myTurn ? "true" : "false"}>
        {/* The big screen holds a round's result a while after the next clue: the room
            reads that clue here meanwhile (it showed nowhere). */}
        {onScreen && showReveal && nextClueTold && view.clue && (
          <span className="dx-status-clue" data-next-clue="true">
            <span className="dx-status-clue-by">
              {t("dixit.ui.next_clue_by", { round: view.round, player: teller })}
            </span>
            <ClueText clue={view.clue} />
            <span aria-hidden="true">—</span>
          </span>
        )}
        <span className="dx-status-text" aria-live={replay ? "off" : "polite"}>
          {/* A screen reader hears the clue with what to do about it (it reads the status
              line as it changes; the clue above the cards is not read out by itself). */}
          {!onScreen && !showReveal && view.clue && (view.phase === "submit" || view.phase === "vote") && (
            <span className="sr-only" data-clue-said="">
              {`${t("dixit.ui.clue_by", { player: teller })}: ${
                view.clue.mime && !view.clue.text ? t("dixit.ui.clue_mime") : t("dixit.ui.clue_quoted", { text: view.clue.text })
              }. `}
            </span>
          )}
          {status}
        </span>
        <span className="dx-facts">
          {belowCue ? (
            // A phone: the last round and the history stand below the table, which fills
            // the window; the round's number says so and takes the page down to them.
            <button
              type="button"
              className="dx-below-cue tap-wide"
              data-action="to-below"
              aria-label={`${roundFact}: ${t("dixit.ui.below_table")}`}
              onClick={() => belowRef.current?.scrollIntoView({ behavior: scrollBehavior(), block: "start" })}
            >
              {roundFact}
              <span className="dx-below-arrow" aria-hidden="true">↓</span>
            </button>
          ) : (
            roundFact
          )}
          <span className="dx-facts-sep" aria-hidden="true">·</span>
          <span className="sr-only">, </span>
          {drawPileFact(t, info, view)}
        </span>
        {!narrow && lastButton}
      </div>
      {narrow && view.teams && <ChatToast seat={seat} chat={props.chat} />}
      {narrow && (
        // It scrolls sideways: a keyboard reaches it too (a tab stop, named; Chromium made
        // it one without a name).
        <div className="dx-strip scroll-fade" tabIndex={0} role="group" aria-label={t("dixit.ui.scores")}>
          <Players info={info} view={asShown} seat={seat} compact />
        </div>
      )}
      {board}
      {!narrow && (
        // It scrolls in a short window: a keyboard reaches it too (a tab stop, named).
        <aside ref={sideRef} className="dx-side" tabIndex={0} aria-label={t("dixit.ui.scores")}>
          <ScoreTrack info={info} view={view} />
          {/* Team Dixit: the teams and their chat, where teammates decide, come first */}
          {view.teams && <TeamPanel {...props} seat={seat} view={view} />}
          {rankingAside ? (
            <FinalRanking info={info} view={view} seat={seat} outcome={state.outcome} />
          ) : (
            <Players info={info} view={asShown} seat={seat} compact={false} />
          )}
          <History info={info} view={view} deck={deck} onZoom={(card, title) => setZoom({ kind: "other", card, title })} />
        </aside>
      )}
      {seat !== null && !asShown.finished && (
        <div className="dx-hand-bar">
          {handHidden ? (
            <div className="dx-hand-hidden" data-hand-hidden="true">
              <div className="dx-hand-backs" aria-hidden="true">
                {view.hand_sizes[seat] > 0 &&
                  Array.from({ length: view.hand_sizes[seat] }, (_, i) => <CardBack key={i} />)}
              </div>
              {/* Party: no hand shows while the first storyteller is claimed (DX-PARTY-2). */}
              <p>{view.phase === "claim" ? t("dixit.ui.hand_hidden_claim") : t("dixit.ui.hand_hidden")}</p>
            </div>
          ) : (
            <Hand
              deck={deck}
              hand={view.hand}
              choosable={handChoosable}
              chosen={chosen}
              given={view.my_submission ?? NONE}
              onToggle={chooseCard}
              onZoom={zoomHand}
            />
          )}
          {/* After the hand in the page's order, so that the keyboard reaches what to do
              with a card right after choosing it; it stands left of (or on a phone above)
              the hand all the same. */}
          <ActionPanel
            view={view}
            options={options}
            chosen={chosen}
            green={green}
            red={red}
            greenDisplaced={greenDisplaced}
            choiceFull={choiceFull}
            mimeAllowed={Boolean((view as { mime_or_music?: boolean }).mime_or_music ?? info.config.mime_or_music)}
            player={player}
            isComputer={isComputer}
            onClaim={sendClaim}
            onClue={sendClue}
            onSubmit={sendSubmit}
            onGiver={sendGiver}
            onVote={sendVote}
            onTakeBack={sendTakeBack}
            keptKey={keptKey}
          />
          {/* Party: every hand passed to the left at the end of the last round (DX-PARTY-6). */}
          {view.variant === "party" && view.round > 1 && !view.finished && !handHidden && (view.phase === "clue" || view.phase === "submit") && (
            <p className="dx-hand-note" data-hand-note="passed">
              {t("dixit.ui.party_passed", { player: owner((seat - 1 + view.seats) % view.seats) })}
            </p>
          )}
        </div>
      )}
      {zoom && (
        <CardZoom
          deck={deck}
          card={zoom.card}
          title={
            zoom.kind === "slot"
              ? t("dixit.ui.slot", { slot: zoom.slot })
              : zoom.kind === "other"
                ? zoom.title
                : deck.description(zoom.card) ? t("dixit.ui.your_card") : t("dixit.ui.card", { number: zoom.card + 1 })
          }
          onClose={() => setZoom(null)}
        >
          {zoom.kind === "hand" && handChoosable.has(zoom.card) && (
            <button
              type="button"
              className="primary big"
              data-action="zoom-choose"
              onClick={() => {
                chooseCard(zoom.card);
                setZoom(null);
              }}
            >
              {chosen.includes(zoom.card) ? t("dixit.ui.unchoose") : t("dixit.ui.choose_this")}
            </button>
          )}
          {zoom.kind === "slot" && (
            <SlotButtons
              slot={zoom.slot}
              canGreen={options.voteSlots.has(zoom.slot)}
              canRed={options.redSlots.has(zoom.slot)}
              green={green.includes(zoom.slot)}
              red={red === zoom.slot}
              onGreen={(slot) => {
                chooseGreen(slot);
                setZoom(null);
              }}
              onRed={(slot) => {
                chooseRed(slot);
                setZoom(null);
              }}
            />
          )}
          {zoom.kind === "slot" && view.own_slots.includes(zoom.slot) && <p className="dx-hint">{t("dixit.ui.own_card_no_vote")}</p>}
        </CardZoom>
      )}
    </div>
    {/* On a phone the history and the last round's button (which wrapped the status
        line, or took a line of its own) stand below the table, which fills the window:
        inside it, from the second round on, they took the height of the cards to vote
        on. The page scrolls to them. */}
    {narrow && (
      <div className="dx-below" ref={belowRef}>
        {lastButton}
        <History info={info} view={view} deck={deck} onZoom={(card, title) => setZoom({ kind: "other", card, title })} bringIntoView />
      </div>
    )}
    </>
  );
}

/** Before the clue: who tells, or that the role is up for the taking. A past position
 * (a replay's, or that of a game its host ended) names the storyteller without saying
 * they are thinking now, nor telling them to choose a card. */
function PhasePrompt({
  view,
  seat,
  player,
  past,
}: {
  view: DixitView;
  seat: number | null;
  player: (s: number) => string;
  past: boolean;
}) {
  const { t } = useTranslation();
  let text: string;
  const teller = view.storyteller !== null ? player(view.storyteller) : "";
  if (view.phase === "claim") text = t("dixit.ui.prompt.claim");
  else if (view.storyteller === seat && past) text = t("dixit.ui.prompt.you_storyteller");
  else if (view.storyteller === seat) text = view.hand_hidden ? t("dixit.ui.prompt.you_tell_first") : t("dixit.ui.prompt.you_tell");
  else text = t(past ? "dixit.ui.prompt.storyteller" : "dixit.ui.prompt.thinking", { player: teller });
  return (
    <div className="dx-prompt">
      <span className="dx-prompt-mark" aria-hidden="true">✎</span>
      <p>{text}</p>
    </div>
  );
}
