import { useTranslation } from "react-i18next";
import { LanguageFailure, LanguageSwitch } from "./LanguageSwitch";
import { Lobby } from "./Lobby";
import { PageErrorBoundary } from "./PageError";
import { navigate, useRoute } from "./router";
import { ReplayPage } from "./ReplayPage";
import { ScreenPage } from "./ScreenPage";
import { TablePage } from "./TablePage";
import { AppLink } from "./AppLink";

export function App() {
  const route = useRoute();
  const { t } = useTranslation();
  if (route.page === "screen")
    return (
      <PageErrorBoundary page={`screen:${route.tableId}`}>
        <ScreenPage key={route.tableId} tableId={route.tableId} />
      </PageErrorBoundary>
    );
  return (
    <div className="app">
      <header className="topbar">
        <AppLink className="brand" href="/">
          <span className="brand-mark" aria-hidden="true">◆</span> gametable
        </AppLink>
        <span className="topbar-tagline">{t("ui.tagline")}</span>
        <LanguageSwitch />
      </header>
      <main className="content">
        <LanguageFailure />
        <PageErrorBoundary page={`${route.page}:${"tableId" in route ? route.tableId : ""}`}>
        {route.page === "lobby" ? (
          <Lobby />
        ) : route.page === "missing" ? (
          <div className="panel notice-panel" data-gone="page">
            <h1>{t("ui.missing_title")}</h1>
            <p>{t("ui.missing_text")}</p>
            <button className="primary" type="button" onClick={() => navigate("/")}>
              {t("ui.table.back_to_lobby")}
            </button>
          </div>
        ) : route.page === "replay" ? (
          <ReplayPage key={route.tableId ?? "file"} tableId={route.tableId} />
        ) : (
          <TablePage key={`${route.page}:${route.tableId}`} tableId={route.tableId} watch={route.page === "watch"} />
        )}
        </PageErrorBoundary>
      </main>
    </div>
  );
}
