// "Change my name" beside one's seat: a typo or a nickname put right at any time until
// the game is over (docs/protocol.md, "Changing one's name"). The server tells the new
// name apart from the others' and sends every page the new seats.
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiError, api, tokens } from "./api";
import { translateError } from "./translateError";
import type { ErrorMessage, TableInfo } from "./types";
import { upTo } from "./limitText";
import { NAME_MAX, NameLimit } from "./NameLimit";

export function ChangeName({ info, seat, token }: { info: TableInfo; seat: number | null; token: string | null }) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState("");
  const [error, setError] = useState<ErrorMessage | null>(null);
  // Saved or cancelled: the keyboard is back on the button (it fell to the page's start).
  const button = useRef<HTMLButtonElement>(null);
  const wasEditing = useRef(false);
  useEffect(() => {
    if (wasEditing.current && !editing) button.current?.focus();
    wasEditing.current = editing;
  }, [editing]);
  if (seat === null || token === null || info.status === "finished") return null;
  const current = info.seats[seat]?.name ?? "";
  const save = async () => {
    setError(null);
    try {
      await api.rename(info.id, name.trim(), token);
      tokens.saveName(name.trim());
      setEditing(false);
    } catch (caught) {
      if (caught instanceof ApiError) setError(caught.error);
    }
  };
  if (!editing) {
    return (
      <button
        ref={button}
        type="button"
        className="change-name"
        onClick={() => {
          setName(current);
          setError(null);
          setEditing(true);
        }}
      >
        {t("ui.rename.button")}
      </button>
    );
  }
  return (
    <form
      className="change-name-form"
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
      onKeyDown={(event) => {
        if (event.key === "Escape") setEditing(false);
      }}
    >
      <input
        value={name}
        autoFocus
        aria-label={t("ui.rename.label")}
        placeholder={t("ui.lobby.name_placeholder")}
        onChange={(event) => setName(upTo(event.target.value, NAME_MAX))}
      />
      <NameLimit name={name} />
      <button type="submit" className="primary">
        {t("ui.rename.save")}
      </button>
      <button type="button" onClick={() => setEditing(false)}>
        {t("ui.host.cancel")}
      </button>
      {error && <span className="notice error" role="alert">{translateError(t, error)}</span>}
    </form>
  );
}
