// The deck field of a game's options (a schema property marked "x-deck"): a select of
// the bundled decks (the default first) and one's own, and "Upload your own deck…".
import { useCallback, useEffect, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiError } from "./api";
import { AppLink } from "./AppLink";
import { DEFAULT_DECK, deleteDeck, listDecks, type DeckSummary } from "./decks";
import { DeckUpload } from "./DeckUpload";
import { translateError } from "./translateError";
import type { ErrorMessage } from "./types";

interface Props {
  label: string;
  help?: string;
  value: string;
  /** The fewest cards any table needs (an upload of fewer pictures is warned of). */
  fewestCards?: number;
  onChange: (deck: string) => void;
}

export function DeckPicker({ label, help, value, fewestCards, onChange }: Props) {
  const { t } = useTranslation();
  const id = useId();
  const [decks, setDecks] = useState<DeckSummary[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [uploading, setUploading] = useState(false);
  const [error, setError] = useState<ErrorMessage | null>(null);
  // A refused deletion speaks of the deck then chosen: another chosen (or uploaded), it
  // goes ("… is in use" stayed under a deck just uploaded).
  useEffect(() => setError(null), [value]);
  const [status, setStatus] = useState("");

  const load = useCallback(async () => {
    try {
      setDecks(await listDecks());
      setFailed(false);
    } catch {
      setFailed(true);
    }
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  const bundled = (decks ?? []).filter((deck) => !deck.uploaded);
  const mine = (decks ?? []).filter((deck) => deck.uploaded);
  const selected = decks?.find((deck) => deck.id === value) ?? null;
  const optionText = (deck: DeckSummary) =>
    t(deck.uploaded ? "decks.picker.mine" : "decks.picker.option", { name: deck.name, count: deck.cards });

  const created = (deck: DeckSummary) => {
    setUploading(false);
    setDecks((old) => [...(old ?? []).filter((d) => d.id !== deck.id), deck]);
    onChange(deck.id);
    setStatus(t("decks.upload.done", { name: deck.name }));
    void load();
  };
  const remove = async (deck: DeckSummary) => {
    if (!window.confirm(t("decks.picker.confirm_delete", { name: deck.name }))) return;
    setError(null);
    try {
      await deleteDeck(deck.id);
      onChange(DEFAULT_DECK);
      await load();
    } catch (caught) {
      if (caught instanceof ApiError) setError(caught.error);
    }
  };

  return (
    <div className="field deck-picker">
      <label className="field-label" htmlFor={`${id}-select`}>
        {label}
      </label>
      <div className="deck-picker-row">
        <select
          id={`${id}-select`}
          name="deck"
          value={value}
          aria-describedby={`${id}-help`}
          onChange={(event) => onChange(event.target.value)}
        >
          {!decks && <option value={value}>{failed ? value : t("decks.picker.loading")}</option>}
          {decks && !selected && <option value={value}>{value}</option>}
          {bundled.length > 0 && (
            <optgroup label={t("decks.picker.group_bundled")}>
              {bundled.map((deck) => (
                <option key={deck.id} value={deck.id}>
                  {optionText(deck)}
                </option>
              ))}
            </optgroup>
          )}
          {mine.length > 0 && (
            <optgroup label={t("decks.picker.group_mine")}>
              {mine.map((deck) => (
                <option key={deck.id} value={deck.id}>
                  {optionText(deck)}
                </option>
              ))}
            </optgroup>
          )}
        </select>
        <button type="button" data-action="upload-deck" onClick={() => setUploading(true)}>
          {t("decks.picker.upload")}
        </button>
        {selected?.mine && (
          <button type="button" className="deck-picker-delete" onClick={() => void remove(selected)}>
            {t("decks.picker.delete")}
          </button>
        )}
      </div>
      <span className="field-help" id={`${id}-help`}>
        {help || t("decks.picker.help")}
      </span>
      {selected && selected.described === 0 && (
        <span className="notice" data-notice="blind-bots">
          {t("decks.picker.blind")}
        </span>
      )}
      {selected && selected.described > 0 && selected.described < selected.cards && (
        <span className="notice" data-notice="half-blind-bots">
          {t("decks.picker.partly_blind", { count: selected.cards - selected.described })}
        </span>
      )}
      {failed && <span className="notice error">{t("decks.picker.failed")}</span>}
      {error && (
        <span className="notice error" role="alert">
          {translateError(t, error)}
          <TablesUsing error={error} />
        </span>
      )}
      <span className="sr-only" aria-live="polite">
        {status}
      </span>
      <DeckUpload open={uploading} fewestCards={fewestCards} onClose={() => setUploading(false)} onCreated={created} />
    </div>
  );
}

/** The tables a refused deletion names (``deck_in_use``), each a link to its table, where
 * its host can end the game. */
function TablesUsing({ error }: { error: ErrorMessage }) {
  const { t } = useTranslation();
  const tables = error.code === "deck_in_use" ? error.params.tables : null;
  if (!Array.isArray(tables) || tables.length === 0) return null;
  return (
    <span className="deck-in-use">
      {t("decks.picker.in_use_at")}{" "}
      {tables.map((table, index) => (
        <span key={String(table)}>
          {index > 0 && ", "}
          <AppLink href={`/t/${encodeURIComponent(String(table))}`}>{String(table)}</AppLink>
        </span>
      ))}
    </span>
  );
}
