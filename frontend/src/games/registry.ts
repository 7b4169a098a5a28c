// Browser modules of the games. Adding a game adds one entry here; the shell (lobby,
// connection, waiting room) stays the same.
import type { TFunction } from "i18next";
import { Suspense, createElement, lazy, type ComponentType } from "react";
import { seatName } from "../app/seatName";
import type { Action, ErrorMessage, GameEvent, StateMessage, TableInfo } from "../app/types";
import type { ChatMessage } from "../app/useTable";
import { describeEvent as describeDixit } from "./dixit/events";
import { readLegal } from "./dixit/legal";
import { statusText as dixitStatus } from "./dixit/status";
import type { DixitView } from "./dixit/types";
import { cardLanguageOf, describeEvent as describeSequenceCats } from "./sequence-cats/events";
import { turnPrompt as sequenceCatsTurn } from "./sequence-cats/turn";
import type { SequenceView } from "./sequence-cats/types";
import { describeEvent as describeTriominos } from "./triominos/events";
import { hasAction } from "./triominos/placing";
import { statusText as triominosStatus } from "./triominos/status";
import type { TriominosView } from "./triominos/types";

export interface GameTableProps {
  info: TableInfo;
  seat: number | null;
  state: StateMessage;
  send: (action: Action) => void;
  /** The table chat so far (oldest first); a table may show it with app/Chat. */
  chat?: ChatMessage[];
  /** Write in the table chat; absent for spectators, who only read. */
  sendChat?: (text: string) => boolean;
}

export interface GameModule {
  /** The registry name used by the server. */
  name: string;
  /** Renders a running (or finished) game. */
  Table: ComponentType<GameTableProps>;
  /** The seat count the lobby proposes first. */
  defaultSeats: number;
  /** The computer player the lobby proposes (else ``medium``). */
  defaultBot?: string;
  /** An event in words in the reader's `language` (null: nothing to say), for the
   * replay viewer's line under its controls. */
  describe?: (t: TFunction, info: TableInfo, event: GameEvent, language: string) => string | null;
  /** A team's name (teams numbered from 0), where the game names them, e.g. by colour;
   * else the waiting room says "Team 1", "Team 2"… */
  teamName?: (t: TFunction, team: number) => string;
  /** Whether the game's table shows the table chat itself (else the page shows it
   * under the table, folded on a phone). */
  ownChat?: (info: TableInfo) => boolean;
  /** Whether the game's own end screen, always in the table's place (not a dialog that
   * closes), offers Play again: the page then shows no second one above the table. */
  ownPlayAgain?: (info: TableInfo) => boolean;
  /** What ``seat`` is to do now, a sentence of the game's status line, for the
   * notification of its turn (else it says the table is waiting). */
  turnPrompt?: (t: TFunction, info: TableInfo, state: StateMessage, seat: number) => string;
}

/** A game's table loaded on first use, so the lobby does not wait for every game. */
function later(load: () => Promise<ComponentType<GameTableProps>>): ComponentType<GameTableProps> {
  const Table = lazy(() => load().then((component) => ({ default: component })));
  return (props: GameTableProps) => createElement(Suspense, { fallback: null }, createElement(Table, props));
}

const SequenceCatsTable = later(() =>
  import("./sequence-cats/SequenceCatsTable").then((m) => m.SequenceCatsTable),
);
const TriominosTable = later(() => import("./triominos/TriominosTable").then((m) => m.TriominosTable));
const DixitTable = later(() => import("./dixit/DixitTable").then((m) => m.DixitTable));

const playerOf = (t: TFunction, info: TableInfo) => (seat: number) => seatName(t, info, seat);

export const GAMES: Record<string, GameModule> = {
  "sequence-cats": {
    name: "sequence-cats",
    Table: SequenceCatsTable,
    defaultSeats: 2,
    describe: (t, info, event, language) => {
      const lng = cardLanguageOf(info.public.card_language, language);
      const cardName = (card: string) => t(`sequence_cats.cards.${card}.name`, { lng, defaultValue: card });
      return describeSequenceCats(t, event, playerOf(t, info), cardName);
    },
    teamName: (t, team) => t(`sequence_cats.teams.${team}`),
    turnPrompt: (t, info, state) => sequenceCatsTurn(t, state.view as unknown as SequenceView, state.legal, playerOf(t, info)),
  },
  triominos: {
    name: "triominos",
    Table: TriominosTable,
    defaultSeats: 2,
    describe: (t, info, event) => describeTriominos(t, event, playerOf(t, info)),
    turnPrompt: (t, info, state) =>
      triominosStatus(t, {
        view: state.view as unknown as TriominosView,
        myTurn: true,
        player: playerOf(t, info),
        rotating: null,
        choosing: null,
        canPlace: hasAction(state.legal, "place"),
        canDraw: hasAction(state.legal, "draw"),
        canPass: hasAction(state.legal, "pass"),
      }),
  },
  dixit: {
    name: "dixit",
    Table: DixitTable,
    defaultSeats: 4,
    defaultBot: "hard",
    describe: (t, info, event) => describeDixit(t, event, playerOf(t, info)),
    // Team Dixit's teams talk beside the cards (DX-TEAM-2).
    ownChat: (info) => info.config.variant === "team",
    // The final ranking stands in the board with its links (not after the host ended
    // the game early: there is no ranking then).
    ownPlayAgain: (info) => !info.ended_early,
    turnPrompt: (t, info, state, seat) =>
      dixitStatus(t, { view: state.view as unknown as DixitView, seat, options: readLegal(state.legal), player: playerOf(t, info) }),
  },
};

/** The catalog namespace of a game's texts: "sequence-cats" → "sequence_cats". */
export const namespaceOf = (game: string) => game.replace(/-/g, "_");

export type { ErrorMessage };
