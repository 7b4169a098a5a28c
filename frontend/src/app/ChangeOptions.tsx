// The host's options of a table before its first move: the game's options and the turn
// clock, as the lobby offered them. Saving deals every hand again (docs/protocol.md).
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiError, api, type ClockRequest } from "./api";
import { applicableOptions } from "./ConfigForm";
import { OptionsFields, refusedBy, useOptionsCheck } from "./OptionsFields";
import { translateError } from "./translateError";
import type { ErrorMessage, GameDescription, TableInfo } from "./types";
import type { ServerInfo } from "./useGames";

/** The clock a table has now, as the lobby's form holds it. */
function clockOf(info: TableInfo): ClockRequest {
  const clock = info.clock;
  return {
    turn_seconds: clock?.turn_seconds ?? null,
    cover: clock?.cover ?? "medium",
    cover_absent: clock?.cover_absent ?? false,
  };
}

export function ChangeOptions({ info, server, hostToken }: { info: TableInfo; server: ServerInfo | null; hostToken: string }) {
  const { t } = useTranslation();
  const game = server?.games.find((g) => g.name === info.game);
  const [editing, setEditing] = useState(false);
  if (!game) return null;
  if (!editing) {
    return (
      <button type="button" className="change-options" onClick={() => setEditing(true)}>
        {t("ui.table.change_options")}
      </button>
    );
  }
  return <OptionsEditor info={info} game={game} hostToken={hostToken} onDone={() => setEditing(false)} />;
}

function OptionsEditor({ info, game, hostToken, onDone }: { info: TableInfo; game: GameDescription; hostToken: string; onDone: () => void }) {
  const { t } = useTranslation();
  // The table's options as stored (those that differ from their defaults).
  const [options, setOptions] = useState<Record<string, unknown>>(() => {
    const { rules_version: _version, ...current } = info.config;
    return current;
  });
  const [clock, setClock] = useState<ClockRequest>(() => clockOf(info));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ErrorMessage | null>(null);
  const seats = info.seats.length;
  const fit = useOptionsCheck(game, seats, options);
  const refused = refusedBy(fit);
  const save = async () => {
    setBusy(true);
    setError(null);
    try {
      await api.changeOptions(
        info.id,
        applicableOptions(game.config_schema, seats, options),
        clock.turn_seconds !== null || clock.cover_absent ? clock : null,
        hostToken,
      );
      onDone();
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.error : null);
      setBusy(false);
    }
  };
  return (
    <form
      className="change-options-form"
      aria-label={t("ui.table.change_options")}
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <h2>{t("ui.table.change_options")}</h2>
      <p className="muted">{t("ui.table.change_options_help")}</p>
      <OptionsFields game={game} seats={seats} options={options} onOptions={setOptions} fit={fit} clock={clock} onClock={setClock} />
      {error && <p className="notice error" role="alert">{translateError(t, error)}</p>}
      <div className="host-actions">
        <button className="primary" type="submit" disabled={busy || refused}>
          {t("ui.table.save_options")}
        </button>
        <button type="button" onClick={onDone}>
          {t("ui.host.cancel")}
        </button>
      </div>
    </form>
  );
}
