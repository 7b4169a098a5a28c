// A table: the waiting room until every seat is taken, then the game itself. Opened by
// its watch link ("/t/<id>/watch"), the same page only watches: no seat, no token.
import { andList } from "./i18n";
import { useCallback, useEffect, useRef, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { TFunction } from "i18next";
import { GAMES, namespaceOf } from "../games/registry";
import { ApiError, api, tokens } from "./api";
import { DecisionsOpen, TableEnded } from "./replay";
import { navigate } from "./router";
import { BotLevelSelect, LevelField } from "./LevelField";
import { absenceTag, LEVELS, seatName, shortSeatName } from "./seatName";
import { translateError } from "./translateError";
import { WatchingCheck } from "./WatchingCheck";
import type { ErrorMessage, SeatInfo, TableInfo } from "./types";
import { invitable, inviteUrl, onlyHere, useGames, type ServerInfo } from "./useGames";
import { ChangeOptions } from "./ChangeOptions";
import { HowToPlay } from "./HowToPlay";
import { ChangeName } from "./ChangeName";
import { LeaveTable } from "./LeaveTable";
import { SeatChanges } from "./SeatChanges";
import { Confirm } from "./Confirm";
import { EndedBanner, HostControls } from "./HostControls";
import { TableChat, wantsChat } from "./TableChat";
import { RematchBar, RematchContext, joinRematch } from "./Rematch";
import { TurnAlerts } from "./TurnAlerts";
import { APP_TITLE } from "./alerts";
import { AwaySeats, MyDeadline, TurnClock, formatLeft, myDeadline } from "./TurnClock";
import { UnsentChatContext } from "./unsentChat";
import { useTable } from "./useTable";
import { MoveInFlight } from "./moveInFlight";
import { keyboardInUse, scrollIntoViewIfNeeded } from "./focus";
import { upTo } from "./limitText";
import { NAME_MAX, NameLimit, nameShows } from "./NameLimit";

/** A personal link "/t/<id>#seat=<token>" hands a seat to another device of its owner;
 * a seat link "/t/<id>#invite=<code>&seat=<n>" lets its holder take seat n (1-based),
 * which the host keeps for them (docs/protocol.md, "Host controls"; a link may name no
 * seat). */
function tokenFromLink(tableId: string): string | null {
  const invite = /^#invite=([A-Za-z0-9_-]+)(?:&seat=([1-9][0-9]?))?$/.exec(location.hash);
  if (invite) {
    history.replaceState(null, "", location.pathname); // keep the secret out of the history
    tokens.saveInvite(tableId, invite[1], invite[2] ? Number(invite[2]) - 1 : null);
    return null;
  }
  const match = /^#seat=([A-Za-z0-9_-]+)$/.exec(location.hash);
  if (!match) return null;
  history.replaceState(null, "", location.pathname);
  return match[1];
}

/** The seat this page plays at first, and a seat link it was opened with that it does
 * not follow yet: a link to another seat than the one this browser already holds at the
 * table (someone else's "Play on another device" link) is not taken silently, which
 * would leave the browser's own seat unattended; the page asks. */
function firstSeat(tableId: string): { token: string | null; otherLink: string | null } {
  const link = tokenFromLink(tableId);
  const held = tokens.seat(tableId)?.token ?? null;
  if (link && held && link !== held) return { token: held, otherLink: link };
  if (link) tokens.saveSeat(tableId, -1, link);
  return { token: link ?? held, otherLink: null };
}

/** Whether this page may take open seat `s`: any open seat, unless the host keeps it
 * for whoever has its link (the page then needs that link's code, and where the link
 * named its seat, `s` must be that one: a host may keep several). */
function mayTake(s: SeatInfo, code: string | null, keptFor: number | null): boolean {
  return s.kind === "open" && (!s.invited || (code !== null && (keptFor === null || keptFor === s.seat)));
}

/** Join `seat` (with the seat link's `code` where the host keeps it); a code the server
 * says keeps no seat here (the host has made the seat a new link since) is forgotten, so
 * that the page no longer offers a seat it cannot take with it. */
async function joinSeat(info: TableInfo, seat: SeatInfo, name: string, code: string | null) {
  try {
    return await api.join(info.id, seat.seat, name, seat.invited ? code : null);
  } catch (caught) {
    if (caught instanceof ApiError && caught.error.code === "seat_link_invalid") tokens.saveInvite(info.id, null);
    throw caught;
  }
}

/** Give the game's status line the focus, once it is on the page: a game's table is
 * loaded on first use and may come a moment after the game began (at most 10 s later).
 * Nothing is taken from an element that has the focus meanwhile. */
function focusStatusLineSoon(): void {
  const focus = () => {
    const status = document.querySelector<HTMLElement>("[data-status-line]");
    if (!status) return false;
    if (document.activeElement === null || document.activeElement === document.body) {
      status.focus({ preventScroll: true });
      // Someone at the keyboard sees where the focus went (it was above the window after
      // a Dixit clue was given); a tap does not move the page.
      if (keyboardInUse()) scrollIntoViewIfNeeded(status);
    }
    return true;
  };
  if (focus()) return;
  const watcher = new MutationObserver(() => {
    if (focus()) watcher.disconnect();
  });
  watcher.observe(document.body, { childList: true, subtree: true });
  window.setTimeout(() => watcher.disconnect(), 10_000);
}

/** The words of a lost seat's toast when watching is off (they say "you are watching the
 * table now" otherwise), by the error's code. */
const NOT_WATCHING: Record<string, string> = {
  left_elsewhere: "ui.leave.left_elsewhere_not_watching",
};

export function TablePage({ tableId, watch = false }: { tableId: string; watch?: boolean }) {
  const { t } = useTranslation();
  const server = useGames().data; // also loads the games' texts (card names…)
  const [first] = useState(() => (watch ? { token: null, otherLink: null } : firstSeat(tableId)));
  const [token, setToken] = useState(first.token);
  const [otherLink, setOtherLink] = useState(first.otherLink);
  const table = useTable(tableId, token, watch);
  const { info, state, seat, status } = table;

  const joined = (newSeat: number, newToken: string) => {
    tokens.saveSeat(tableId, newSeat, newToken);
    setToken(newToken);
  };

  // Who asks to play again from this page goes to the new table as soon as it exists
  // (the others join it with one click).
  const askedHere = useRef(false);
  const askRematch = useCallback(() => {
    askedHere.current = true;
    table.sendRematch();
  }, [table.sendRematch]);
  const rematch = table.rematch;
  useEffect(() => {
    if (rematch && askedHere.current && rematch.by === seat && rematch.token) joinRematch(tableId, rematch);
  }, [rematch, seat, tableId]);

  // A control that goes away (or is disabled) while it has the focus (a card given, a
  // result's Continue)
  // left the keyboard on the page's body, the next Tab starting over from the page's top:
  // the status line, which says what comes next, takes the focus instead.
  // (Browsers send no event when a focused element is removed: the focused element is
  // remembered, and looked at when the page's elements change.)
  useEffect(() => {
    let focused: Element | null = document.activeElement;
    const onFocusIn = (event: FocusEvent) => {
      focused = event.target instanceof Element ? event.target : null;
    };
    const watcher = new MutationObserver(() => {
      // Gone, or disabled while it had the focus (Triominos' Draw after the third draw,
      // Pass once passed): either way the focus fell to the page's body.
      if (!focused || (focused.isConnected && !(focused as HTMLButtonElement).disabled)) return;
      focused = null;
      const now = document.activeElement;
      if (now !== null && now !== document.body) return;
      focusStatusLineSoon();
    });
    document.addEventListener("focusin", onFocusIn);
    watcher.observe(document.body, { childList: true, subtree: true, attributes: true, attributeFilter: ["disabled"] });
    return () => {
      document.removeEventListener("focusin", onFocusIn);
      watcher.disconnect();
    };
  }, []);

  if (status === "gone") {
    const off = table.error?.code === "watching_off";
    const notice = (
      <div className="panel notice-panel" data-gone={off ? "watching_off" : "table"}>
        <h1>{off ? t("ui.watch.off_title") : t("ui.table.gone_title")}</h1>
        <p>
          {off && tokens.removed(tableId)
            ? // A removed player reads why the table went, not only that watching is off.
              t("server.errors.removed_by_host_not_watching")
            : table.error
              ? translateError(t, table.error)
              : t("ui.table.gone_text")}
        </p>
        {off && <p className="muted">{t("ui.watch.off_help")}</p>}
        <button className="primary" type="button" onClick={() => navigate("/")}>
          {t("ui.table.back_to_lobby")}
        </button>
      </div>
    );
    if (off && watch) {
      return (
        <>
          <WatchingCheck tableId={tableId} />
          {notice}
        </>
      );
    }
    // The invite link still offers an open seat when nobody may watch.
    if (off && !watch) {
      return (
        <SeatsOnly tableId={tableId} server={server} onJoined={joined}>
          {notice}
        </SeatsOnly>
      );
    }
    return notice;
  }
  if (!info) return <p className="notice">{t("ui.table.connecting")}</p>;
  const module = GAMES[info.game];

  return (
    <div className="table-page">
      {/* Always there, so that a screen reader announces the banner when it comes; the
          banner stays in sight at the window's top however far the page is scrolled. */}
      <div className="connection-status" role="status">
        {status !== "open" && <div className="connection-banner">{t("ui.table.reconnecting")}</div>}
      </div>
      {watch && <WatchBar info={info} />}
      {/* Above whichever view the table's status shows, so that a change that also
          changes the view (a seat opened at a game about to begin) is still told. */}
      <SeatChanges info={info} seat={seat} />
      {info.status !== "waiting" && <OptionsChanges info={info} byYou={Boolean(table.hostToken)} />}
      {otherLink && (
        <div className="notice seat-link-choice" role="alert">
          <p>
            {seat !== null
              ? t("ui.table.other_seat_link_as", { player: seatName(t, info, seat) })
              : t("ui.table.other_seat_link")}
          </p>
          <div className="seat-link-buttons">
            <button
              type="button"
              onClick={() => {
                tokens.saveSeat(tableId, -1, otherLink);
                setToken(otherLink);
                setOtherLink(null);
              }}
            >
              {t("ui.table.take_link_seat")}
            </button>
            <button type="button" className="primary" onClick={() => setOtherLink(null)}>
              {t("ui.table.keep_my_seat")}
            </button>
          </div>
        </div>
      )}
      {watch && (!module || (info.status === "waiting" && !(state !== null && (state.version > 0 || Boolean(info.begun))))) ? (
        <WatchWaiting info={info} />
      ) : !module || (info.status === "waiting" && !(state !== null && (state.version > 0 || Boolean(info.begun)))) ? (
        <WaitingRoom info={info} seat={seat} server={server} onJoined={joined} />
      ) : !state ? (
        <p className="notice">{t("ui.table.connecting")}</p>
      ) : (
        <UnsentChatContext.Provider value={table.unsentChat}>
        <RematchContext.Provider value={{ info, offer: table.rematch, ask: seat !== null ? askRematch : null, seat }}>
          {/* The page's heading, for those who move by headings: the game's name (the
              table shows it nowhere else; a waiting room below has its own). */}
          {!(info.status === "waiting" && !watch) && (
            <h1 className="sr-only">{t(`games.${info.game}.title`)}</h1>
          )}
          {/* A seat opened mid-game (the host removed a player): the game waits for
              someone to take it, and its table stays in sight below. */}
          {info.status === "waiting" && !watch && (
            <WaitingRoom info={info} seat={seat} server={server} onJoined={joined} begun />
          )}
          {seat === null && !watch && info.status !== "waiting" && <SpectatorBar info={info} onJoined={joined} />}
          {info.status === "playing" && (
            <AbsentPlayers info={info} seat={seat} away={table.clock?.away ?? null} server={server} toAct={state.to_act} />
          )}
          {info.ended_early && <EndedBanner info={info} seat={seat} />}
          {!module?.ownPlayAgain?.(info) && <RematchBar />}
          {/* Once the game is over, nobody is away and no time runs. */}
          {info.status === "playing" && (
            <TurnClock info={info} state={state} seat={seat} clock={table.clock} onBack={table.sendBack} />
          )}
          {/* A table its host ended early shows its last position with nothing to do; one
              waiting for an open seat offers nothing to do until it is taken. */}
          <TableEnded.Provider value={Boolean(info.ended_early)}>
            <DecisionsOpen.Provider value={!info.ended_early && info.status !== "waiting"}>
              <MyDeadline.Provider value={info.status === "playing" ? myDeadline(table.clock, seat) : null}>
               <AwaySeats.Provider value={info.status === "playing" ? (table.clock?.away ?? null) : null}>
                <MoveInFlight.Provider value={table.moving}>
                  <module.Table
                    info={info}
                    seat={seat}
                    state={state}
                    send={table.send}
                    chat={table.chat}
                    sendChat={seat !== null ? table.sendChat : undefined}
                  />
                </MoveInFlight.Provider>
               </AwaySeats.Provider>
              </MyDeadline.Provider>
            </DecisionsOpen.Provider>
          </TableEnded.Provider>
          {/* Spectators read along (the watch link too), and only players write. */}
          {!module.ownChat?.(info) && wantsChat(info, table.chat.length) && (
            <TableChat
              info={info}
              seat={seat}
              chat={table.chat}
              sendChat={seat !== null ? table.sendChat : undefined}
            />
          )}
          {!watch && (
            <TableLinks info={info} server={server} seat={seat} token={seat !== null ? token : null} begun={state.version > 0 || Boolean(info.begun)} />
          )}
          {!watch && <TurnAlerts info={info} state={state} seat={seat} clock={table.clock} onStepAway={table.sendAway} />}
          {/* Also while the game waits for a seat opened mid-game: the host may end it
              meanwhile (the controls went with the seat, End the game with them). */}
          {!watch && table.hostToken && (info.status === "playing" || (info.status === "waiting" && Boolean(info.begun))) && (
            <HostControls info={info} seat={seat} hostToken={table.hostToken} clock={table.clock} begun={state.version > 0 || Boolean(info.begun)} server={server} />
          )}
        </RematchContext.Provider>
        </UnsentChatContext.Provider>
      )}
      <ErrorToast
        error={
          // In the waiting room the removal is told by its notice, which the toast
          // covered; with watching off, by the bar and then the "Watching is off" page.
          table.error?.code === "removed_by_host" &&
          (info?.status === "waiting" || info?.watching === false)
            ? null
            : // In the waiting room the host's buttons are beside the seats (the host
              // controls, under the table, come with the game).
              table.error?.code === "became_host" && info?.status === "waiting"
              ? { ...table.error, key: "ui.host.you_are_host_waiting" }
              : // With watching off nobody without a seat watches: the toast must not
                // say "You are watching now" over the "Watching is off" notice.
                table.error && info?.watching === false && table.error.code in NOT_WATCHING
                ? { ...table.error, key: NOT_WATCHING[table.error.code] }
                : table.error
        }
        count={table.errorCount}
        onClose={table.clearError}
        seatName={info ? (s: number) => seatName(t, info, s) : undefined}
      />
    </div>
  );
}

function CopyButton({ text, label, what }: { text: string; label: string; /** What it copies, for a screen reader ("Copy" twice read alike). */ what?: string }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
    } catch {
      window.prompt(label, text); // clipboard refused (plain http): let the person copy it
    }
    window.setTimeout(() => setCopied(false), 2500);
  };
  // The button's new name is not read out by itself: a live region says it was copied.
  return (
    <>
      <button type="button" aria-label={what ? `${copied ? t("ui.table.copied") : label}: ${what}` : undefined} onClick={() => void copy()}>
        {copied ? t("ui.table.copied") : label}
      </button>
      <span className="sr-only" aria-live="polite" data-copied-said="">
        {copied ? `${t("ui.table.copied")}${what ? `: ${what}` : ""}` : ""}
      </span>
    </>
  );
}

