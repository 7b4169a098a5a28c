import { useTranslation } from "react-i18next";
import { LANGUAGE_NAMES, LANGUAGES, setLanguage, type Language } from "./i18n";

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
