import { useTranslation } from "react-i18next";
import {
  dismissLanguageFailure,
  LANGUAGE_NAMES,
  LANGUAGES,
  setLanguage,
  useLanguageFailure,
  type Language,
} from "./i18n";

export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  return (
    <label className="language-switch">
      <span className="sr-only">{t("ui.language")}</span>
      <select
        aria-label={t("ui.language")}
        value={i18n.language}
        onChange={(event) => setLanguage(event.target.value as Language)}
      >
        {LANGUAGES.map((language) => (
          <option key={language} value={language}>
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
