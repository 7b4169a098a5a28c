// The seat's "your turn" alerts and their switches: sound (remembered) and notifications.
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { notificationPermission, useMuted, useTurnAlert } from "./alerts";
import type { StateMessage, TableInfo } from "./types";

export function TurnAlerts({ info, state, seat }: { info: TableInfo; state: StateMessage; seat: number | null }) {
  const { t } = useTranslation();
  const [muted, setMuted] = useMuted();
  const [permission, setPermission] = useState(notificationPermission);
  const active = seat !== null && info.status === "playing" && state.to_act.includes(seat);
  const game = t(`games.${info.game}.title`);
  useTurnAlert(
    active,
    muted,
    t("ui.alerts.your_turn"),
    t("ui.alerts.notification_title", { game }),
    t("ui.alerts.notification_body"),
  );
  if (seat === null) return null;
  const ask = async () => setPermission(await Notification.requestPermission());
  return (
    <div className="turn-alerts">
      <button
        type="button"
        className="alert-sound"
        aria-pressed={muted}
        title={t("ui.alerts.mute_help")}
        onClick={() => setMuted(!muted)}
      >
        <span aria-hidden="true">{muted ? "🔕" : "🔔"}</span> {t("ui.alerts.mute")}
      </button>
      {permission === "default" && (
        <button type="button" onClick={() => void ask()}>
          {t("ui.alerts.notify")}
        </button>
      )}
      {permission === "granted" && <span className="muted">{t("ui.alerts.notify_on")}</span>}
    </div>
  );
}
