// The lobby's list of the tables this browser holds a seat (or the host's role) at and
// whose game is not over: a tab closed mid-game is one click from its table again.
import { andList } from "./i18n";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiError, api, tokens } from "./api";
import { navigate } from "./router";
import { seatName } from "./seatName";
import type { TableInfo } from "./types";

/** At most this many of the browser's tables are asked about (the newest are shown). */
const ASKED = 40;

/** The tables still to play, newest first; tables the server no longer knows are
 * forgotten here. */
function useYourTables(): TableInfo[] {
  const [tables, setTables] = useState<TableInfo[]>([]);
  useEffect(() => {
    let stopped = false;
    const ids = tokens.tables().slice(-ASKED);
    void Promise.all(
      ids.map((id) =>
        api.table(id).catch((caught: unknown) => {
          if (caught instanceof ApiError && caught.status === 404) tokens.forgetTable(id);
          return null;
        }),
      ),
    ).then((found) => {
      if (stopped) return;
      const live = found.filter((info): info is TableInfo => info !== null && info.status !== "finished");
      setTables(live.sort((a, b) => b.created - a.created));
    });
    return () => {
      stopped = true;
    };
  }, []);
  return tables;
}

export function YourTables() {
  const { t } = useTranslation();
  const tables = useYourTables();
  if (tables.length === 0) return null;
  return (
    <section className="panel your-tables" aria-labelledby="your-tables-title">
      <h2 id="your-tables-title">{t("ui.lobby.your_tables")}</h2>
      <ul>
        {tables.map((info) => {
          const mine = tokens.seat(info.id)?.seat ?? null;
          const open = info.seats.filter((s) => s.kind === "open").length;
          const others = info.seats
            .filter((s) => s.seat !== mine && s.kind !== "open")
            .map((s) => seatName(t, info, s.seat));
          return (
            <li key={info.id} className="your-table" data-table={info.id}>
              <span className="your-table-game">{t(`games.${info.game}.title`)}</span>
              <span className="your-table-status">
                {info.status === "waiting" && info.version === 0
                  ? t("ui.lobby.table_waiting", { count: open })
                  : t("ui.lobby.table_playing")}
              </span>
              {others.length > 0 && (
                <span className="your-table-players muted">{t("ui.lobby.table_with", { names: andList(others) })}</span>
              )}
              <button type="button" className="primary" onClick={() => navigate(`/t/${info.id}`)}>
                {t("ui.lobby.table_back")}
              </button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
