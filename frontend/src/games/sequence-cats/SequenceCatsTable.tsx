// A Sequence Cats game in the browser: status, board, hand, players, log, result.
import { andList } from "../../app/i18n";
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { GameOverLinks } from "../../app/GameOverLinks";
import { forgetKept, keep, readKept } from "../../app/keptChoice";
import { markCovered, namedAt, useEventLog, useNewestShown, type LogLine } from "../../app/eventLog";
import { MoveAnnouncer } from "../../app/MoveAnnouncer";
import { useDecisionsOpen, useReplayMode, useScreenMode, useTableEnded } from "../../app/replay";
import { keepSeatNumber, namesAt, seatName, shortSeatName, waitingKey } from "../../app/seatName";
import { useModal } from "../../app/useModal";
import { TimeLeftChip, useAwaySeats } from "../../app/TurnClock";
import { useNarrow, useTopOffset } from "../../app/useLayout";
import type { Action } from "../../app/types";
import type { TFunction } from "i18next";
import type { GameTableProps } from "../registry";
import { Board } from "./Board";
import { Hand } from "./Hand";
import { describeEvent } from "./events";
import { forcedTurn } from "./turn";
import { Players } from "./Players";
import { whyNotHere } from "./explain";
import { TEAM_COLOURS, indexOf, labelOf, type PublicInfo, type SequenceView } from "./types";
import "./sequence-cats.css";
import { scrollBehavior } from "../../app/motion";
import { useSteady } from "../../app/moveInFlight";

const NOTHING: Action[] = [];

