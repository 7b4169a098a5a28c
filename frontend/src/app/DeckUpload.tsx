// "Upload your own deck": choose pictures or a zip, name the deck, describe the pictures
// if you like (each shown as a thumbnail), then upload with a progress bar.
import { useEffect, useId, useMemo, useRef, useState, type FormEvent } from "react";
import { createPortal } from "react-dom";
import i18next from "i18next";
import { isolated } from "./bidi";
import { useTranslation } from "react-i18next";
import { ApiError } from "./api";
import { LANGUAGES, LANGUAGE_NAMES, formatNumber, type Language } from "./i18n";
import { DECK_LIMITS, uploadDeck, type DeckSummary, type DeckUploadTask } from "./decks";
import { translateError } from "./translateError";
import type { ErrorMessage } from "./types";
import { FilePicker } from "./FilePicker";
import "./deck-upload.css";

interface Props {
  open: boolean;
  /** The fewest cards any table needs: fewer pictures are warned of before uploading. */
  fewestCards?: number;
  onClose: () => void;
  /** The deck was made (its owner key is kept in this browser). */
  onCreated: (deck: DeckSummary) => void;
}

const isZip = (file: File) => /\.zip$/i.test(file.name) || /zip/.test(file.type);
/** A picture the server reads (PNG, JPEG, WebP), by its type or, where the system gives
 * none, its name; the server checks the bytes themselves. */
const isPicture = (file: File) =>
  /^image\/(png|jpeg|webp)$/.test(file.type) || (!file.type && /\.(png|jpe?g|webp)$/i.test(file.name));
/** Megabytes in the reader's number format ("1.5", "1,5"). */
const megabytes = (bytes: number, language: string) => {
  const digits = bytes >= 100 * 1024 * 1024 ? 0 : 1;
  return formatNumber(bytes / (1024 * 1024), { minimumFractionDigits: digits, maximumFractionDigits: digits }, language);
};

/** A file's size with its unit: "24 KB" below a megabyte ("0.0 MB" said nothing). */
const fileSize = (bytes: number, language: string) =>
  bytes < 1024 * 1024
    ? `${formatNumber(Math.max(1, bytes / 1024), { maximumFractionDigits: 0 }, language)} KB`
    : `${megabytes(bytes, language)} MB`;

/** A file's name as the dialog shows it: without invisible format characters (a
 * right-to-left override turned "\u202egnp.exe" into "exe.png", and the whole message
 * around it backwards), and isolated as a name people type (the server shows the same,
 * its ``shown_name``). */
export const shownName = (name: string) => isolated(name.replace(/\p{Cf}/gu, "").trim() || "?");

function localError(key: string, params: Record<string, unknown>): ErrorMessage {
  return { type: "error", code: "local", rule: null, key, params, message: key };
}

/** Pixels on a picture's long side below which its card looks blurred when enlarged. */
const SHARP_SIDE = 400;

/** At most this many bad pictures are named (the rest are counted), as the server does. */
const PROBLEMS_LISTED = 10;

/** What the server would refuse anyway, said before sending anything: every picture
 * that is not one, or too large, named at once. */
function precheck(files: File[], notPictures: ReadonlySet<File> = new Set()): ErrorMessage | null {
  const limit = String(DECK_LIMITS.fileBytes / (1024 * 1024));
  const problems: { key: string; params: Record<string, unknown> }[] = [];
  for (const file of files) {
    if (!isZip(file) && (!isPicture(file) || notPictures.has(file))) problems.push({ key: "decks.errors.bad_type", params: { file: shownName(file.name) } });
    else if (!isZip(file) && file.size > DECK_LIMITS.fileBytes) {
      problems.push({ key: "decks.errors.too_big", params: { file: shownName(file.name), size: megabytes(file.size, i18next.language), limit } });
    }
  }
  if (problems.length === 1) return localError(problems[0].key, problems[0].params);
  if (problems.length > 1) {
    const shown = problems.slice(0, PROBLEMS_LISTED);
    // Nothing has been sent yet: not the server's "nothing was saved".
    return localError("decks.errors.bad_chosen", { count: problems.length, problems: shown, more: problems.length - shown.length });
  }
  const pictures = files.filter((file) => !isZip(file)).length;
  if (pictures > DECK_LIMITS.files) return localError("decks.errors.too_many_files", { count: pictures, limit: DECK_LIMITS.files });
  const total = files.reduce((sum, file) => sum + file.size, 0);
  if (total > DECK_LIMITS.requestBytes) {
    return localError("decks.errors.upload_too_large", { limit: String(DECK_LIMITS.requestBytes / (1024 * 1024)) });
  }
  return null;
}

/** Whether a file's first 12 bytes begin a PNG, a JPEG or a WebP picture (the formats
 * the server takes). */
export function isPictureHead(head: Uint8Array): boolean {
  const starts = (bytes: number[], at = 0) => bytes.every((byte, i) => head[at + i] === byte);
  const png = starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const jpeg = starts([0xff, 0xd8, 0xff]);
  const webp = starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8); // RIFF…WEBP
  return png || jpeg || webp;
}