/** "Share…" beside a link where the device can hand it to another app (a phone's
 * messages or mail: the Web Share API); nothing where it cannot (Copy is beside it). */
function ShareButton({ url, game }: { url: string; game: string }) {
  const { t } = useTranslation();
  if (typeof navigator.share !== "function") return null;
  const text = t("ui.table.share_text", { game: t(`games.${game}.title`) });
  const share = () =>
    navigator.share({ title: text, text, url }).catch(() => undefined); // closed: nothing to say
  return (
    <button type="button" className="share-button" onClick={() => void share()}>
      {t("ui.table.share")}
    </button>
  );
}

/** The host's link for an open seat kept for a guest: made anew when asked (the seat's
 * earlier link stops working), shown to copy and send. */
function SeatLinkButton({ info, seat, server, hostToken }: { info: TableInfo; seat: number; server: ServerInfo | null; hostToken: string }) {
  const { t } = useTranslation();
  const [url, setUrl] = useState<string | null>(null);
  const [error, setError] = useState<ErrorMessage | null>(null);
  const make = async () => {
    setError(null);
    try {
      const { code } = await api.seatLink(info.id, seat, hostToken);
      const made = `${inviteUrl(info.invite, server)}#invite=${code}&seat=${seat + 1}`;
      setUrl(made);
      await navigator.clipboard.writeText(made).catch(() => undefined);
    } catch (caught) {
      if (caught instanceof ApiError) setError(caught.error);
    }
  };
  const id = `seat-link-${seat}`;
  return (
    <div className="seat-link">
      {url === null ? (
        <button type="button" onClick={() => void make()}>
          {t("ui.table.seat_link_make")}
        </button>
      ) : (
        <>
          <label className="sr-only" htmlFor={id}>
            {t("ui.table.seat_link_label", { seat: seat + 1 })}
          </label>
          <div className="invite-row">
            <input id={id} readOnly value={url} onFocus={(event) => event.target.select()} />
            <CopyButton text={url} label={t("ui.table.copy")} />
            <ShareButton url={url} game={info.game} />
          </div>
          <p className="field-help">{t("ui.table.seat_link_help")}</p>
        </>
      )}
      {error && <p className="notice error" role="alert">{translateError(t, error)}</p>}
    </div>
  );
}

