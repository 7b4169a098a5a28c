// The seat's "your turn" alerts and their switches: sound (remembered) and notifications.
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { GAMES } from "../games/registry";
import { APP_TITLE, notificationPermission, useMuted, useTurnAlert } from "./alerts";
import type { ClockMessage, StateMessage, TableInfo } from "./types";

interface Props {
  info: TableInfo;
  state: StateMessage;
  seat: number | null;
  /** The running clock, if the table has one (it says who is away). */
  clock?: ClockMessage | null;
  /** Let a computer player play for this seat until its person is back. */
  onStepAway?: () => void;
}

export function TurnAlerts({ info, state, seat, clock = null, onStepAway }: Props) {
  const { t } = useTranslation();
  const [muted, setMuted] = useMuted();
  const [permission, setPermission] = useState(notificationPermission);
  // Asked here and refused: said, and the keyboard's place kept on what is said (the
  // button it was on is gone).
  const [refusedHere, setRefusedHere] = useState(false);
  const refusal = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    if (refusedHere) refusal.current?.focus();
  }, [refusedHere]);
  // Asked here, the away banner's "I'm back" takes the keyboard's place (the button
  // pressed is gone).
  const away = clock !== null && seat !== null && String(seat) in clock.away;
  const askedAway = useRef(false);
  useEffect(() => {
    if (!away || !askedAway.current) return;
    askedAway.current = false;
    document.querySelector<HTMLElement>(".away-banner button")?.focus();
  }, [away]);
  // No chime, title or notification while away: a computer player makes those turns.
  const active = seat !== null && info.status === "playing" && state.to_act.includes(seat) && !away;
  const game = t(`games.${info.game}.title`);
  // Said once, as the turn comes (the notification names what to do then).
  const prompt = active ? GAMES[info.game]?.turnPrompt?.(t, info, state, seat) : undefined;
  useTurnAlert(
    active,
    muted,
    t("ui.alerts.your_turn"),
    t("ui.alerts.notification_title", { game }),
    prompt || t("ui.alerts.notification_body"),
    `${game} · ${APP_TITLE}`,
  );
  // Once the game is over (or its host ended it) no turn will come.
  if (seat === null || info.status !== "playing" || info.ended_early) return null;
  const ask = async () => {
    const answer = await Notification.requestPermission();
    setPermission(answer);
    setRefusedHere(answer === "denied");
  };
  return (
    <div className="turn-alerts">
      <button
        type="button"
        className="alert-sound"
        aria-pressed={muted}
        title={t("ui.alerts.mute_help")}
        onClick={() => setMuted(!muted)}
      >
        <BellIcon muted={muted} /> {t("ui.alerts.mute")}
      </button>
      {permission === "default" && (
        <button type="button" onClick={() => void ask()}>
          {t("ui.alerts.notify")}
        </button>
      )}
      {permission === "granted" && <span className="muted">{t("ui.alerts.notify_on")}</span>}
      {/* Someone stepping away asks a computer player to play for them until they say
          they are back (the away banner above the table then says so and offers it). */}
      {onStepAway && !away && (
        <button
          type="button"
          className="step-away"
          title={t("ui.clock.step_away_help", { level: t(`bots.${clock?.cover ?? "medium"}`, { defaultValue: clock?.cover }) })}
          onClick={() => {
            askedAway.current = true;
            onStepAway();
          }}
        >
          {t("ui.clock.step_away")}
        </button>
      )}
      {permission === "denied" && (
        <span className="muted" role="status" tabIndex={-1} ref={refusal}>
          {t("ui.alerts.notify_blocked")}
        </span>
      )}
    </div>
  );
}

// A bell drawn inline (an emoji bell needs a colour-emoji font, which not every device has).
function BellIcon({ muted }: { muted: boolean }) {
  return (
    <svg className="alert-bell" viewBox="0 0 24 24" width="16" height="16" aria-hidden="true" focusable="false">
      <path
        d="M12 3a6 6 0 0 0-6 6v4l-2 3h16l-2-3V9a6 6 0 0 0-6-6zm-2 15a2 2 0 0 0 4 0"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinejoin="round"
      />
      {muted && <path d="M4 4l16 16" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />}
    </svg>
  );
}