export function DeckUpload({ open, fewestCards, onClose, onCreated }: Props) {
  const { t } = useTranslation();
  const id = useId();
  const dialog = useRef<HTMLDialogElement>(null);
  const task = useRef<DeckUploadTask | null>(null);
  const [name, setName] = useState("");
  const [files, setFiles] = useState<File[]>([]);
  const [descriptions, setDescriptions] = useState<string[]>([]);
  // The descriptions' language: the page's, unless the person says otherwise (the
  // cards' descriptions are then marked as that language for screen readers).
  const [language, setLanguage] = useState<Language>(() =>
    (LANGUAGES as readonly string[]).includes(i18next.language) ? (i18next.language as Language) : "en");
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<ErrorMessage | null>(null);

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) element.showModal();
    if (!open && element.open) element.close();
  }, [open]);

  // Thumbnails of the chosen pictures, made by the browser from the files themselves.
  const previews = useMemo(() => files.map((file) => (isZip(file) ? null : URL.createObjectURL(file))), [files]);
  useEffect(() => () => previews.forEach((url) => url && URL.revokeObjectURL(url)), [previews]);

  // Pictures too small to look sharp on the table, by their preview's size (a note,
  // not a refusal: the card works, only blurred).
  const [small, setSmall] = useState<Set<string>>(() => new Set());
  const measured = (url: string, image: HTMLImageElement) => {
    const tiny = Math.max(image.naturalWidth, image.naturalHeight) < SHARP_SIDE;
    setSmall((old) => {
      if (old.has(url) === tiny) return old;
      const next = new Set(old);
      if (tiny) next.add(url);
      else next.delete(url);
      return next;
    });
  };
  const smallNames = files.filter((_, index) => previews[index] && small.has(previews[index]!)).map((file) => shownName(file.name));
  // Each picture measured as it is chosen, not as its thumbnail scrolls into view (they
  // load lazily: a small one at the end of a long list was never pointed out).
  useEffect(() => {
    let current = true;
    for (const url of previews) {
      if (!url) continue;
      const image = new Image();
      image.onload = () => current && measured(url, image);
      image.src = url;
    }
    return () => {
      current = false;
    };
  }, [previews]);
  // A file named as a picture that is none inside (a GIF or a text file renamed
  // ".png") is refused as it is chosen, by its first bytes, as the server would refuse
  // it after the whole upload.
  const [notPictures, setNotPictures] = useState<ReadonlySet<File>>(() => new Set());
  useEffect(() => {
    let current = true;
    const named = files.filter((file) => !isZip(file) && isPicture(file));
    void Promise.all(named.map((file) => file.slice(0, 12).arrayBuffer().then((head) => isPictureHead(new Uint8Array(head)), () => false))).then(
      (fine) => {
        const bad = new Set(named.filter((_, index) => !fine[index]));
        if (!current || bad.size === 0) return;
        setNotPictures(bad);
        setError(precheck(files, bad));
      },
    );
    return () => {
      current = false;
    };
  }, [files]);

  const zips = files.filter(isZip);
  const pictures = files.filter((file) => !isZip(file));
  const busy = progress !== null;

  const reset = () => {
    setName("");
    setFiles([]);
    setDescriptions([]);
    setProgress(null);
    setError(null);
  };
  const close = () => {
    task.current?.abort();
    task.current = null;
    reset();
    onClose();
  };

  const choose = (list: FileList | null) => {
    const chosen = Array.from(list ?? []);
    setFiles(chosen);
    setDescriptions(chosen.map(() => ""));
    setError(precheck(chosen, notPictures));
  };
  const remove = (index: number) => {
    const next = files.filter((_, i) => i !== index);
    setFiles(next);
    setDescriptions(descriptions.filter((_, i) => i !== index));
    setError(precheck(next, notPictures));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    event.stopPropagation(); // not the options' form around the picker (React events bubble)
    const problem = precheck(files);
    if (problem) {
      setError(problem);
      return;
    }
    setError(null);
    setProgress(0);
    // Descriptions follow the cards' order; a zip's pictures have none from here.
    const running = uploadDeck(
      { name: name.trim(), files, descriptions: zips.length ? undefined : descriptions, language },
      (fraction) => setProgress(fraction),
    );
    task.current = running;
    try {
      const deck = await running.done;
      task.current = null;
      reset();
      onCreated(deck);
    } catch (caught) {
      task.current = null;
      setProgress(null);
      if (caught instanceof ApiError) setError(caught.error);
    }
  };

  const percent = progress === null ? 0 : Math.round(progress * 100);
  // In document.body: the picker sits inside the lobby's form, and forms do not nest.
  return createPortal(
    <dialog
      ref={dialog}
      className="deck-upload"
      aria-labelledby={`${id}-title`}
      onCancel={(event) => {
        // A file input's chooser dismissed (or given the same files again) sends a
        // "cancel" that bubbles up here: only Escape on the dialog itself closes it.
        if (event.target !== event.currentTarget) return;
        event.preventDefault();
        close();
      }}
    >
      <form className="deck-upload-form" onSubmit={(event) => void submit(event)}>
        <h2 id={`${id}-title`}>{t("decks.upload.title")}</h2>
        <p className="field-help">
          {t("decks.upload.intro", { limit: DECK_LIMITS.fileBytes / (1024 * 1024), max: DECK_LIMITS.files })}
        </p>
        <label className="field">
          <span className="field-label">{t("decks.upload.name_label")}</span>
          <input
            name="deck-name"
            value={name}
            required
            maxLength={DECK_LIMITS.nameChars}
            placeholder={t("decks.upload.name_placeholder")}
            disabled={busy}
            onChange={(event) => setName(event.target.value)}
          />
        </label>
        <label className="field">
          <span className="field-label">{t("decks.upload.files_label")}</span>
          <FilePicker
            name="deck-files"
            multiple
            accept="image/png,image/jpeg,image/webp,.png,.jpg,.jpeg,.webp,.zip,application/zip"
            disabled={busy}
            onChange={(event) => choose(event.target.files)}
          />
        </label>
        {files.length > 0 && (
          <p className="deck-upload-count" aria-live="polite">
            {pictures.length > 0 && t("decks.upload.chosen", { count: pictures.length })}
            {zips.map((zip, index) => (
              <span key={index} className="deck-upload-zip">
                {t("decks.upload.zip_chosen", { file: shownName(zip.name), size: fileSize(zip.size, i18next.language) })}
              </span>
            ))}
          </p>
        )}
        {pictures.length > 0 && (
          <>
            {zips.length === 0 && <p className="field-help">{t("decks.upload.descriptions_help")}</p>}
            {zips.length === 0 && descriptions.some((text) => text.trim()) && (
              <label className="field deck-upload-language">
                <span className="field-label">{t("decks.upload.language_label")}</span>
                <select value={language} disabled={busy} onChange={(event) => setLanguage(event.target.value as Language)}>
                  {LANGUAGES.map((code) => (
                    <option key={code} value={code} lang={code}>
                      {LANGUAGE_NAMES[code]}
                    </option>
                  ))}
                </select>
              </label>
            )}
            <ol className="deck-upload-pictures">
              {files.map((file, index) =>
                isZip(file) ? null : (
                  <li key={`${file.name}-${index}`} className="deck-upload-picture" data-not-picture={notPictures.has(file) ? "true" : undefined}>
                    <img
                      src={previews[index] ?? undefined}
                      alt=""
                      loading="lazy"
                      decoding="async"
                    />
                    <span className="deck-upload-file" title={shownName(file.name)}>
                      {shownName(file.name)}
                    </span>
                    {zips.length === 0 && (
                      <input
                        aria-label={t("decks.upload.description_label", { number: index + 1 })}
                        placeholder={t("decks.upload.description_placeholder")}
                        value={descriptions[index] ?? ""}
                        maxLength={DECK_LIMITS.descriptionChars}
                        disabled={busy}
                        onChange={(event) => {
                          const next = [...descriptions];
                          next[index] = event.target.value;
                          setDescriptions(next);
                        }}
                      />
                    )}
                    <button
                      type="button"
                      className="deck-upload-remove"
                      aria-label={t("decks.upload.remove", { number: index + 1 })}
                      disabled={busy}
                      onClick={() => remove(index)}
                    >
                      ×
                    </button>
                  </li>
                ),
              )}
            </ol>
            {/* An 8-picture deck uploaded as "ready", and only the lobby said then that
                no table could play with it. (A zip's pictures are counted by the server.) */}
            {fewestCards !== undefined && zips.length === 0 && pictures.length < fewestCards && (
              <p className="notice deck-upload-few" data-notice="too-few-pictures">
                {t("decks.upload.too_few", { count: pictures.length, fewest: fewestCards })}
              </p>
            )}
            {smallNames.length > 0 && (
              <p className="notice deck-upload-small" data-notice="small-pictures">
                {t("decks.upload.small_pictures", { count: smallNames.length, files: smallNames.join(", "), pixels: SHARP_SIDE })}
              </p>
            )}
          </>
        )}
        {busy && (
          <div className="deck-upload-progress">
            <progress max={100} value={percent} aria-label={t("decks.upload.progress_label")} />
            <span aria-live="polite">{percent < 100 ? t("decks.upload.uploading", { percent }) : t("decks.upload.processing")}</span>
          </div>
        )}
        {error && (
          <p className="notice error" role="alert">
            {translateError(t, error)}
          </p>
        )}
        <div className="deck-upload-actions">
          <button type="button" onClick={close}>
            {t("decks.upload.cancel")}
          </button>
          <button type="submit" className="primary" disabled={busy || files.length === 0 || !name.trim() || error?.code === "local"}>
            {t("decks.upload.submit")}
          </button>
        </div>
      </form>
    </dialog>,
    document.body,
  );
}
