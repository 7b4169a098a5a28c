// The host's controls at a running table: let a computer player play for someone who is
// not at the table until they are back, remove a player (their seat opens or goes to a
// computer player), give a computer player another level, make someone else host,
// change the options before the first move (a two-seat table begins as the friend
// joins), pause or resume the turn clock, let people watch (the watch link) or not, end
// the game.
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiError, api } from "./api";
import { ChangeOptions } from "./ChangeOptions";
import { Confirm } from "./Confirm";
import { BotLevelSelect } from "./LevelField";
import { absenceTag, LEVELS, seatName, shortSeatName } from "./seatName";
import { translateError } from "./translateError";
import type { ErrorMessage, TableInfo } from "./types";
import type { Clock } from "./useTable";
import type { ServerInfo } from "./useGames";
import { scrollBehavior } from "./motion";
import { RecordLink } from "./RecordLink";
import { AppLink } from "./AppLink";

/** How long a refusal stays under the host controls (milliseconds). */
export const REFUSAL_MS = 20_000;

export function HostControls({
  info,
  seat,
  hostToken,
  clock,
  begun,
  server,
}: {
  info: TableInfo;
  seat: number | null;
  hostToken: string;
  clock: Clock | null;
  /** The first move was made (the state's version is above 0). */
  begun: boolean;
  /** The server's games (their options), for changing the options before the first move. */
  server: ServerInfo | null;
}) {
  const { t } = useTranslation();
  const [error, setError] = useState<ErrorMessage | null>(null);
  // A refusal is said at the controls' foot: brought into sight (a Remove refused for a
  // player who left moments ago seemed to do nothing, its answer below the window).
  const refusal = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (!error) return;
    refusal.current?.scrollIntoView({ block: "nearest", behavior: scrollBehavior() });
    // It goes after a while: it stood for minutes, naming a player by a name since
    // changed, and "in 24 s" that never counted down.
    const timer = window.setTimeout(() => setError(null), REFUSAL_MS);
    return () => window.clearTimeout(timer);
  }, [error]);
  const [replacement, setReplacement] = useState<Record<number, string>>({});
  const [confirming, setConfirming] = useState(false);
  /** The seat whose removal the host is asked to confirm (it cannot be undone). */
  const [removing, setRemoving] = useState<number | null>(null);
  /** The seat the host is asked to confirm handing the role to (they lose the controls). */
  const [handing, setHanding] = useState<number | null>(null);
  /** Watching as the host just set it, until the server's answer comes. */
  const [asked, setAsked] = useState<boolean | null>(null);
  useEffect(() => {
    if (asked !== null && (info.watching !== false) === asked) setAsked(null);
  }, [asked, info.watching]);
  const run = async (work: () => Promise<unknown>) => {
    setError(null);
    try {
      await work();
    } catch (caught) {
      if (caught instanceof ApiError) setError(caught.error);
    }
  };
  const others = info.seats.filter((s) => s.kind === "human" && s.seat !== seat && s.seat !== info.host_seat);
  // A computer player plays on at the level the host gives it, at once (a decision
  // under way is made afresh).
  const computers = info.seats.filter((s) => s.kind === "bot" && s.bot);
  const paused = clock?.paused_at != null;

  return (
    <details
      className="host-controls"
      // Opened at the page's bottom, the controls would lie below the window's edge.
      onToggle={(event) => {
        const details = event.currentTarget;
        if (details.open) details.scrollIntoView({ block: "nearest", behavior: scrollBehavior() });
      }}
    >
      <summary>{t("ui.host.title")}</summary>
      <div className="host-body">
        {others.length > 0 && (
          <ul className="host-seats">
            {others.map((s) => {
              const name = seatName(t, info, s.seat);
              // Once the game has begun, a present player's seat goes to a computer
              // player until the game is over, never to someone else: whoever took it
              // would see their cards (the server refuses). Before the first move every
              // hand is dealt again, so it may open.
              const present = s.connected && begun;
              // A host the role passed to by itself opens no begun seat either: the
              // server refuses it (host_not_chosen), so it is not offered.
              const unchosen = begun && info.host_chosen === false;
              const closed = present || unchosen;
              const chosen = replacement[s.seat];
              const choice = chosen !== undefined && !(closed && chosen === "") ? chosen : closed ? "medium" : "";
              return (
                <li key={s.seat} className="host-seat">
                  <span className="host-seat-name">
                    {name}
                    {absenceTag(s) && <span className="tag muted">{t(absenceTag(s)!)}</span>}
                  </span>
                  {/* A friend whose phone fell asleep need not be removed for play to go
                      on: a computer player covers until their page is back. */}
                  {!s.connected && info.status === "playing" && (
                    <span className="host-seat-cover">
                      {clock?.away[String(s.seat)] !== undefined ? (
                        <span className="host-seat-covered" data-covered="true">{t("ui.host.covered")}</span>
                      ) : (
                        <button
                          type="button"
                          data-action="cover"
                          onClick={() => void run(() => api.coverPlayer(info.id, s.seat, hostToken))}
                        >
                          {t("ui.host.cover", { player: name })}
                        </button>
                      )}
                    </span>
                  )}
                  {/* Said in words, the choice does not read as what the player is now. */}
                  <span className="host-seat-then" aria-hidden="true">
                    {t("ui.host.in_their_seat")}
                  </span>
                  <select
                    aria-label={t("ui.host.replace_with", { player: name })}
                    value={choice}
                    onChange={(event) => setReplacement({ ...replacement, [s.seat]: event.target.value })}
                  >
                    <option value="" disabled={closed}>
                      {unchosen
                        ? t("ui.host.open_seat_not_chosen")
                        : present
                          ? t("ui.host.open_seat_after_leaving")
                          : t(begun ? "ui.host.open_seat_begun" : "ui.host.open_seat")}
                    </option>
                    {LEVELS.map((level) => (
                      <option key={level} value={level}>
                        {t("ui.lobby.computer_level", { level: t(`bots.${level}`) })}
                      </option>
                    ))}
                  </select>
                  {removing === s.seat ? (
                    <Confirm
                      // With watching off a removed player cannot watch either.
                      question={t(info.watching === false ? "ui.host.remove_question_not_watching" : "ui.host.remove_question", {
                        player: name,
                      })}
                      confirm={t("ui.host.remove_confirm")}
                      onConfirm={() => {
                        setRemoving(null);
                        void run(() => api.removePlayer(info.id, s.seat, choice || null, hostToken));
                      }}
                      onCancel={() => setRemoving(null)}
                    />
                  ) : (
                    <button type="button" onClick={() => setRemoving(s.seat)}>
                      {t("ui.host.remove", { player: name })}
                    </button>
                  )}
                  {s.connected && handing === s.seat && (
                    <Confirm
                      question={t("ui.host.make_host_question", { player: name })}
                      confirm={t("ui.host.make_host_confirm")}
                      onConfirm={() => {
                        setHanding(null);
                        void run(() => api.handHost(info.id, s.seat, hostToken));
                      }}
                      onCancel={() => setHanding(null)}
                    />
                  )}
                  {s.connected && handing !== s.seat && (
                    <button type="button" onClick={() => setHanding(s.seat)}>
                      {t("ui.host.make_host", { player: name })}
                    </button>
                  )}
                </li>
              );
            })}
          </ul>
        )}
        {computers.length > 0 && (
          <ul className="host-seats">
            {computers.map((s) => {
              const name = shortSeatName(t, info, s.seat);
              const bot = s.bot ?? "";
              return (
                <li key={s.seat} className="host-seat">
                  <span className="host-seat-name">{name}</span>
                  <label className="host-seat-level">
                    <span aria-hidden="true">{t("ui.host.level")}</span>
                    <BotLevelSelect
                      game={info.game}
                      bot={bot}
                      label={t("ui.host.level_of", { player: name })}
                      onChange={(level) => void run(() => api.seatBot(info.id, s.seat, level, hostToken))}
                    />
                  </label>
                </li>
              );
            })}
          </ul>
        )}
        <label className="host-watching">
          <input
            type="checkbox"
            checked={asked ?? info.watching !== false}
            onChange={(event) => {
              const allowed = event.target.checked;
              setAsked(allowed); // shown at once; the table's next info confirms it
              void run(() => api.setWatching(info.id, allowed, hostToken).catch((caught) => {
                setAsked(null);
                throw caught;
              }));
            }}
          />
          <span>
            {t("ui.host.allow_watching")}{" "}
            <span className="muted">{t("ui.watch.count", { count: info.watchers ?? 0 })}</span>
          </span>
        </label>
        <div className="host-actions">
          {!begun && info.version === 0 && <ChangeOptions info={info} server={server} hostToken={hostToken} />}
          {/* A clock that only holds who stepped away has no time to pause. */}
          {clock && (clock.turn_seconds !== null || clock.cover_absent || paused) && (
            <button type="button" onClick={() => void run(() => api.pauseClock(info.id, !paused, hostToken))}>
              {paused ? t("ui.host.resume_clock") : t("ui.host.pause_clock")}
            </button>
          )}
          {confirming ? (
            <Confirm
              question={t("ui.host.end_question")}
              confirm={t("ui.host.end_confirm")}
              onConfirm={() => void run(() => api.endGame(info.id, hostToken))}
              onCancel={() => setConfirming(false)}
            />
          ) : (
            <button type="button" className="danger" onClick={() => setConfirming(true)}>
              {t("ui.host.end")}
            </button>
          )}
        </div>
        {error && (
          <p ref={refusal} className="notice error" role="alert">
            {translateError(t, error)}
          </p>
        )}
      </div>
    </details>
  );
}

/** Shown once the host ended the game early: it is over, its record can be downloaded. */
export function EndedBanner({ info, seat }: { info: TableInfo; seat: number | null }) {
  const { t } = useTranslation();
  // It appears above the table: a page scrolled down to the board (a phone's) would
  // not show it, nor the Play again under it.
  const banner = useRef<HTMLDivElement>(null);
  useEffect(() => {
    banner.current?.scrollIntoView({ block: "nearest" });
  }, []);
  return (
    <div ref={banner} className="ended-banner" role="status">
      {/* Whoever holds the role now ended it (the role passes only while a game runs). */}
      <span>{t(seat !== null && seat === info.host_seat ? "ui.host.ended_by_you" : "ui.host.ended")}</span>
      <AppLink className="button watch-replay" href={`/t/${info.id}/replay`}>
        {t("ui.replay.watch")}
      </AppLink>
      <RecordLink table={info.id}>
        {t("ui.host.record")}
      </RecordLink>
    </div>
  );
}
