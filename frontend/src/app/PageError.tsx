// A page that stopped working says so and offers a reload, instead of going blank: a
// game's table is loaded on first use, and after the site is updated the file the page
// asks for may be gone (or any error in drawing the page).
import { Component, type ErrorInfo, type ReactNode } from "react";
import { useTranslation } from "react-i18next";

/** The notice in the page's place, with its Reload button. */
export function PageFailed() {
  const { t } = useTranslation();
  return (
    <div className="panel notice-panel" role="alert" data-gone="failed">
      <p>{t("ui.errors.page_failed")}</p>
      <button className="primary" type="button" onClick={() => window.location.reload()}>
        {t("ui.errors.reload")}
      </button>
    </div>
  );
}

/** Shows {@link PageFailed} in place of ``children`` once drawing them failed (the
 * header, with its language switch, stays). ``page`` names what is shown: another page
 * is drawn afresh. */
export class PageErrorBoundary extends Component<{ page: string; children: ReactNode }, { failedOn: string | null }> {
  state = { failedOn: null as string | null };

  static getDerivedStateFromError(): { failedOn: string } {
    return { failedOn: "" };
  }

  componentDidCatch(error: unknown, info: ErrorInfo): void {
    this.setState({ failedOn: this.props.page });
    console.error(error, info.componentStack);
  }

  render(): ReactNode {
    const { failedOn } = this.state;
    return failedOn !== null && (failedOn === "" || failedOn === this.props.page) ? <PageFailed /> : this.props.children;
  }
}