export function SequenceCatsTable({ info, seat, state, send }: GameTableProps) {
  const { t, i18n } = useTranslation();
  const away = useAwaySeats();
  const view = state.view as unknown as SequenceView;
  const setup = info.public as unknown as PublicInfo;
  const layout = setup.board;
  const narrow = useNarrow("(max-width: 43.75em) and (orientation: portrait)");
  // A phone held sideways: the hand stands in a column no taller than the window.
  const sideways = useNarrow("(max-height: 31.25em) and (min-aspect-ratio: 3/2)");
  const [selected, setSelected] = useState<number | null>(null);
  // A card chosen with the keyboard takes focus to the first space it may go to (Tab
  // went through the rest of the hand and the page's bars first: some 14 presses).
  const toBoard = useRef(false);
  const selectCard = useCallback((index: number | null, byKeyboard: boolean) => {
    toBoard.current = byKeyboard && index !== null;
    setSelected(index);
  }, []);
  useEffect(() => {
    if (!toBoard.current) return;
    toBoard.current = false;
    tableRef.current?.querySelector<HTMLElement>('.sc-space[data-target="true"]')?.focus();
  }, [selected]);
  const [pointed, setPointed] = useState<number | null>(null);
  // On a touch screen nothing points at a candidate five before it is tapped (a laptop
  // outlines it as the pointer or the focus reaches its button): the first tap outlines
  // it on the board and asks to confirm, the second chooses it (SC-WIN-2; the five left
  // out may serve a later sequence, and a tap chose at once, unseen).
  const [armed, setArmed] = useState<{ index: number; version: number } | null>(null);
  const tapped = useRef(false);
  // Escape puts a chosen card back (its spaces stop glowing), the focus back on it.
  useEffect(() => {
    if (selected === null) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape" || event.defaultPrevented) return;
      event.preventDefault();
      const card = tableRef.current?.querySelectorAll<HTMLElement>(".sc-cards .sc-card")[selected];
      setSelected(null);
      setPointed(null);
      card?.focus();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [selected]);
  // A line names the seats as they were when its move was made (namesAt).
  const names = useCallback((version: number) => namesAt(t, info, version - 1), [t, info]);
  const log = useEventLog(state, 40, names);
  // In a replay the result waits behind its button (the replay's controls stay in reach),
  // and no turn is anyone's to play.
  const replay = useReplayMode();
  const [resultOpen, setResultOpen] = useState(!replay);
  const onScreen = useScreenMode();

  const cardLanguage = setup.card_language === "auto" ? i18n.language : setup.card_language;
  const cardName = useCallback(
    (card: string) => t(`sequence_cats.cards.${card}.name`, { lng: cardLanguage, defaultValue: card }),
    [t, cardLanguage],
  );
  const shortName = useCallback(
    (card: string) => t(`sequence_cats.cards.${card}.short`, { lng: cardLanguage, defaultValue: cardName(card) }),
    [t, cardLanguage, cardName],
  );
  const cardText = useCallback(
    (card: string) => `${cardName(card)} — ${t(`sequence_cats.cards.${card}.description`, { lng: cardLanguage, defaultValue: "" })}`,
    [t, cardName, cardLanguage],
  );
  const teamName = useCallback((team: number) => t(`sequence_cats.teams.${team}`), [t]);
  const player = useCallback((s: number) => seatName(t, info, s), [t, info]);

  // A new state means a new turn: forget the selection. The card chosen in this state
  // and not yet played comes back after a reload (keptChoice.ts: a phone reloads a tab
  // brought back from the background).
  const keptKey = `gametable.sc-choice.${info.id}.${seat}.${state.version}.`;
  useEffect(() => {
    forgetKept(`gametable.sc-choice.${info.id}.`, keptKey);
    const kept = seat !== null && state.to_act.includes(seat) ? readKept<{ index: number; card: string }>(`${keptKey}card`) : null;
    setSelected(kept && view.hand?.[kept.index] === kept.card ? kept.index : null);
    setPointed(null);
  }, [state.version]); // eslint-disable-line react-hooks/exhaustive-deps
  useEffect(() => {
    const card = selected === null ? undefined : view.hand?.[selected];
    keep(`${keptKey}card`, card === undefined ? null : { index: selected, card });
  }, [selected]); // eslint-disable-line react-hooks/exhaustive-deps

  // On a phone the hand bar stays at the bottom of the screen over the board: once a
  // card is chosen, bring its glowing spaces above the bar if any lies under it.
  const tableRef = useRef<HTMLDivElement>(null);
  useTopOffset(tableRef); // the board fits the window below whatever stands above it
  useEffect(() => {
    const root = tableRef.current;
    if (!narrow || selected === null || !root) return;
    const frame = requestAnimationFrame(() => {
      const bar = root.querySelector(".sc-hand-bar");
      const targets = [...root.querySelectorAll('.sc-space[data-target="true"]')];
      if (!bar || targets.length === 0) return;
      const lowest = Math.max(...targets.map((space) => space.getBoundingClientRect().bottom));
      const covered = lowest + 6 - bar.getBoundingClientRect().top;
      if (covered > 0) window.scrollBy({ top: covered, behavior: scrollBehavior() });
    });
    return () => cancelAnimationFrame(frame);
  }, [narrow, selected]);

  const describe = (line: LogLine) =>
    markCovered(t, describeEvent(t, line.event, namedAt(line, player), cardName), line, seat, info);

  const hand = view.hand ?? [];
  const open = useDecisionsOpen(); // not in a replay, nor at a table its host ended
  const ended = useTableEnded();
  const myTurn = open && seat !== null && state.to_act.includes(seat);
  const legal = myTurn ? state.legal : NOTHING;
  const selectedCard = selected !== null ? hand[selected] : null;

  const { targets, hints, playable, exchange, canPass, choices, answers } = useMemo(() => {
    const targets = new Map<number, Action>();
    const hints = new Map<number, Action>();
    const playable = new Set<string>();
    const exchange = new Map<string, Action>();
    const choices: Action[] = [];
    const answers: Action[] = [];
    let canPass = false;
    for (const action of legal) {
      if (action.type === "play") {
        const card = String(action.card);
        playable.add(card);
        const index = indexOf(String(action.space), layout.columns);
        if (card === selectedCard) targets.set(index, action);
        else if (selectedCard === null && card !== "purrr" && card !== "meow") hints.set(index, action);
      } else if (action.type === "exchange") {
        exchange.set(String(action.card), action);
      } else if (action.type === "pass") {
        canPass = true;
      } else if (action.type === "sequence") {
        choices.push(action);
      } else if (action.type === "accept_draw" || action.type === "decline_draw") {
        answers.push(action);
      }
    }
    return { targets, hints, playable, exchange, canPass, choices, answers };
  }, [legal, selectedCard, layout.columns]);

  // The candidate fives of a sequence being chosen (SC-WIN-2): all of them faintly, the
  // one pointed at (hover or focus on its button) strongly.
  const { candidates, pointedSpaces } = useMemo(() => {
    const fives = view.choosing?.candidates ?? [];
    const candidates = new Set<number>();
    for (const five of fives) for (const label of five) candidates.add(indexOf(label, layout.columns));
    const pointedSpaces = new Set<number>(
      pointed !== null && fives[pointed] ? fives[pointed].map((label) => indexOf(label, layout.columns)) : [],
    );
    return { candidates, pointedSpaces };
  }, [view.choosing, pointed, layout.columns]);

  const lastSpace = useMemo(() => {
    const placed = state.events.find((e) => e.type === "place" || e.type === "remove");
    return placed ? indexOf(String(placed.space), layout.columns) : null;
  }, [state.events, layout.columns]);

  const choose = (action: Action) => {
    setSelected(null);
    setPointed(null);
    send(action);
  };

  // A space pressed where no move goes is answered on the status line (why not), until
  // the player chooses another card or the game moves on.
  const [refusal, setRefusal] = useState<{ text: string; version: number; selected: number | null } | null>(null);
  const anyPlay = legal.some((action) => action.type === "play");
  const refuse = (index: number) => {
    if (!anyPlay || view.hand === undefined) return;
    const row = Math.floor(index / layout.columns);
    const column = index % layout.columns;
    const space = labelOf(row, column);
    const text = whyNotHere(
      t,
      {
        space,
        cell: view.cells[index],
        breedName: cardName(layout.spaces[row][column]),
        locked: view.sequences.some((sequence) => sequence.spaces.includes(space)),
      },
      selectedCard,
      hand,
      view.team,
    );
    setRefusal(text ? { text, version: state.version, selected } : null);
  };

  // The status line: whose turn, and what to do now.
  let status: string;
  const offer = view.draw_offer;
  // The big screen and a replay, which anyone may open, name the winners, never "you".
  if (view.finished && (onScreen || replay)) {
    status = resultHeadline(t, view, null, teamName, player);
    // On the big screen computer players are named without their levels (the players'
    // list says them): "Winners: Computer 2 and Computer 4" stays on one line over the
    // board of a 1366 × 768 screen.
    const winner = onScreen ? (s: number) => shortSeatName(t, info, s) : player;
    if (view.winners.length)
      status += ` ${t("sequence_cats.ui.winners", { players: andList(view.winners.map(winner)), count: view.winners.length })}`;
  }
  // A finished game says how it ended (who won, or which kind of draw) where the
  // result dialog, once closed, no longer does; one its host ended is just over.
  else if (view.finished) status = resultHeadline(t, view, seat, teamName, player);
  else if (ended) status = t("sequence_cats.ui.finished");
  else if (offer) {
    status =
      offer.by === seat
        ? t("sequence_cats.ui.you_offered_draw")
        : t("sequence_cats.ui.offered_draw", { player: player(offer.by) });
  } else if (view.choosing && !myTurn) {
    status = t("sequence_cats.ui.their_choice", { player: player(view.choosing.seat) });
  } else if (myTurn) {
    const forced = forcedTurn(t, legal, view);
    if (forced) status = forced;
    else if (refusal && refusal.version === state.version && refusal.selected === selected) status = refusal.text;
    else if (selectedCard === "meow") status = t("sequence_cats.ui.choose_removal");
    else if (selectedCard) status = t("sequence_cats.ui.choose_space", { card: cardName(selectedCard) });
    else status = t("sequence_cats.ui.your_turn");
  } else if (view.current !== null)
    // A replay shows a past position: who moves next, not someone playing now.
    status = t((replay ? "ui.replay.next_move" : waitingKey(info, view.current, away)) ?? "sequence_cats.ui.their_turn", {
      player: player(view.current),
    });
  else status = "";
  // Between a move and the state that answers it the line keeps what it said.
  status = useSteady(status);

  const teams = Array.from(new Set(view.team_of)).sort();
  // The status line's dot is the colour of whom it speaks of: the seat to act (or to
  // choose, or who offered a draw), the winners at the end (none for a draw).
  const spokenOf = view.finished
    ? view.winners.length
      ? view.winners[0]
      : null
    : offer
      ? offer.by
      : view.choosing
        ? view.choosing.seat
        : view.current;
  const statusTeam = spokenOf !== null && !(ended && !view.finished) ? view.team_of[spokenOf] : null;

  // Offering a draw (SC-WIN-3) is rare: on a phone the button waits under the board (held
  // sideways, under the players), so that the hand bar is no taller than the hand (held
  // sideways, the button under five cards went past the window's foot).
  const offerDraw = (
    <>
      {open && view.may_offer_draw && (
        <button type="button" className="sc-offer-draw" onClick={() => choose({ type: "offer_draw" })}>
          {t("sequence_cats.ui.offer_draw")}
        </button>
      )}
      {open && !offer && !view.may_offer_draw && (view.draw_offer_again_in ?? 0) > 0 && (
        <p className="sc-offer-later">
          {t("sequence_cats.ui.offer_draw_again_in", { count: view.draw_offer_again_in })}
        </p>
      )}
    </>
  );

  return (
    <div ref={tableRef} className={`sc-table ${narrow ? "narrow" : ""}`} data-version={state.version}>
      {/* Only the words are live (a button in the line was read out with them). */}
      <div className="sc-status" tabIndex={-1} data-status-line data-my-turn={myTurn ? "true" : "false"}>
        {statusTeam !== null && (
          <span className="sc-team-dot large" data-team={statusTeam} style={{ background: TEAM_COLOURS[statusTeam] }} />
        )}
        <span className="sc-status-text" aria-live={replay ? "off" : "polite"}>{status}</span>
        {/* The closed result opens again from the line that tells the end (a button
            fixed in the window's corner lay over the log and a card count). */}
        {view.finished && !resultOpen && !onScreen && (
          <button type="button" className="sc-result-reopen" onClick={() => setResultOpen(true)}>
            {t("sequence_cats.ui.show_result")}
          </button>
        )}
        <span className="sc-score" title={t("sequence_cats.ui.sequences_made_help", { count: view.sequences_to_win })}>
          <span className="sc-score-label">{t("sequence_cats.ui.sequences_made")}</span>
          {teams.map((team) => {
            const made = view.sequences.filter((s) => s.team === team).length;
            return (
              <span key={team} className="sc-score-item" title={teamName(team)}>
                <span className="sc-team-dot" style={{ background: TEAM_COLOURS[team] }} />
                {/* The team by name, not by its dot's colour alone (a title is not read). */}
                <span className="sr-only">{teamName(team)}: </span>
                {made}/{view.sequences_to_win}
              </span>
            );
          })}
        </span>
      </div>
      {/* The hand comes before the board in the page, so that the keyboard reaches the
          cards first (one chooses a card, then its space), wherever it shows: left of
          the board on a wide screen, under it (CSS order) elsewhere. */}
      {seat !== null && !view.finished && (
        <div className="sc-hand-bar">
          {myTurn && <TimeLeftChip className="sc-time-left" />}
          {/* On a phone the offer stays in sight at the bottom of the screen. */}
          {offer && narrow && <DrawOffer offer={offer} seat={seat} answers={answers} player={player} onAnswer={choose} />}
          {choices.length > 0 && (
            <div className="sc-choices" role="group" aria-label={t("sequence_cats.ui.candidate_fives")}>
              {choices.map((action, index) => {
                const spaces = action.spaces as string[];
                const isArmed = armed?.index === index && armed.version === state.version;
                return (
                  <button
                    key={spaces.join("-")}
                    type="button"
                    className={`primary sc-choice${isArmed ? " armed" : ""}`}
                    data-spaces={spaces.join(" ")}
                    onMouseEnter={() => setPointed(index)}
                    onMouseLeave={() => setPointed(null)}
                    onFocus={() => setPointed(index)}
                    onBlur={() => setPointed(null)}
                    onPointerDown={(event) => {
                      tapped.current = event.pointerType === "touch";
                    }}
                    onClick={() => {
                      const byTouch = tapped.current;
                      tapped.current = false;
                      if (byTouch && !isArmed) {
                        setPointed(index);
                        setArmed({ index, version: state.version });
                        return;
                      }
                      choose(action);
                    }}
                  >
                    {/* The range stays on one line ("B4–" / "F4" read as two things). */}
                    {t(isArmed ? "sequence_cats.ui.sequence_confirm" : "sequence_cats.ui.sequence_choice", {
                      first: spaces[0],
                      last: `\u2060${spaces[spaces.length - 1]}`,
                    })}
                  </button>
                );
              })}
            </div>
          )}
          <Hand
            hand={hand}
            dead={view.dead ?? []}
            selected={selected}
            playable={playable}
            exchange={exchange}
            myTurn={myTurn}
            cardName={cardName}
            cardText={cardText}
            onSelect={selectCard}
            onAction={choose}
          />
          {canPass && (
            <button type="button" className="primary sc-pass" onClick={() => choose({ type: "pass" })}>
              {t("sequence_cats.ui.pass")}
            </button>
          )}
          {!narrow && !sideways && offerDraw}
          {/* On a phone the bar would grow over the board's last row: the card's text
              is its tooltip there, as the picture and name tell the card. */}
          {selectedCard && !narrow && (
            <p className="sc-card-text">{cardText(selectedCard)}</p>
          )}
        </div>
      )}
      <div className="sc-main">
        <div className="sc-board-area">
          {/* On a phone the log is far below the board: the last moves show over it. */}
          {/* Once a card is chosen the board matters more than the news: it goes. */}
          {/* Not in a replay, whose line under its controls tells the move: over the
              board's top row it hid where the chip went. */}
          {narrow && selected === null && !replay && <MoveToast log={log} describe={describe} seat={seat} />}
          {!replay && <MoveAnnouncer log={log} describe={describe} seat={seat} version={state.version} />}
          <Board
            layout={layout}
            view={view}
            targets={targets}
            hints={hints}
            removing={selectedCard === "meow"}
            candidates={candidates}
            pointed={pointedSpaces}
            lastSpace={lastSpace}
            transposed={narrow}
            cardName={cardName}
            shortName={shortName}
            onChoose={choose}
            onRefused={refuse}
          />
        </div>
        <aside className="sc-side">
          {offer && !view.finished && !(narrow && seat !== null) && (
            <DrawOffer offer={offer} seat={seat} answers={answers} player={player} onAnswer={choose} />
          )}
          <Players info={info} view={view} seat={seat} cardName={cardName} />
          <p className="sc-pile">{t("sequence_cats.ui.draw_pile", { count: view.draw_pile })}</p>
          {/* Under the players: first under the board it lay half under the hand bar. */}
          {(narrow || sideways) && seat !== null && !view.finished && offerDraw}
          {/* It scrolls in a long game: a keyboard reaches it too (a tab stop, named). */}
          <ol className="sc-log" aria-label={t("sequence_cats.ui.log")} tabIndex={0}>
            {log.map((line) => {
              const text = describe(line);
              return text ? (
                <li key={line.id} data-version={line.version}>
                  {text}
                </li>
              ) : null;
            })}
          </ol>
        </aside>
      </div>
      {/* On the big screen the status line names the winner over the final board. */}
      {view.finished && resultOpen && !onScreen && (
        <Result info={info} view={view} seat={replay ? null : seat} teamName={teamName} player={player} onClose={() => setResultOpen(false)} />
      )}
    </div>
  );
}

/** How the game ended, for the result dialog or the big screen's status line:
 * "You win!", "Orange wins!" or the kind of draw (SC-WIN-3). */
function resultHeadline(
  t: TFunction,
  view: SequenceView,
  seat: number | null,
  teamName: (team: number) => string,
  player: (seat: number) => string,
): string {
  const winnerTeam = view.winners.length ? view.team_of[view.winners[0]] : null;
  if (winnerTeam === null) {
    if (view.draw_reason === "agreed") return t("sequence_cats.ui.draw_agreed");
    return view.draw_reason === "passes" ? t("sequence_cats.ui.draw_passes") : t("sequence_cats.ui.draw");
  }
  if (seat !== null && view.winners.includes(seat)) return t("sequence_cats.ui.you_win");
  // A player reads first whether they lost (the colour alone said it only to those who
  // remembered theirs), then who won: by name, as colours move when the seats rotate
  // for the next game.
  if (seat !== null)
    return t("sequence_cats.ui.you_lose", { team: teamName(winnerTeam), players: andList(view.winners.map(player)), count: view.winners.length });
  return t("sequence_cats.ui.team_wins", { team: teamName(winnerTeam), players: andList(view.winners.map(player)) });
}

function Result({
  info,
  view,
  seat,
  teamName,
  player,
  onClose,
}: {
  info: GameTableProps["info"];
  view: SequenceView;
  seat: number | null;
  teamName: (team: number) => string;
  player: (seat: number) => string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const won = seat !== null && view.winners.includes(seat);
  const winnerTeam = view.winners.length ? view.team_of[view.winners[0]] : null;
  // A computer player's number stays with its word when the headline wraps on a phone.
  const headline = resultHeadline(t, view, seat, teamName, (s) => keepSeatNumber(player(s)));
  // "You lost: Bjarni (Orange) wins." names the winners already.
  const namesWinners = seat !== null && !won;
  // Focus comes into the dialog and stays there (Tab reached the log behind it).
  const box = useRef<HTMLDivElement>(null);
  useModal(box, onClose);
  return (
    <div ref={box} className="overlay" role="dialog" aria-modal="true" aria-labelledby="result-title">
      <div className="panel result">
        <h2 id="result-title" className={won ? "won" : ""}>
          {winnerTeam !== null && <span className="sc-team-dot large" style={{ background: TEAM_COLOURS[winnerTeam] }} />}
          {headline}
        </h2>
        {/* "You win!" alone says who: "Winner: Bjørn" to Bjørn said it twice. */}
        {winnerTeam !== null && !namesWinners && !(won && view.winners.length === 1) && (
          <p>{t("sequence_cats.ui.winners", { players: andList(view.winners.map(player)), count: view.winners.length })}</p>
        )}
        <p className="muted">{t("sequence_cats.ui.turns_played", { count: view.turn })}</p>
        <div className="result-actions">
          <button type="button" onClick={onClose}>
            {t("sequence_cats.ui.see_board")}
          </button>
          <GameOverLinks info={info} />
        </div>
      </div>
    </div>
  );
}

/** The open draw offer (SC-WIN-3): who offered, who accepted, who is still to answer. */
function DrawOffer({
  offer,
  seat,
  answers,
  player,
  onAnswer,
}: {
  offer: NonNullable<SequenceView["draw_offer"]>;
  seat: number | null;
  answers: Action[];
  player: (seat: number) => string;
  onAnswer: (action: Action) => void;
}) {
  const { t } = useTranslation();
  const names = (seats: number[]) => seats.map(player).join(", ");
  return (
    <section className="sc-draw-offer" aria-label={t("sequence_cats.ui.draw_offer")} aria-live="polite">
      <p className="sc-draw-offer-title">
        {offer.by === seat ? t("sequence_cats.ui.you_offered_draw") : t("sequence_cats.ui.offered_draw", { player: player(offer.by) })}
      </p>
      <p className="muted">{t("sequence_cats.ui.answer_draw")}</p>
      {offer.accepted.length > 0 && (
        <p className="sc-draw-accepted">{t("sequence_cats.ui.draw_accepted_by", { players: names(offer.accepted) })}</p>
      )}
      {offer.waiting.length > 0 && (
        <p className="sc-draw-waiting">
          {/* One's own seat is "you", first (it read "Waiting for: Bo" to Bo). */}
          {t("sequence_cats.ui.draw_waiting_for", {
            players: [
              ...(seat !== null && offer.waiting.includes(seat) ? [t("sequence_cats.ui.draw_waiting_you")] : []),
              ...offer.waiting.filter((s) => s !== seat).map(player),
            ].join(", "),
          })}
        </p>
      )}
      {seat !== null && offer.accepted.includes(seat) && <p>{t("sequence_cats.ui.draw_answered")}</p>}
      {answers.length > 0 && (
        <div className="sc-draw-answers">
          {answers.map((action) => (
            <button
              key={action.type}
              type="button"
              className={action.type === "accept_draw" ? "primary sc-accept-draw" : "sc-decline-draw"}
              onClick={() => onAnswer(action)}
            >
              {t(action.type === "accept_draw" ? "sequence_cats.ui.accept_draw" : "sequence_cats.ui.decline_draw")}
            </button>
          ))}
        </div>
      )}
    </section>
  );
}

const TOAST_MS = 4000;
const TOAST_STATES = 3;

/** The events of the last few states since the person's own latest move (every other
 * seat's move since, in a four-player game), over the board for a few seconds after the
 * newest arrives. One's own move is not news: it is left out, and so is what came
 * before it, which the person saw before moving. */
function MoveToast({
  log,
  describe,
  seat,
}: {
  log: LogLine[];
  describe: (line: LogLine) => string | null;
  seat: number | null;
}) {
  const newest = log.length ? log[0].version : -1;
  const mine = seat === null ? -1 : (log.find((line) => line.event.seat === seat)?.version ?? -1);
  const toast = useRef<HTMLDivElement>(null);
  const shown = useNewestShown(newest, TOAST_MS);
  // The news never hides the move it tells of: a chip placed or removed in the board's
  // upper half puts the toast at the board's foot.
  useLayoutEffect(() => {
    const element = toast.current;
    const area = element?.parentElement;
    const last = area?.querySelector(".sc-space.last");
    if (!element || !area || !last) return;
    const box = area.getBoundingClientRect();
    const space = last.getBoundingClientRect();
    element.dataset.place = space.top + space.height / 2 < box.top + box.height / 2 ? "bottom" : "top";
  }, [newest, shown]);
  if (!shown) return null;
  const texts = log
    .filter((line) => line.version > newest - TOAST_STATES && line.version > mine)
    .map((line) => describe(line))
    .filter((text): text is string => !!text)
    .slice(0, TOAST_STATES)
    .reverse();
  if (!texts.length) return null;
  return (
    // Read out by the page's MoveAnnouncer (at every width), not a second time here.
    <div className="sc-toast" aria-hidden="true" key={newest} ref={toast}>
      {texts.map((text, i) => (
        <span key={i}>{text}</span>
      ))}
    </div>
  );
}