/** Under a running game: the invite link while a seat is open, the watch link, and your
 * seat's link for another device. */
function TableLinks({ info, server, seat, token, begun }: {
  info: TableInfo;
  server: ServerInfo | null;
  seat: number | null;
  token: string | null;
  begun: boolean;
}) {
  const { t } = useTranslation();
  const url = inviteUrl(info.invite, server);
  // Every seat taken, kept for the host's guest, or the game over: nobody is to be
  // invited (the watch link stays).
  const inviting = invitable(info);
  return (
    <div className="table-links">
      <HowToPlay game={info.game} />
      {inviting && <CopyButton text={url} label={t("ui.table.copy_invite")} />}
      {inviting && <ShareButton url={url} game={info.game} />}
      {info.watching === false ? (
        <span className="muted watch-off-note">{t("ui.watch.off_short")}</span>
      ) : (
        <CopyButton text={`${url}/watch`} label={t("ui.watch.copy")} />
      )}
      <ScreenLink info={info} button />
      <Watchers info={info} />
      {info.host_seat != null && info.status !== "finished" && (
        <span className="muted table-host">{t("ui.host.is_host", { player: seatName(t, info, info.host_seat) })}</span>
      )}
      {token && (
        <span className="table-link-device">
          <CopyButton text={`${url}#seat=${token}`} label={t("ui.table.copy_device_link")} />
          <span className="field-help">{t("ui.table.device_link_help")}</span>
        </span>
      )}
      <ChangeName info={info} seat={seat} token={token} />
      <LeaveTable info={info} seat={seat} token={token} begun={begun} />
    </div>
  );
}

