import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import {
  dismissLanguageFailure,
  LANGUAGE_NAMES,
  LANGUAGES,
  setLanguage,
  useLanguageFailure,
  type Language,
} from "./i18n";

/** The keys that move a closed list's choice without opening it (Chromium on Linux and
 * Windows): each moved the whole page into another language. */
const BROWSING_KEYS = new Set(["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", "Home", "End", "PageUp", "PageDown"]);

export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  // A choice made by browsing with the keys waits for Enter or for the focus to leave
  // (WCAG 3.2.2: a page in Icelandic, then Norwegian, at each arrow key); one picked from
  // the opened list, or typed, applies at once.
  const [pending, setPending] = useState<Language | null>(null);
  // When a browsing key last went to the closed list (ms, the events' clock). Where
  // that key opens the list instead (macOS), the choice comes long after it, and
  // applies at once.
  const browsedAt = useRef(-Infinity);
  const apply = () => {
    if (pending !== null && pending !== i18n.language) setLanguage(pending);
    setPending(null);
  };
  return (
    <label className="language-switch">
      <span className="sr-only">{t("ui.language")}</span>
      <select
        aria-label={t("ui.language")}
        value={pending ?? i18n.language}
        onKeyDown={(event) => {
          browsedAt.current = BROWSING_KEYS.has(event.key) && !event.altKey ? event.timeStamp : -Infinity;
          if (event.key === "Enter") apply();
        }}
        onChange={(event) => {
          const language = event.target.value as Language;
          if (event.timeStamp - browsedAt.current < 100) setPending(language);
          else {
            setPending(null);
            setLanguage(language);
          }
          browsedAt.current = -Infinity;
        }}
        onBlur={apply}
      >
        {LANGUAGES.map((language) => (
          // Each language's name is read in its own language.
          <option key={language} value={language} lang={language}>
            {LANGUAGE_NAMES[language]}
          </option>
        ))}
      </select>
    </label>
  );
}

/** Says, in the page's language, that the chosen language's texts did not arrive, with
 * a button to try again. */
export function LanguageFailure() {
  const { t } = useTranslation();
  const failed = useLanguageFailure();
  if (!failed) return null;
  return (
    <div className="notice error language-failure" role="alert">
      <span>{t("ui.language_failed", { language: LANGUAGE_NAMES[failed] })}</span>
      <button type="button" onClick={() => setLanguage(failed)}>
        {t("ui.try_again")}
      </button>
      <button type="button" onClick={dismissLanguageFailure} aria-label={t("ui.close")}>
        ×
      </button>
    </div>
  );
}
