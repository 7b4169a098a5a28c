// A Triominos game in the browser: status, table, your tiles, players, log, round results.
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useScreenHold } from "../../app/screenHold";
import { useTranslation } from "react-i18next";
import { useDecisionsOpen, useReplayMode, useScreenMode, useTableEnded } from "../../app/replay";
import { namesAt, seatName, waitingKey } from "../../app/seatName";
import { useAwaySeats } from "../../app/TurnClock";
import { gameOverStatus } from "../../app/gameOver";
import type { Action, GameEvent } from "../../app/types";
import type { GameTableProps } from "../registry";
import { Board } from "./Board";
import { markCovered, namedAt, useEventLog, type LogLine } from "../../app/eventLog";
import { EventLog, EventToast } from "./EventLog";
import { MoveAnnouncer } from "../../app/MoveAnnouncer";
import { keyboardInUse } from "../../app/focus";
import { describeEvent, isHighlight } from "./events";
import { Hand } from "./Hand";
import { OpeningChoice } from "./OpeningChoice";
import { PlaceBar } from "./PlaceBar";
import { hasAction, placeActions, placementPoints, playableTiles, score, signed, targetsFor, type Target } from "./placing";
import { Players, RoundFacts } from "./Players";
import { RoundDialog } from "./RoundDialog";
import { cornersText, statusText } from "./status";
import { TurnActions } from "./TurnActions";
import { roundBegan, type Bonus, type PublicInfo, type TriominosView } from "./types";
import { scrollBehavior } from "../../app/motion";
import { useFillHeight, useNarrow } from "../../app/useLayout";
import { useSteady } from "../../app/moveInFlight";
import "./triominos.css";

const NOTHING: Action[] = [];

/** A position chosen for the selected tile, and which of its rotations is shown. */
interface Choice {
  target: Target;
  index: number;
}

/** Windows where the board, the rack and the players stand one above another (as on a
 * phone): narrow ones, and a tablet held upright, beside whose 320 px side panel the
 * board's column was too narrow for the rack (no tile in sight, Pass spilling over).
 * A narrow window that is also short and wide (a small phone held sideways, 667 × 375; a
 * laptop at 200 %, 683 × 384) is not: stacked, its board was 145 px high under the
 * players and the page scrolled; it takes the sideways layout (SHORT) instead. */
const STACKED =
  "(max-width: 43.75em) and (min-height: 31.3125em), (max-width: 43.75em) and (max-aspect-ratio: 3/2), " +
  "(max-width: 68.75em) and (orientation: portrait)";

/** A window wide and short: a phone held sideways. */
const SHORT = "(max-height: 31.25em) and (min-aspect-ratio: 3/2)";

/** Gives the focus to the chosen tile's first place on the board, and brings that place
 * into the window: the board's own panning frame must not scroll (``preventScroll``), but
 * the page, scrolled down to the rack by the Tab presses that led there, left the place
 * half above the window's top edge. */
function focusFirstPlace(root: HTMLElement | null) {
  const place = root?.querySelector<SVGGElement>(".tr-target");
  if (!place) return;
  place.focus({ preventScroll: true });
  requestAnimationFrame(() => {
    const board = root?.querySelector(".tr-board")?.getBoundingClientRect();
    const box = place.getBoundingClientRect();
    // The part of the place that the board shows.
    const top = Math.max(box.top, board?.top ?? box.top);
    const bottom = Math.min(box.bottom, board?.bottom ?? box.bottom);
    const margin = 8;
    let by = 0;
    if (top < margin) by = top - margin;
    else if (bottom > window.innerHeight - margin) by = bottom - window.innerHeight + margin;
    if (by) window.scrollBy({ top: by, behavior: scrollBehavior() });
  });
}

/** The tile drawn last this turn (TR-DRAW-1): the one the latest draw brought into the
 * hand; null before the turn's first draw, off turn, and after a reload mid-turn (the
 * hand before the draw is not known then). */