/** Opens the table's big screen (for a TV or projector) in a new tab; among the
 * table's buttons it looks like one of them (``button``), in a sentence like a link. */
function ScreenLink({ info, button = false }: { info: TableInfo; button?: boolean }) {
  const { t } = useTranslation();
  return (
    <a className={button ? "button screen-link" : "screen-link"} href={`/t/${info.id}/screen`} target="_blank" rel="noopener">
      {t("ui.screen.open")}
      {button && <span aria-hidden="true">↗</span>}
    </a>
  );
}

function InviteLink({ info, server, begun }: { info: TableInfo; server: ServerInfo | null; begun: boolean }) {
  const { t } = useTranslation();
  const url = inviteUrl(info.invite, server);
  return (
    <div className="invite">
      <label className="field-label" htmlFor="invite-url">{t("ui.table.invite_label")}</label>
      <div className="invite-row">
        <input id="invite-url" readOnly value={url} onFocus={(event) => event.target.select()} />
        <CopyButton text={url} label={t("ui.table.copy")} what={t("ui.table.invite_label")} />
        <ShareButton url={url} game={info.game} />
      </div>
      {/* Once the game has begun an open seat is kept for whoever the host sends its own
          link: the invite link opens the table but no seat. */}
      <p className="field-help">{t(begun ? "ui.table.invite_help_begun" : "ui.table.invite_help")}</p>
      <label className="field-label" htmlFor="watch-url">{t("ui.watch.label")}</label>
      {info.watching === false ? (
        <p className="muted watch-off-note">{t("ui.watch.off_short")}</p>
      ) : (
        <div className="invite-row">
          <input id="watch-url" readOnly value={`${url}/watch`} onFocus={(event) => event.target.select()} />
          <CopyButton text={`${url}/watch`} label={t("ui.table.copy")} what={t("ui.watch.label")} />
        </div>
      )}
      {/* The watch link is the table's address and "/watch": before the game it leads to
          the open seats as well (strip "/watch" and the invite page offers them). */}
      <p className="field-help">{t(begun ? "ui.watch.help" : "ui.watch.help_waiting")}</p>
      <p className="field-help">
        <ScreenLink info={info} /> {t("ui.screen.link_help")}
      </p>
      {/* The host can act on it (they started the server, or know who did); a guest who
          opened the link on this same computer cannot. */}
      {onlyHere(server) && tokens.host(info.id) && <p className="notice">{t("ui.table.invite_localhost")}</p>}
    </div>
  );
}

/** What the host chose of the table's options, as one string: the game's options and a
 * clock's that limits anything. A clock without limits (made when someone asked a
 * computer player to play for them at a table without one) and the server's own
 * `absent_seconds` are no choice of the host's: "the host changed the options" was said
 * to everyone when such a clock came. */
function hostOptionsKey(info: TableInfo): string {
  const clock = info.clock;
  const limits = clock && (clock.turn_seconds != null || clock.cover_absent);
  return JSON.stringify([info.config, limits ? [clock.turn_seconds, clock.cover, clock.cover_absent] : null]);
}

/** Said to everyone at a table whose game has begun when the host changes the options
 * before the first move (every hand is dealt again): the settings as they are now.
 * `byYou`: this page is the host's ("You changed the options"). */
function OptionsChanges({ info, byYou }: { info: TableInfo; byYou: boolean }) {
  const { t } = useTranslation();
  const key = hostOptionsKey(info);
  const seen = useRef(key);
  const [changed, setChanged] = useState(false);
  useEffect(() => {
    if (seen.current === key) return;
    seen.current = key;
    setChanged(true);
  }, [key]);
  if (!changed) return null;
  return (
    <p className="notice" role="status" data-notice="options-changed">
      {t(byYou ? "ui.table.options_changed_playing_by_you" : "ui.table.options_changed_playing", { settings: tableSettings(t, info).join(" · ") })}
    </p>
  );
}

/** The level most of the table's computer players play at (``null``: none plays at a
 * level). */
function seatedLevel(info: TableInfo): string | null {
  const counts = new Map<string, number>();
  for (const s of info.seats) {
    if (s.kind === "bot" && s.bot && (LEVELS as readonly string[]).includes(s.bot)) counts.set(s.bot, (counts.get(s.bot) ?? 0) + 1);
  }
  let best: string | null = null;
  for (const [name, count] of counts) if (best === null || count > (counts.get(best) ?? 0)) best = name;
  return best;
}

/** What someone about to take a seat should know of the table: the players, the options
 * not at their defaults (as the lobby words them), and the turn clock. */
function tableSettings(t: TFunction, info: TableInfo): string[] {
  const namespace = namespaceOf(info.game);
  const parts = [t("ui.table.players", { count: info.seats.length })];
  for (const [name, value] of Object.entries(info.config ?? {})) {
    // The rules' version is for records; a deck's name is its owner's to tell; what the
    // lobby does not offer (a deck's size) has no label.
    if (name === "rules_version" || name === "deck") continue;
    const key = `${namespace}.options.${name}`;
    const label = t(`${key}.label`, { defaultValue: "" });
    if (!label) continue;
    parts.push(`${label}: ${t(`${key}.values.${String(value)}`, { defaultValue: String(value) })}`);
  }
  if (info.clock?.turn_seconds) parts.push(t("ui.clock.per_turn", { time: formatLeft(info.clock.turn_seconds * 1000) }));
  return parts;
}

