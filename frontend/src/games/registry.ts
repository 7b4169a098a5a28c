// Browser modules of the games. Adding a game adds one entry here; the shell (lobby,
// connection, waiting room) stays the same.
import { Suspense, createElement, lazy, type ComponentType } from "react";
import type { Action, ErrorMessage, StateMessage, TableInfo } from "../app/types";
import type { ChatMessage } from "../app/useTable";
import { SequenceCatsTable } from "./sequence-cats/SequenceCatsTable";

export interface GameTableProps {
  info: TableInfo;
  seat: number | null;
  state: StateMessage;
  send: (action: Action) => void;
  /** The table chat so far (oldest first); a table may show it with app/Chat. */
  chat?: ChatMessage[];
  /** Write in the table chat; absent for spectators, who only read. */
  sendChat?: (text: string) => void;
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
}

/** A game's table loaded on first use, so the lobby does not wait for every game. */
function later(load: () => Promise<ComponentType<GameTableProps>>): ComponentType<GameTableProps> {
  const Table = lazy(() => load().then((component) => ({ default: component })));
  return (props: GameTableProps) => createElement(Suspense, { fallback: null }, createElement(Table, props));
}

const TriominosTable = later(() => import("./triominos/TriominosTable").then((m) => m.TriominosTable));
const DixitTable = later(() => import("./dixit/DixitTable").then((m) => m.DixitTable));

export const GAMES: Record<string, GameModule> = {
  "sequence-cats": { name: "sequence-cats", Table: SequenceCatsTable, defaultSeats: 2 },
  triominos: { name: "triominos", Table: TriominosTable, defaultSeats: 2 },
  dixit: { name: "dixit", Table: DixitTable, defaultSeats: 4, defaultBot: "hard" },
};

/** The catalog namespace of a game's texts: "sequence-cats" → "sequence_cats". */
export const namespaceOf = (game: string) => game.replace(/-/g, "_");

export type { ErrorMessage };
