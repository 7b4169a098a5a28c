// The host's options of a table before its first move: the game's options and the turn
// clock, as the lobby offered them. Saving deals every hand again (docs/protocol.md).
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { namespaceOf } from "../games/registry";
import { ApiError, api, type ClockRequest, type OptionsCheck } from "./api";
import { ClockOptions } from "./ClockOptions";
import { ConfigForm, applicableOptions } from "./ConfigForm";
import { translateError } from "./translateError";
import type { ErrorMessage, TableInfo } from "./types";
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
  const [options, setOptions] = useState<Record<string, unknown>>({});
  const [clock, setClock] = useState<ClockRequest>(() => clockOf(info));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ErrorMessage | null>(null);
  const [fit, setFit] = useState<OptionsCheck | null>(null);
  const seats = info.seats.length;

  // The rules' verdict on the options as they are now, asked as they change.
  useEffect(() => {
    if (!editing || !game) return;
    let live = true;
    const timer = window.setTimeout(() => {
      api.checkOptions(game.name, applicableOptions(game.config_schema, seats, options), seats).then(
        (answer) => live && setFit(answer),
        () => live && setFit(null),
      );
    }, 120);
    return () => {
      live = false;
      window.clearTimeout(timer);
    };
  }, [editing, game, seats, options]);

  if (!game) return null;
  const open = () => {
    // The table's options as stored (those that differ from their defaults).
    const { rules_version: _version, ...current } = info.config;
    setOptions(current);
    setClock(clockOf(info));
    setError(null);
    setFit(null);
    setEditing(true);
  };
  if (!editing) {
    return (
      <button type="button" className="change-options" onClick={open}>
        {t("ui.table.change_options")}
      </button>
    );
  }
  const refused = fit !== null && !fit.ok && fit.error !== null;
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
      setEditing(false);
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.error : null);
    } finally {
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
      <ConfigForm namespace={namespaceOf(game.name)} schema={game.config_schema} seats={seats} values={options} onChange={setOptions} />
      {refused && fit.error && (
        <p className="notice error options-refusal" role="status">
          {translateError(t, fit.error)}
        </p>
      )}
      <ClockOptions clock={clock} onChange={setClock} />
      {error && <p className="notice error" role="alert">{translateError(t, error)}</p>}
      <div className="host-actions">
        <button className="primary" type="submit" disabled={busy || refused}>
          {t("ui.table.save_options")}
        </button>
        <button type="button" onClick={() => setEditing(false)}>
          {t("ui.host.cancel")}
        </button>
      </div>
    </form>
  );
}