function WaitingRoom({
  info,
  seat,
  server,
  onJoined,
  begun = false,
}: {
  info: TableInfo;
  seat: number | null;
  server: ServerInfo | null;
  onJoined: (seat: number, token: string) => void;
  /** The game has begun (a seat was opened again, say by the host removing a player). */
  begun?: boolean;
}) {
  const { t } = useTranslation();
  const hostToken = tokens.host(info.id);
  const [error, setError] = useState<ErrorMessage | null>(null);
  const [name, setName] = useState(tokens.name());
  const open = info.seats.filter((s) => s.kind === "open").length;
  // The tab says what the page is (it read "gametable", as the lobby does); mid-game
  // the table's own title stands.
  const waitingTitle = `${t("ui.table.waiting_title")} · ${t(`games.${info.game}.title`)} · ${APP_TITLE}`;
  useEffect(() => {
    if (begun) return;
    document.title = waitingTitle;
    return () => {
      document.title = APP_TITLE;
    };
  }, [begun, waitingTitle]);

  const run = async (work: () => Promise<void>) => {
    setError(null);
    try {
      await work();
    } catch (caught) {
      if (caught instanceof ApiError) setError(caught.error);
    }
  };
  const code = tokens.invite(info.id);
  const keptFor = tokens.inviteSeat(info.id);
  const join = (target: number) =>
    run(async () => {
      tokens.saveName(name.trim());
      // Without a name the seat has none: each reader's page calls it "Player n" in
      // their own language.
      const kept = info.seats[target]?.invited ?? false;
      const result = await joinSeat(info, info.seats[target], name.trim(), code);
      if (kept) tokens.saveInvite(info.id, null);
      onJoined(result.seat, result.token);
    });
  // The host seats computer players of the level chosen here (a level works for every
  // game, as in the lobby): at first the level of those already seated (the lobby's
  // choice; a Medium one joined Hard ones), else Medium.
  const [level, setLevel] = useState<string>(() => seatedLevel(info) ?? "medium");
  const addBot = (target: number) => run(async () => void (await api.seatBot(info.id, target, level, hostToken!)));
  // Before the first move the host may put the table right: a friend who joined the
  // wrong table leaves it, a computer player's seat opens again (every hand is dealt
  // again, so whoever left knows nothing of the cards).
  const changeable = (s: SeatInfo) =>
    Boolean(hostToken) && !begun && !info.begun && info.version === 0 && s.seat !== info.host_seat && s.seat !== seat &&
    (s.kind === "bot" || s.kind === "human");
  const [removing, setRemoving] = useState<number | null>(null);
  // The host hands the role on from here too: told to before leaving the table, a host
  // waiting for the game found no way to do it (the host controls come with the game).
  const handable = (s: SeatInfo) =>
    Boolean(hostToken) && s.kind === "human" && s.connected && s.seat !== seat && s.seat !== info.host_seat;
  const [handing, setHanding] = useState<number | null>(null);
  const handHost = (target: number) => {
    setHanding(null);
    return run(async () => void (await api.handHost(info.id, target, hostToken!)));
  };
  const openSeat = (target: number) => {
    setRemoving(null);
    return run(async () => void (await api.removePlayer(info.id, target, null, hostToken!)));
  };
  const fillAll = () =>
    run(async () => {
      for (const s of info.seats) if (s.kind === "open") await api.seatBot(info.id, s.seat, level, hostToken!);
    });

  // The host changed the options (the friends waiting were not told, the host saw no
  // "saved"): said to everyone here, once, where the settings are.
  const optionsKey = hostOptionsKey(info);
  const seenOptions = useRef(optionsKey);
  const [optionsChanged, setOptionsChanged] = useState(false);
  const changedNotice = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (seenOptions.current === optionsKey) return;
    seenOptions.current = optionsKey;
    setOptionsChanged(true);
  }, [optionsKey]);
  useEffect(() => {
    if (optionsChanged) changedNotice.current?.scrollIntoView({ block: "nearest" });
  }, [optionsChanged, optionsKey]);

  // The room is a new page: keyboard and screen-reader users start at its heading (focus
  // fell to the page's body after "Create table"). When the game takes the room's place,
  // the page shows it from the top, where its status line says whose turn it is (it
  // stayed scrolled to the seat where the host had last clicked).
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (!begun) heading.current?.focus({ preventScroll: true });
    return () => {
      if (begun) return;
      window.scrollTo({ top: 0 });
      // The game's status line (whose turn, what to do) takes the focus from the button
      // that started the game, now gone: it had fallen to the page's body.
      requestAnimationFrame(focusStatusLineSoon);
    };
  }, [begun]);

  const teams = teamsOf(info);
  // A visitor came to take a seat: the name and the seats come first, the invite link
  // (the host's to share) after them.
  // Someone the host removed is not offered a seat here again.
  const removed = seat === null && tokens.removed(info.id);
  const takeable = info.seats.filter((s) => mayTake(s, code, keptFor)).length;
  const visitor = seat === null && takeable > 0 && !removed;
  const firstTakeable = info.seats.find((s) => mayTake(s, code, keptFor));
  // Seats the host keeps for guests with their links, and this page has none.
  const kept = seat === null && !removed && open > 0 && takeable === 0;
  // A friend who took a seat sees where they sit, and who else came, before the links
  // (on a phone the seats were below the links and the localhost notice).
  const seatsFirst = seat !== null && !hostToken;
  // Every open seat kept for a guest: the invite link takes none (each has its own link).
  const allKept = open > 0 && info.seats.every((s) => s.kind !== "open" || s.invited);
  return (
    // Mid-game it stands over the table, which keeps its size: the page scrolls past it
    // (the Sequence Cats board, fitted below it, shrank to a strip).
    <div className="waiting-room panel" data-scrolls-past={begun ? "" : undefined}>
      <h1 ref={heading} tabIndex={-1}>{t(`games.${info.game}.title`)}</h1>
      <p className="table-settings">{tableSettings(t, info).join(" · ")}</p>
      {optionsChanged && (
        <p ref={changedNotice} className="notice" role="status" data-notice="options-changed">
          {t(hostToken ? "ui.table.options_changed_by_you" : "ui.table.options_changed")}
        </p>
      )}
      <HowToPlay game={info.game} className="waiting-how" />
      <p className="lead">{t(begun ? "ui.table.goes_on" : "ui.table.waiting", { count: open })}</p>
      {/* Someone alone who pressed "Create table" waited for a friend who would never
          come: the way to play at once stands under what the room waits for (the seats'
          own buttons were below the links, past the window's bottom). */}
      {hostToken && open > 0 && !begun && (
        <p className="fill-now">
          <span>{t("ui.table.no_one_to_invite")}</span>
          <button type="button" data-action="fill-bots" onClick={() => void fillAll()}>
            {t("ui.table.fill_bots_now", { count: open })}
          </button>
        </p>
      )}
      {removed && (
        <p className="notice" role="status" data-notice="removed">
          {t("ui.table.removed_here")}
        </p>
      )}
      {kept && <p className="notice" data-notice="seat-kept">{t("ui.table.seat_kept_help")}</p>}
      {!visitor && !removed && !allKept && !seatsFirst && <InviteLink info={info} server={server} begun={Boolean(begun)} />}
      {visitor && (
        <label className="field">
          <span className="field-label">{t("ui.lobby.your_name")}</span>
          <input
            name="name"
            value={name}
            autoComplete="nickname"
            placeholder={t("ui.lobby.name_placeholder")}
            aria-describedby={!nameShows(name) ? "no-name-help" : undefined}
            onChange={(e) => setName(upTo(e.target.value, NAME_MAX))}
          />
          <NameLimit name={name} />
        </label>
      )}
      {/* A guest who took a seat without a name became "Player 2" unawares (a name of
          blank letters only, the Hangul filler, is none: the hint stays). */}
      {visitor && !nameShows(name) && firstTakeable !== undefined && (
        <p className="field-help" id="no-name-help" data-help="no-name">
          {t("ui.table.no_name_help", { name: t("ui.seat.default_name", { seat: firstTakeable.seat + 1 }) })}
        </p>
      )}
      {hostToken && !begun && !info.begun && info.version === 0 && <ChangeOptions info={info} server={server} hostToken={hostToken} />}
      {hostToken && open > 0 && (
        <LevelField className="bot-level" label={t("ui.table.bot_level")} value={level} onChange={setLevel} />
      )}
      {teams && <p className="muted">{t("ui.table.teams_help")}</p>}
      <ol className="seat-list">
        {info.seats.map((s) => (
          <li key={s.seat} className={`seat-row ${s.seat === seat ? "mine" : ""}`}>
            <span className="seat-number">{t("ui.seat.label", { seat: s.seat + 1 })}</span>
            {teams && (
              <span className="tag seat-team" data-team={teamOfSeat(teams, s.seat)}>
                {GAMES[info.game]?.teamName?.(t, teamOfSeat(teams, s.seat)) ??
                  t("ui.table.team", { team: teamOfSeat(teams, s.seat) + 1 })}
              </span>
            )}
            <span className="seat-name">
              {seatName(t, info, s.seat)}
              {s.seat === seat && <span className="tag">{t("ui.seat.you")}</span>}
              {info.host_seat != null && s.seat === info.host_seat && <span className="tag muted seat-host">{t("ui.host.tag")}</span>}
              {absenceTag(s) && s.seat !== seat && <span className="tag muted">{t(absenceTag(s)!)}</span>}
            </span>
            {s.seat === seat && <ChangeName info={info} seat={seat} token={tokens.seat(info.id)?.token ?? null} />}
            {mayTake(s, code, keptFor) && seat === null && !removed && (
              <button type="button" className="primary" onClick={() => void join(s.seat)}>
                {t("ui.table.take_seat")}
              </button>
            )}
            {s.kind === "open" && s.invited && !hostToken && !mayTake(s, code, keptFor) && (
              <span className="tag muted">{t("ui.table.seat_kept")}</span>
            )}
            {s.kind === "open" && s.invited && hostToken && (
              <SeatLinkButton info={info} seat={s.seat} server={server} hostToken={hostToken} />
            )}
            {s.kind === "open" && hostToken && (
              <button
                type="button"
                aria-label={`${t("ui.table.add_bot")}: ${t("ui.seat.label", { seat: s.seat + 1 })}`}
                onClick={() => void addBot(s.seat)}
              >
                {t("ui.table.add_bot")}
              </button>
            )}
            {s.kind === "bot" && s.bot && hostToken && (
              // A computer player's level changes at any time (as in the host controls).
              <BotLevelSelect
                game={info.game}
                className="seat-level"
                bot={s.bot}
                label={t("ui.host.level_of", { player: shortSeatName(t, info, s.seat) })}
                onChange={(chosen) => void run(async () => void (await api.seatBot(info.id, s.seat, chosen, hostToken)))}
              />
            )}
            {changeable(s) && s.kind === "bot" && (
              <button type="button" onClick={() => void openSeat(s.seat)}>
                {t("ui.table.open_bot_seat")}
              </button>
            )}
            {changeable(s) && s.kind === "human" && removing !== s.seat && (
              <button type="button" onClick={() => setRemoving(s.seat)}>
                {t("ui.table.remove_seated", { player: seatName(t, info, s.seat) })}
              </button>
            )}
            {changeable(s) && s.kind === "human" && removing === s.seat && (
              <Confirm
                question={t("ui.table.remove_seated_question", { player: seatName(t, info, s.seat) })}
                confirm={t("ui.host.remove_confirm")}
                onConfirm={() => void openSeat(s.seat)}
                onCancel={() => setRemoving(null)}
              />
            )}
            {handable(s) && handing !== s.seat && (
              <button type="button" data-action="make-host" onClick={() => setHanding(s.seat)}>
                {t("ui.host.make_host", { player: seatName(t, info, s.seat) })}
              </button>
            )}
            {handable(s) && handing === s.seat && (
              <Confirm
                question={t("ui.host.make_host_question", { player: seatName(t, info, s.seat) })}
                confirm={t("ui.host.make_host_confirm")}
                onConfirm={() => void handHost(s.seat)}
                onCancel={() => setHanding(null)}
              />
            )}
          </li>
        ))}
      </ol>
      {hostToken && open > 1 && begun && (
        <button type="button" onClick={() => void fillAll()}>
          {t("ui.table.fill_bots")}
        </button>
      )}
      {error && <p className="notice error" role="alert">{translateError(t, error)}</p>}
      {!begun && <LeaveTable info={info} seat={seat} token={tokens.seat(info.id)?.token ?? null} begun={info.version > 0 || Boolean(info.begun)} />}
      {(visitor || (seatsFirst && !removed && !allKept)) && <InviteLink info={info} server={server} begun={Boolean(begun)} />}
    </div>
  );
}