function useLastDrawn(hand: string[], draws: number, myTurn: boolean): string | null {
  const seen = useRef<{ hand: string[]; draws: number; tile: string | null }>({ hand, draws, tile: null });
  const last = seen.current;
  if (!myTurn || draws === 0) seen.current = { hand, draws, tile: null };
  else if (draws !== last.draws) {
    const before = new Set(last.hand);
    seen.current = { hand, draws, tile: hand.find((tile) => !before.has(tile)) ?? null };
  }
  return seen.current.tile;
}

export function TriominosTable({ info, seat, state, send }: GameTableProps) {
  const { t } = useTranslation();
  const away = useAwaySeats();
  const view = state.view as unknown as TriominosView;
  const setup = info.public as unknown as PublicInfo;
  const narrow = useNarrow(STACKED);
  const tableRef = useRef<HTMLDivElement>(null);
  // In a replay no summary opens by itself (the replay's controls stay in reach), and no
  // turn is anyone's to play; below its controls the table may be lower (no hand to lay).
  const replay = useReplayMode();
  // A phone held sideways (844 × 390): the table fits the window's height, the rack in
  // sight under a lower board.
  const short = useNarrow(SHORT);
  useFillHeight(tableRef, narrow ? 440 : short ? 240 : replay ? 380 : 520, narrow ? 0 : short ? 4 : 16);
  const [selected, setSelected] = useState<string | null>(null);
  const [choice, setChoice] = useState<Choice | null>(null);
  const [placesSlot, setPlacesSlot] = useState<HTMLDivElement | null>(null);
  const [shownRound, setShownRound] = useState<number | null>(() =>
    !replay && view.finished && view.rounds.length ? view.rounds.length - 1 : null,
  );
  const seenRounds = useRef(view.rounds.length);
  // A line names the seats as they were when its move was made (namesAt).
  const names = useCallback((version: number) => namesAt(t, info, version - 1), [t, info]);
  const received = useEventLog(state, 60, names);
  // The round's start (who starts and why, TR-SETUP-3/4) comes with the state that began
  // the round; the first round's comes with the game, before any page could hear of it,
  // and a page opened later missed it too: the view still has it, as the oldest line.
  const log = useMemo(() => {
    const start = view.round_start;
    if (!start || received.some((line) => line.event.type === "round_start" && Number(line.event.round) === start.round)) {
      return received;
    }
    // Named as the seats were when the round began (its starter may have left since).
    const began = roundBegan(view);
    return [
      ...received,
      { id: `start.${start.round}`, version: -1, event: start as unknown as GameEvent, names: began === null ? undefined : names(began + 1) },
    ];
  }, [received, view, names]);

  const player = useCallback((s: number) => seatName(t, info, s), [t, info]);
  const describeLine = useCallback(
    (line: LogLine) => markCovered(t, describeEvent(t, line.event, namedAt(line, player)), line, seat, info),
    [t, player, seat, info],
  );
  const bonusPoints = useCallback((bonus: Bonus) => setup.points?.[bonus] ?? 0, [setup.points]);
  const bonusLabel = useCallback(
    (bonus: Bonus) => t("triominos.ui.bonus_points", { bonus: t(`triominos.reasons.${bonus}`), points: signed(bonusPoints(bonus)) }),
    [t, bonusPoints],
  );

  const hand = view.hand ?? [];
  const open = useDecisionsOpen(); // not in a replay, nor at a table its host ended
  const ended = useTableEnded();
  const myTurn = open && seat !== null && state.to_act.includes(seat);
  const legal = myTurn ? state.legal : NOTHING;
  const drawnTile = useLastDrawn(hand, view.draws, myTurn);
  const places = useMemo(() => placeActions(legal), [legal]);
  const playable = useMemo(() => playableTiles(places), [places]);
  const targets = useMemo(() => targetsFor(places, selected, view.open), [places, selected, view.open]);
  // The starter's choice of opening (TR-SETUP-4): one placement per tile of view.openings.
  const openings = useMemo(() => {
    const tiles = view.board.length === 0 ? (view.openings ?? []) : [];
    if (tiles.length < 2) return [];
    return tiles.flatMap(({ tile }) => {
      const action = places.find((a) => a.tile === tile);
      return action ? [{ action, points: placementPoints(action, null, view, setup) }] : [];
    });
  }, [places, view, setup]);
  const canDraw = hasAction(legal, "draw");
  const canPass = hasAction(legal, "pass");

  // A new state: the old selection may no longer be legal. Keep the tile selected if it
  // still fits somewhere (after a draw, say); drop a half-made placement.
  useEffect(() => {
    setChoice(null);
    const next = selected !== null && playable.has(selected) ? selected : playable.size === 1 ? [...playable][0] : null;
    setSelected(next);
    // Drawn from the keyboard, a tile that fits takes the focus to its places, as a tile
    // chosen from the keyboard does (it stayed on Draw, the places some 18 Tabs away);
    // where nothing fits and no more may be drawn, to Pass, the one move left (it went
    // to the status line, Pass a dozen Tabs on).
    if (drawnByKeyboard.current) {
      drawnByKeyboard.current = false;
      if (next !== null) focusSoon(tableRef.current, ".tr-target");
      else if (canPass && !canDraw) focusSoon(tableRef.current, '[data-action="pass"]');
    }
    // Only a new state or what fits decides; ``selected`` is read as it was then.
  }, [state.version, playable]);

  // A round has ended: show its summary.
  useEffect(() => {
    if (view.rounds.length > seenRounds.current && !replay) setShownRound(view.rounds.length - 1);
    seenRounds.current = view.rounds.length;
  }, [view.rounds.length, replay]);

  const place = useCallback(
    (target: Target, index: number) => {
      setChoice(null);
      setSelected(null);
      // The target (or the place bar) that had the focus goes: the focus would fall to
      // the page's top, and the next turn begin a dozen Tabs away. It goes to the rack.
      const root = tableRef.current;
      const hadFocus = root !== null && root.contains(document.activeElement);
      send(target.actions[index]);
      if (hadFocus) root?.querySelector<HTMLElement>(".tr-hand")?.focus({ preventScroll: true });
    },
    [send],
  );

  const onTarget = useCallback(
    (target: Target) => {
      if (target.actions.length === 1) place(target, 0);
      else if (choice && choice.target.key === target.key) setChoice({ target, index: (choice.index + 1) % target.actions.length });
      else setChoice({ target, index: 0 });
    },
    [choice, place],
  );
  const rotate = useCallback(() => setChoice((c) => c && { ...c, index: (c.index + 1) % c.target.actions.length }), []);

  // Keys while placing: R rotates, Enter places, Escape cancels.
  useEffect(() => {
    if (!choice) return;
    const onKey = (event: KeyboardEvent) => {
      // Fields keep their keys, and buttons (the place bar's, Draw…) do what they say;
      // but a hand tile keeps the focus after a click, and a target after Enter chose
      // it: their keys are ours then (Enter on the hand tile would put it down instead
      // of laying it; on the chosen target it lays it, see BoardLayers).
      const on = event.target instanceof Element ? event.target : null;
      if (on?.closest("input, select, textarea")) return;
      if (on?.closest("button, [role=button]") && !on.closest(".tr-hand, .tr-target")) return;
      if (event.key === "r" || event.key === "R") rotate();
      else if (event.key === "Enter") place(choice.target, choice.index);
      else if (event.key === "Escape") setChoice(null);
      else return;
      event.preventDefault();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [choice, rotate, place]);

  // Escape, with no placement half made, puts a chosen tile back (its places go), the
  // focus back on it in the rack; the only tile that fits stays chosen, as when pressed.
  useEffect(() => {
    if (selected === null || choice || (playable.size === 1 && playable.has(selected))) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape" || event.defaultPrevented) return;
      event.preventDefault();
      const tile = tableRef.current?.querySelector<HTMLElement>(`.tr-hand-tile[data-tile="${selected}"]`);
      setSelected(null);
      tile?.focus();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [selected, choice, playable]);

  // A tile chosen from the keyboard: the focus goes to its first place on the table (the
  // places come before the rack in the page: Tab went on to Draw and the chat).
  const focusPlaces = useRef(false);
  const drawnByKeyboard = useRef(false);
  useEffect(() => {
    if (!focusPlaces.current || selected === null) return;
    focusPlaces.current = false;
    focusFirstPlace(tableRef.current);
  }, [selected]);
  // Bumped whenever a tile is pressed to be laid: the board brings its places into sight
  // if the view was moved off them (pressed again, the tile chosen already changed
  // nothing, and its only places stayed out of sight).
  const [lookAt, setLookAt] = useState(0);
  const select = (tile: string | null, byKeyboard = false) => {
    focusPlaces.current = byKeyboard && tile !== null;
    setChoice(null);
    // The only tile that fits is chosen already: pressed again, as on any other turn,
    // it stays chosen (it went off, and its places with it).
    // From the keyboard the focus goes on to its places, as when a tile is chosen (Enter
    // did nothing, and the places were 18 Tabs away, round the page).
    if (tile === null && selected !== null && playable.size === 1 && playable.has(selected)) {
      if (byKeyboard) focusFirstPlace(tableRef.current);
      setLookAt((n) => n + 1);
      return;
    }
    if (tile !== null) setLookAt((n) => n + 1);
    setSelected(tile);
  };

  const preview = choice ? choice.target.actions[choice.index] : null;
  const previewPoints = preview ? placementPoints(preview, choice?.target.bonus ?? null, view, setup) : 0;
  // A finished game says who won once its result dialog is closed.
  // Between a move and the state that answers it the line keeps what it said.
  const status = useSteady(
    view.finished && !ended && info.seats.length === 1
      ? // Alone at the table: the score is the news (it said "you won!").
        t("triominos.ui.final.alone", { player: player(0), points: t("triominos.ui.points", { count: view.scores[0], score: score(view.scores[0]) }) })
      : view.finished && !ended && view.winners.length
      ? gameOverStatus(t, view.winners.map(player), !replay && seat !== null && view.winners.includes(seat))
      : statusText(t, {
          view: ended ? { ...view, finished: true } : view,
          myTurn,
          player,
          // A replay shows a past position: who moves next, not someone playing now.
          waiting: (s) => (replay ? "ui.replay.next_move" : waitingKey(info, s, away)),
          rotating: choice ? choice.target.actions[0].tile : null,
          choosing: selected && targets.size ? selected : null,
          canPlace: places.length > 0,
          someFitNowhere: hand.some((tile) => !playable.has(tile)),
          canDraw,
          canPass,
          drawnTile,
        }),
  );

  const showToast = useCallback((event: GameEvent) => narrow || isHighlight(event), [narrow]);
  // On the big screen, which nobody clicks, a round's summary stays until the next
  // round's first tile is laid (the final result stays).
  const onScreen = useScreenMode();
  const held = useScreenHold(shownRound !== null ? (view.rounds[shownRound]?.round ?? null) : null);
  const nextRoundPlayed = onScreen && !held && !view.finished && view.board.length > 0 && shownRound !== null && view.rounds[shownRound]?.round !== view.round;
  const summaryOpen = shownRound !== null && view.rounds[shownRound] !== undefined && !nextRoundPlayed;

  return (
    <div
      ref={tableRef}
      className={`tr-table ${narrow ? "narrow" : ""}`}
      data-version={state.version}
      data-round={view.round}
      data-my-turn={myTurn ? "true" : "false"}
      data-finished={view.finished ? "true" : "false"}
    >
      {/* Only the words are live (a button in the line was read out with them). */}
      <div className="tr-status" tabIndex={-1} data-status-line data-my-turn={myTurn ? "true" : "false"}>
        <span className="tr-status-text" aria-live={replay ? "off" : "polite"}>
          {status}
          {/* The tile being turned, in words: read out at each turn of it. */}
          {preview && myTurn && <span className="sr-only" data-corners> {cornersText(t, preview)}</span>}
        </span>
        {view.rounds.length > 0 && (
          <button type="button" className="tr-scores-button" data-action="show-summary" onClick={() => setShownRound(view.rounds.length - 1)}>
            {view.finished ? t("triominos.ui.show_result") : t("triominos.ui.show_scores")}
          </button>
        )}
      </div>
      {narrow && (
        <div className="tr-strip">
          {/* The strip's frame is outside the row that scrolls (and fades at its edges). */}
          <div className="tr-strip-frame">
            <Players info={info} view={view} seat={seat} compact />
          </div>
          <RoundFacts info={info} view={view} seat={seat} />
        </div>
      )}
      <div className="tr-board-area">
        <Board
          view={view}
          targets={targets}
          preview={preview}
          previewSeat={seat}
          narrow={narrow}
          bonusLabel={bonusLabel}
          bonusPoints={(bonus) => signed(bonusPoints(bonus))}
          onTarget={onTarget}
          player={player}
          lookAt={lookAt}
          placesSlot={placesSlot}
        />
        {openings.length > 1 && !choice && (
          <OpeningChoice
            openings={openings}
            onOpen={(action) => {
              setChoice(null);
              setSelected(null);
              send(action);
            }}
          />
        )}
        {choice && preview && (
          <PlaceBar
            action={preview}
            index={choice.index}
            count={choice.target.actions.length}
            points={previewPoints}
            bonus={choice.target.bonus ? bonusLabel(choice.target.bonus) : null}
            onRotate={rotate}
            onConfirm={() => place(choice.target, choice.index)}
            onCancel={() => setChoice(null)}
          />
        )}
        {/* Not in a replay: its line under the controls tells the move. */}
        {!replay && <EventToast log={log} describe={describeLine} show={showToast} />}
        {!replay && <MoveAnnouncer log={log} describe={describeLine} seat={seat} version={state.version} />}
      </div>
      {!narrow && (
        <aside className="tr-side">
          <Players info={info} view={view} seat={seat} compact={false} />
          <RoundFacts info={info} view={view} seat={seat} />
          <EventLog log={log} describe={describeLine} />
        </aside>
      )}
      {seat !== null && !view.finished && (
        <div className="tr-hand-bar">
          <Hand
            hand={hand}
            draws={view.draws}
            playable={playable}
            selected={selected}
            myTurn={myTurn}
            opening={view.board.length === 0}
            onSelect={select}
          />
          {/* "2 more places out of sight ↑" (Board.tsx), in the buttons' line. */}
          <div className="tr-places-slot" ref={setPlacesSlot} />
          {/* A replay, and a game its host ended, show the rack, not buttons nobody
              may press. */}
          {!replay && !ended && (
            <TurnActions
              view={view}
              canDraw={canDraw}
              canPass={canPass}
              canPlace={places.length > 0}
              myTurn={myTurn}
              onDraw={() => {
                drawnByKeyboard.current = keyboardInUse();
                send({ type: "draw" });
              }}
              onPass={() => send({ type: "pass" })}
            />
          )}
        </div>
      )}
      {summaryOpen && (
        <RoundDialog
          info={info}
          view={view}
          seat={seat}
          outcome={state.outcome}
          index={shownRound}
          onShowRound={setShownRound}
          onClose={() => setShownRound(null)}
        />
      )}
    </div>
  );
}

/** Focus the first element of `root` that `selector` finds (the first place of the tile
 * drawn, or Pass) once it is there (within a second), unless the focus has gone
 * elsewhere than Draw (or the status line) meanwhile. */
function focusSoon(root: HTMLElement | null, selector: string): void {
  let tries = 0;
  const attempt = () => {
    const target = root?.querySelector<HTMLElement | SVGGElement>(selector);
    const now = document.activeElement;
    // Draw, or where the page put the focus while Draw was disabled for the moment.
    const onDraw = now === null || now === document.body || (now instanceof HTMLElement && (now.dataset.action === "draw" || now.hasAttribute("data-status-line")));
    if (target && onDraw) target.focus({ preventScroll: true });
    else if (!target && onDraw && ++tries < 20) window.setTimeout(attempt, 50);
  };
  window.setTimeout(attempt, 0);
}
