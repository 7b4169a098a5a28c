// The big screen: a table for a TV or projector. It shows what everyone may see (the
// public view, no hand), follows the game live and reconnects by itself; while seats are
// open to the invite link, its QR code lets people in the room join from their phones;
// with a turn clock, whose time runs and who is away (a computer player covering).
import { QRCodeSVG } from "qrcode.react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { GAMES } from "../games/registry";
import { NEXT_KEY, tokens } from "./api";
import { DecisionsOpen, ScreenMode, TableEnded } from "./replay";
import { navigate } from "./router";
import { seatName } from "./seatName";
import { AbsentPlayers } from "./TablePage";
import { TurnClock } from "./TurnClock";
import type { TableInfo } from "./types";
import { invitable, inviteUrl, onlyHere, useGames, type ServerInfo } from "./useGames";
import { useFitZoom } from "./useFitZoom";
import { useTable } from "./useTable";
import { WatchingCheck } from "./WatchingCheck";

const nothing = () => undefined;

/** How long a finished game's big screen stays on its result once this browser's person
 * went on to the new game (milliseconds): the room reads the end, then the screen follows. */
export const FOLLOW_MS = 12_000;

/** The new table this big screen follows after Play again (null before, and for a game
 * not finished): the one this browser's person went to from ``tableId`` (a seat page
 * open in this browser says so in its storage, which another window of the browser, the
 * big screen on the TV, hears at once), or else ``told``, the one the server names to
 * those watching (it does only where its id opens nothing but watching: the new table
 * lets people watch and has no open seat). The screen goes there {@link FOLLOW_MS} later. */
function useNextTable(tableId: string, finished: boolean, told: string | null): string | null {
  const [here, setHere] = useState(() => tokens.next(tableId));
  useEffect(() => {
    const heard = (event: StorageEvent) => {
      if (event.key === NEXT_KEY || event.key === null) setHere(tokens.next(tableId));
    };
    window.addEventListener("storage", heard);
    setHere(tokens.next(tableId));
    return () => window.removeEventListener("storage", heard);
  }, [tableId]);
  const next = here ?? told;
  useEffect(() => {
    if (!next || !finished) return;
    const timer = window.setTimeout(() => navigate(`/t/${next}/screen`), FOLLOW_MS);
    return () => window.clearTimeout(timer);
  }, [next, finished]);
  return finished ? next : null;
}

export function ScreenPage({ tableId }: { tableId: string }) {
  const { t } = useTranslation();
  const server = useGames().data;
  const { info, state, status, error, clock, rematch } = useTable(tableId, null, true);
  const next = useNextTable(tableId, info?.status === "finished", rematch?.table ?? null);
  const table = useRef<HTMLDivElement>(null);
  const module = info ? GAMES[info.game] : undefined;
  const shown = Boolean(info && (info.status !== "waiting" || info.begun) && module && state);
  useFitZoom(table, shown, state?.version);

  if (status === "gone") {
    const off = error?.code === "watching_off";
    return (
      <p className="notice screen-notice" data-gone={off ? "watching_off" : "table"}>
        {off ? t("server.errors.watching_off") : t("ui.table.gone_title")}
        {/* Back by itself when the host lets people watch again. */}
        {off && <WatchingCheck tableId={tableId} />}
      </p>
    );
  }
  if (!info) return <p className="notice screen-notice">{t("ui.table.connecting")}</p>;
  // The invite link's QR code, while it opens a seat (not one kept for the host's guest).
  const open = invitable(info);
  return (
    <div className="screen-page" data-status={info.status}>
      <header className="screen-header">
        <h1>{t(`games.${info.game}.title`)}</h1>
        {status !== "open" && <span className="connection-banner">{t("ui.table.reconnecting")}</span>}
        {/* The room reads the clock from the screen too: whose time runs, who is away. */}
        {info.status === "playing" && state && <TurnClock info={info} state={state} seat={null} clock={clock} onBack={nothing} />}
      </header>
      {open && <JoinCode info={info} server={server} />}
      {/* Said in the room's type: the table alone went on showing the last phase as if
          it were still played ("Voting: 2 of 3 have voted."). */}
      {info.ended_early && (
        <p className="screen-news" role="status" data-news="ended">{t("ui.host.ended")}</p>
      )}
      {/* The room is told that a new game began, and the screen follows a little later
          (useNextTable) where it knows the new table: in the browser of one of its
          players, or named by the server (the new table lets people watch and has no
          open seat: its id is its invite link too). Otherwise it says how to show it. */}
      {rematch && info.status === "finished" && (
        <p className="screen-news" role="status" data-news="rematch">
          {t("ui.rematch.began", { player: seatName(t, info, rematch.by) })}
          {next ? (
            <>
              {" "}
              {t("ui.screen.following")}{" "}
              <button type="button" data-action="show-new-game" onClick={() => navigate(`/t/${next}/screen`)}>
                {t("ui.screen.show_new_game")}
              </button>
            </>
          ) : (
            <>
              {" "}
              <span data-hint="follow-by-hand">{t("ui.screen.follow_by_hand")}</span>
            </>
          )}
        </p>
      )}
      {/* Whom the game waits for: "5 of 6 in" stood for a minute while a phone slept,
          and the room read a game stuck. */}
      {info.status === "playing" && state && (
        <div className="screen-waiting">
          <AbsentPlayers info={info} seat={null} away={clock?.away ?? null} server={server} toAct={state.to_act} watchOnly />
        </div>
      )}
      {/* The game so far, once it has begun: also while a seat that opened is taken. */}
      {(info.status !== "waiting" || info.begun) && module && state && (
        <div className="screen-table" ref={table}>
          <ScreenMode.Provider value={true}>
            <TableEnded.Provider value={Boolean(info.ended_early)}>
              <DecisionsOpen.Provider value={!info.ended_early && info.status !== "waiting"}>
                <module.Table info={info} seat={null} state={state} send={nothing} />
              </DecisionsOpen.Provider>
            </TableEnded.Provider>
          </ScreenMode.Provider>
        </div>
      )}
    </div>
  );
}

/** The invite link as a QR code, with the seats taken so far. */
function JoinCode({ info, server }: { info: TableInfo; server: ServerInfo | null }) {
  const { t } = useTranslation();
  const url = inviteUrl(info.invite, server);
  const open = info.seats.filter((s) => s.kind === "open").length;
  return (
    <section className="screen-join" aria-label={t("ui.screen.join_label")}>
      <QRCodeSVG className="screen-qr" value={url} size={320} marginSize={2} title={url} />
      <div className="screen-join-text">
        <p className="screen-join-lead">{t("ui.screen.scan")}</p>
        <p className="screen-url">{url}</p>
        {onlyHere(server) && <p className="notice">{t("ui.table.invite_localhost")}</p>}
        <p>{t("ui.table.waiting", { count: open })}</p>
        <ol className="screen-seats">
          {info.seats.map((s) => (
            <li key={s.seat} data-kind={s.kind}>
              {s.kind === "open" ? t("ui.screen.open_seat", { seat: s.seat + 1 }) : seatName(t, info, s.seat)}
            </li>
          ))}
        </ol>
      </div>
    </section>
  );
}