/** The table's teams, when its game plays in teams: ``public.teams`` as lists of seat
 * numbers, or ``public.team_of``, the team of each seat; null when everyone plays alone. */
function teamsOf(info: TableInfo): number[][] | null {
  const teams = info.public.teams;
  if (Array.isArray(teams) && teams.every((team) => Array.isArray(team))) return teams as number[][];
  const teamOf = info.public.team_of;
  if (!Array.isArray(teamOf) || !teamOf.every((team) => typeof team === "number")) return null;
  const grouped: number[][] = [];
  (teamOf as number[]).forEach((team, seat) => (grouped[team] ??= []).push(seat));
  return grouped.length < teamOf.length ? grouped : null;
}

function teamOfSeat(teams: number[][], seat: number): number {
  return teams.findIndex((team) => team.includes(seat));
}

/** While the host lets nobody watch, the invite link cannot show the table live: the
 * seats come over HTTP instead, so that an open one can still be taken (with a seat, the
 * connection is a player's and the table shows). */
function SeatsOnly({
  tableId,
  server,
  onJoined,
  children,
}: {
  tableId: string;
  server: ServerInfo | null;
  onJoined: (seat: number, token: string) => void;
  children: ReactNode;
}) {
  const [info, setInfo] = useState<TableInfo | null>(null);
  useEffect(() => {
    api.table(tableId).then(setInfo, () => setInfo(null));
  }, [tableId]);
  if (info && info.seats.some((s) => s.kind === "open")) {
    return <WaitingRoom info={info} seat={null} server={server} onJoined={onJoined} />;
  }
  return <>{children}</>;
}

