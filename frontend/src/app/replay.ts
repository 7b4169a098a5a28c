// The replay viewer's read-only mode, and the record file opened in the lobby.
import { createContext, useContext } from "react";

/** True inside the replay viewer: a game's table shows a past position and offers
 * nothing to do (no end-of-game links, no dialogs that open by themselves). */
export const ReplayMode = createContext(false);

export const useReplayMode = () => useContext(ReplayMode);

/** False where a table's decisions are closed though its game is not over: a table its
 * host ended early, or one waiting for a seat opened mid-game to be taken. */
export const DecisionsOpen = createContext(true);

/** True at a table whose host ended its game early. */
export const TableEnded = createContext(false);

/** Whether a seat may decide anything here: not in a replay, not at an ended table,
 * not while the table waits for an open seat. */
export const useDecisionsOpen = () => useContext(DecisionsOpen) && !useContext(ReplayMode);

/** Whether the table's host ended its game early (its status line then says it is over). */
export const useTableEnded = () => useContext(TableEnded);

/** True on the big screen (a TV or projector that nobody clicks): a table opens no dialog
 * that waits for a click, and says in its status line what such a dialog would. */
export const ScreenMode = createContext(false);

export const useScreenMode = () => useContext(ScreenMode);

const RECORD_KEY = "gametable.replay.record";

/** The file opened last, for this page's life (the tab's storage may refuse a large one). */
let opened: string | null = null;

/** Keep a record file's text for the replay viewer: in this tab, where a reload finds it. */
export function keepRecordFile(text: string) {
  opened = text;
  try {
    sessionStorage.setItem(RECORD_KEY, text);
  } catch {
    sessionStorage.removeItem(RECORD_KEY); // too large to keep: this page still has it
  }
}

/** The record file opened last in this tab, if any. */
export function recordFile(): string | null {
  if (opened !== null) return opened;
  try {
    return sessionStorage.getItem(RECORD_KEY);
  } catch {
    return null;
  }
}
