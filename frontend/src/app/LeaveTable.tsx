// "Leave the table", with a question: before the first move the seat opens for someone
// else, afterwards a computer player takes it over and the others play on
// (docs/protocol.md, "Leaving a table"). The host holds the table and hands the role on
// first, so the button is not theirs: they are told so instead.
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiError, api, tokens } from "./api";
import { Confirm } from "./Confirm";
import { navigate } from "./router";
import { translateError } from "./translateError";
import type { ErrorMessage, TableInfo } from "./types";

/** Where the lobby finds that the person has just left a table: "waiting" (their seat
 * opened) or "begun" (a computer player took it over). */
export const LEFT_KEY = "gametable.left";

export function LeaveTable({ info, seat, token, begun }: {
  info: TableInfo;
  seat: number | null;
  token: string | null;
  /** The first move was made: a computer player takes the seat over. */
  begun: boolean;
}) {
  const { t } = useTranslation();
  const [asking, setAsking] = useState(false);
  const [error, setError] = useState<ErrorMessage | null>(null);
  if (seat === null || token === null || info.status === "finished") return null;
  if (seat === info.host_seat) {
    // The host hands the role on before leaving; said where the button would be (a host
    // who wanted to go found no way but closing the page, the role passing on minutes
    // later). Alone with computer players there is nobody to hand it to.
    const others = info.seats.some((s) => s.seat !== seat && s.kind === "human");
    return others ? <span className="leave-table muted" data-hint="host-leaves">{t("ui.leave.host_hint")}</span> : null;
  }
  const leave = async () => {
    setAsking(false);
    setError(null);
    try {
      const left = await api.leave(info.id, token);
      tokens.forgetSeat(info.id);
      // The lobby says what became of the seat (Lobby.tsx), as the server answered: the
      // first move may have been made since this page last heard.
      sessionStorage.setItem(LEFT_KEY, left.bot ? "begun" : "waiting");
      navigate("/");
    } catch (caught) {
      if (caught instanceof ApiError) setError(caught.error);
    }
  };
  return (
    <span className="leave-table">
      {asking ? (
        <Confirm
          question={t(begun ? "ui.leave.question_begun" : "ui.leave.question_waiting")}
          confirm={t("ui.leave.confirm")}
          onConfirm={() => void leave()}
          onCancel={() => setAsking(false)}
        />
      ) : (
        <button type="button" onClick={() => setAsking(true)}>
          {t("ui.leave.button")}
        </button>
      )}
      {error && <span className="notice error" role="alert">{translateError(t, error)}</span>}
    </span>
  );
}