/** How many people watch the table (shown once someone does). */
function Watchers({ info }: { info: TableInfo }) {
  const { t } = useTranslation();
  const count = info.watchers ?? 0;
  if (count === 0) return null;
  return (
    <span className="watchers" data-count={count}>
      <svg className="watchers-eye" viewBox="0 0 24 24" width="16" height="16" aria-hidden="true" focusable="false">
        <path
          d="M12 5C6.5 5 2.7 9.3 1.5 12c1.2 2.7 5 7 10.5 7s9.3-4.3 10.5-7C21.3 9.3 17.5 5 12 5zm0 11.5a4.5 4.5 0 1 1 0-9 4.5 4.5 0 0 1 0 9zm0-2.5a2 2 0 1 0 0-4 2 2 0 0 0 0 4z"
          fill="currentColor"
        />
      </svg>
      {t("ui.watch.count", { count })}
    </span>
  );
}

/** At the top of the watch link's page: what this is, who plays, how many watch. */
function WatchBar({ info }: { info: TableInfo }) {
  const { t } = useTranslation();
  const players = info.seats.filter((s) => s.kind !== "open").map((s) => seatName(t, info, s.seat));
  return (
    <div className="spectator-bar watch-bar" role="status">
      <span>
        <strong>{t(`games.${info.game}.title`)}</strong> · {t("ui.watch.you_watch")}{" "}
        {players.length > 0 && <span className="watch-players">{t("ui.watch.players", { players: andList(players) })}</span>}
      </span>
      <Watchers info={info} />
    </div>
  );
}

/** The watch link before the game starts: who sits where; no seat to take. */
function WatchWaiting({ info }: { info: TableInfo }) {
  const { t } = useTranslation();
  const open = info.seats.filter((s) => s.kind === "open").length;
  return (
    <div className="waiting-room panel">
      <h1>{t(`games.${info.game}.title`)}</h1>
      <p className="lead">{t("ui.table.waiting", { count: open })}</p>
      <ol className="seat-list">
        {info.seats.map((s) => (
          <li key={s.seat} className="seat-row">
            <span className="seat-number">{t("ui.seat.label", { seat: s.seat + 1 })}</span>
            <span className="seat-name">{s.kind === "open" ? t("ui.watch.open_seat") : seatName(t, info, s.seat)}</span>
          </li>
        ))}
      </ol>
    </div>
  );
}

function SpectatorBar({ info, onJoined }: { info: TableInfo; onJoined: (seat: number, token: string) => void }) {
  const { t } = useTranslation();
  const [error, setError] = useState<ErrorMessage | null>(null);
  const code = tokens.invite(info.id);
  const keptFor = tokens.inviteSeat(info.id);
  // A seat link's holder takes the seat kept for them, before any other open one.
  const open =
    info.seats.find((s) => s.invited && mayTake(s, code, keptFor)) ??
    info.seats.find((s) => mayTake(s, code, keptFor));
  const removed = tokens.removed(info.id);
  // Someone who came with the invite link to a table whose seats are all taken is
  // told why they only watch, and where to play.
  const full = !open && !removed && info.status === "playing";
  return (
    <div className="spectator-bar">
      <span>
        {t(
          removed
            ? info.watching === false
              ? "server.errors.removed_by_host_not_watching"
              : "ui.table.removed_watching"
            : full
              ? "ui.table.full_watching"
              : "ui.table.watching",
        )}
      </span>
      {full && (
        <button type="button" onClick={() => navigate("/")}>
          {t("ui.table.own_table")}
        </button>
      )}
      {open && !removed && (
        <button
          type="button"
          onClick={() => {
            setError(null);
            joinSeat(info, open, tokens.name(), code).then(
              (r) => onJoined(r.seat, r.token),
              (caught) => caught instanceof ApiError && setError(caught.error),
            );
          }}
        >
          {t("ui.table.take_seat")}
        </button>
      )}
      {error && (
        <span className="notice error" role="alert">
          {translateError(t, error)}
        </span>
      )}
    </div>
  );
}

/** How long a person must have been offline before the host is offered to give their
 * seat to a computer player, unless the server says: as long as it waits before it may
 * open the seat (`--reopen-after-seconds`), since a phone asleep or a network changing
 * is not leaving. */
