// A table's turn clock as the lobby and the host's options offer it: a time limit per
// turn, and who plays for away players.
import { useTranslation } from "react-i18next";
import type { ClockRequest } from "./api";
import { Field } from "./Field";
import { LevelField } from "./LevelField";

/** Seconds per turn offered in the lobby (the server takes 5 s to 24 h). */
const TURN_CHOICES = [30, 60, 120, 300, 900];

/** The table's turn clock: a time limit per turn, and who plays for away players. */
export function ClockOptions({ clock, onChange }: { clock: ClockRequest; onChange: (clock: ClockRequest) => void }) {
  const { t } = useTranslation();
  const covering = clock.turn_seconds !== null || clock.cover_absent;
  return (
    <fieldset className="clock-options">
      <legend>{t("ui.clock.options_title")}</legend>
      <Field label={t("ui.clock.turn_seconds")} help={t("ui.clock.turn_seconds_help")}>
        {({ id, describedBy }) => (
          <select
            id={id}
            aria-describedby={describedBy}
            value={clock.turn_seconds ?? ""}
            onChange={(event) => onChange({ ...clock, turn_seconds: event.target.value ? Number(event.target.value) : null })}
          >
            <option value="">{t("ui.clock.no_limit")}</option>
            {TURN_CHOICES.map((seconds) => (
              <option key={seconds} value={seconds}>
                {seconds < 60 ? t("ui.clock.seconds", { count: seconds }) : t("ui.clock.minutes", { count: seconds / 60 })}
              </option>
            ))}
          </select>
        )}
      </Field>
      <label className="field checkbox">
        <input type="checkbox" checked={clock.cover_absent} onChange={(event) => onChange({ ...clock, cover_absent: event.target.checked })} />
        <span>{t("ui.clock.cover_absent")}</span>
      </label>
      {covering && (
        <LevelField label={t("ui.clock.cover")} value={clock.cover} onChange={(cover) => onChange({ ...clock, cover })} />
      )}
    </fieldset>
  );
}