const ABSENT_AFTER_MS = 60_000;
/** How long a person whose turn it is must have been offline before the table is told
 * that the game waits for them. */
const OFFLINE_NOTICE_MS = 5_000;
/** The level of the computer player that takes an absent person's seat. */
const TAKEOVER_LEVEL = "medium";

/** For the table's host: offer a computer player for anyone gone for a while (not for a
 * seat the turn clock's computer player already covers), asking first, since the
 * person can then only watch. */
export function AbsentPlayers({
  info,
  seat,
  away,
  server,
  toAct,
  watchOnly = false,
}: {
  /** The big screen: it tells the room whom the game waits for, and offers nothing
   * (a TV in the host's browser held the host's buttons). */
  watchOnly?: boolean;
  info: TableInfo;
  /** This page's seat: never offered (the page's own connection may not be counted yet). */
  seat: number | null;
  away: Record<string, string> | null;
  server: ServerInfo | null;
  /** The seats that must act now: everyone is told at once that the game waits for an
   * offline one (the turn line said "Max is playing…" for a minute). */
  toAct: number[];
}) {
  const { t } = useTranslation();
  const hostToken = watchOnly ? null : tokens.host(info.id);
  const [error, setError] = useState<ErrorMessage | null>(null);
  const [asking, setAsking] = useState<number | null>(null);
  const [offlineSince, setOfflineSince] = useState<Record<number, number>>({});
  const [now, setNow] = useState(() => Date.now());
  const reopenAfter = server?.server.reopen_after_seconds;
  const absentAfter = reopenAfter === undefined ? ABSENT_AFTER_MS : reopenAfter * 1000;
  // A reload or a short network drop is not leaving: wait a little before offering.
  useEffect(() => {
    setOfflineSince((old) => {
      const next: Record<number, number> = {};
      for (const s of info.seats) if (s.kind === "human" && !s.connected) next[s.seat] = old[s.seat] ?? Date.now();
      return next;
    });
  }, [info]);
  useEffect(() => {
    if (Object.keys(offlineSince).length === 0) return;
    const timer = window.setInterval(() => setNow(Date.now()), 2000);
    return () => window.clearInterval(timer);
  }, [offlineSince]);
  const absent = info.seats.filter(
    (s) =>
      s.kind === "human" &&
      s.seat !== seat &&
      !s.connected &&
      !(away && String(s.seat) in away) &&
      now - (offlineSince[s.seat] ?? now) >= absentAfter,
  );
  // A moment offline (a reload) is not worth saying.
  const waitedFor = info.seats.filter(
    (s) =>
      s.kind === "human" &&
      s.seat !== seat &&
      !s.connected &&
      toAct.includes(s.seat) &&
      !(away && String(s.seat) in away) &&
      !(hostToken && absent.includes(s)) &&
      now - (offlineSince[s.seat] ?? now) >= OFFLINE_NOTICE_MS,
  );
  const waiting =
    waitedFor.length > 0 ? (
      <p className="absent-waiting muted" role="status">
        {/* At a table whose computer players cover for absent players, the game does
            not wait for them for long (the countdown beside the seat says how long). */}
        {waitedFor
          .map((s) =>
            info.clock?.cover_absent
              ? t("ui.table.waits_for_offline_covered", { player: seatName(t, info, s.seat), level: t(`bots.${info.clock.cover}`, { defaultValue: info.clock.cover }) })
              : t("ui.table.waits_for_offline", { player: seatName(t, info, s.seat) }),
          )
          .join(" ")}
      </p>
    ) : null;
  if (!hostToken || absent.length === 0) return waiting;
  const takeOver = async (seat: number) => {
    setAsking(null);
    try {
      await api.seatBot(info.id, seat, TAKEOVER_LEVEL, hostToken);
    } catch (caught) {
      if (caught instanceof ApiError) setError(caught.error);
    }
  };
  // First the choice that keeps the seat theirs: a phone asleep is not leaving.
  const cover = async (seat: number) => {
    setError(null);
    try {
      await api.coverPlayer(info.id, seat, hostToken);
    } catch (caught) {
      if (caught instanceof ApiError) setError(caught.error);
    }
  };
  return (
    <div className="absent-bar">
      {waiting}
      {absent.map((s) => {
        const player = seatName(t, info, s.seat);
        return (
          <span key={s.seat} className="absent-player">
            {asking === s.seat ? (
              <Confirm
                // With watching off the player cannot watch afterwards either.
                question={t(info.watching === false ? "ui.table.takeover_question_not_watching" : "ui.table.takeover_question", {
                  player,
                })}
                confirm={t("ui.table.takeover_confirm")}
                onConfirm={() => void takeOver(s.seat)}
                onCancel={() => setAsking(null)}
              />
            ) : (
              <>
                {t("ui.table.player_offline", { player })}
                <button type="button" data-action="cover" onClick={() => void cover(s.seat)}>
                  {t("ui.host.cover", { player })}
                </button>
                <button type="button" onClick={() => setAsking(s.seat)}>
                  {t("ui.table.bot_takes_over")}
                </button>
              </>
            )}
          </span>
        );
      })}
      {error && <span className="notice error">{translateError(t, error)}</span>}
    </div>
  );
}

function ErrorToast({
  error,
  count,
  onClose,
  seatName: nameOf,
}: {
  error: ErrorMessage | null;
  count: number;
  onClose: () => void;
  /** The table's seats by name, for an error that names the seat to play. */
  seatName?: (seat: number) => string;
}) {
  const { t } = useTranslation();
  useEffect(() => {
    if (!error) return;
    const timer = window.setTimeout(onClose, 6000);
    return () => window.clearTimeout(timer);
  }, [error, count, onClose]);
  if (!error) return null;
  return (
    // A refused chat line's toast stands at the window's top: at its foot it lay over
    // the line the person types on ("Slow down…" over the chat's box).
    <div className={`toast ${error.code.startsWith("chat_") ? "at-top" : ""}`} role="alert">
      <span>{translateError(t, error, nameOf)}</span>
      {error.rule && error.rule !== "PROTOCOL" && <span className="rule-id">{error.rule}</span>}
      <button type="button" className="toast-close" aria-label={t("ui.close")} onClick={onClose}>
        ×
      </button>
    </div>
  );
}

