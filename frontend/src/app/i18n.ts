// Translation catalogs: the same files the Python package uses (src/gametable/locales).
import i18next from "i18next";
import { initReactI18next } from "react-i18next";
import en from "@locales/en.json";

export const LANGUAGES = ["en", "is", "nb", "pt"] as const;
export type Language = (typeof LANGUAGES)[number];
export const LANGUAGE_NAMES: Record<Language, string> = {
  en: "English",
  is: "Íslenska",
  nb: "Norsk bokmål",
  pt: "Português",
};

function initialLanguage(): Language {
  const saved = localStorage.getItem("gametable.lang");
  if (saved && (LANGUAGES as readonly string[]).includes(saved)) return saved as Language;
  for (const tag of navigator.languages ?? [navigator.language]) {
    const base = tag.toLowerCase().split("-")[0];
    if (base === "no" || base === "nn" || base === "nb") return "nb";
    if ((LANGUAGES as readonly string[]).includes(base)) return base as Language;
  }
  return "en";
}

// English, the fallback, comes with the page; another language's catalogue (about 70 kB
// each) is fetched when the page is first shown in it (`loadLanguage`).
const CATALOGUES: Record<Exclude<Language, "en">, () => Promise<{ default: Record<string, unknown> }>> = {
  is: () => import("@locales/is.json"),
  nb: () => import("@locales/nb.json"),
  pt: () => import("@locales/pt.json"),
};
const loaded = new Set<string>(["en"]);

/** Fetch `language`'s catalogue once, before anything is shown in it. A catalogue that
 * cannot be fetched (the network dropped) leaves the page in English, the fallback. */
export async function loadLanguage(language: Language): Promise<void> {
  if (loaded.has(language) || language === "en") return;
  try {
    const catalogue = (await CATALOGUES[language]()).default;
    // Deep, without overwriting: a game's own texts (card names) may be there already.
    i18next.addResourceBundle(language, "translation", catalogue, true, false);
    loaded.add(language);
  } catch {
    // the fallback (English) shows until the next try
  }
}

export const startLanguage = initialLanguage();

void i18next.use(initReactI18next).init({
  resources: { en: { translation: en } },
  lng: startLanguage,
  fallbackLng: "en",
  interpolation: { escapeValue: false },
  returnNull: false,
});
document.documentElement.lang = i18next.language;

// The catalogs' Portuguese is European Portuguese ("ficheiro", "tu"), whose plural rules
// (CLDR pt-PT: "0 cartas") differ from Brazil's, which the bare code "pt" stands for in
// Intl ("0 carta"). Plural forms of "pt" follow pt-PT's rules.
const pluralResolver = i18next.services.pluralResolver as {
  getRule: (code: string, options?: { ordinal?: boolean }) => Intl.PluralRules | undefined;
};
const baseRule = pluralResolver.getRule.bind(pluralResolver);
pluralResolver.getRule = (code, options) => baseRule(code === "pt" ? "pt-PT" : code, options);

let chosen: Language = startLanguage;

export function setLanguage(language: Language) {
  localStorage.setItem("gametable.lang", language);
  chosen = language;
  void loadLanguage(language).then(() => {
    // Two quick choices: the last one stands, whichever catalogue came first.
    if (chosen !== language) return;
    void i18next.changeLanguage(language);
    document.documentElement.lang = language;
  });
}

/** Merge texts a game ships with its data (card names…) into the catalogs. */
export function addGameMessages(messages: Record<string, Record<string, unknown>> | undefined) {
  if (!messages) return;
  for (const [language, bundle] of Object.entries(messages)) {
    i18next.addResourceBundle(language, "translation", bundle, true, true);
  }
}

export default i18next;

/** The reader's own tag for the page's ``language`` where the browser names one ("en-GB"
 * for "en", "pt-BR" for "pt"), so that times and numbers follow the reader's region
 * (a 24-hour clock in Britain); else the language itself ("pt-PT" for "pt", as the
 * catalogs' Portuguese). */
export function localeTag(language: string = i18next.language || "en"): string {
  for (const tag of navigator.languages ?? [navigator.language]) {
    const base = tag.toLowerCase().split("-")[0];
    if ((base === "no" || base === "nn" ? "nb" : base) === language) return tag;
  }
  return language === "pt" ? "pt-PT" : language;
}

/** Names joined as the page's language lists them: "Ana and Bea", "Ana, Bea and Cid"
 * ("Ana og Bea", "Ana e Bea"), not "Ana, Bea". A browser without list data for the
 * language (Debian's Chromium has none for Icelandic, and said "Ana and Bea") joins them
 * with the catalogue's own word for "and". */
export function andList(names: string[], language: string = i18next.language || "en"): string {
  const tag = localeTag(language);
  if (Intl.ListFormat.supportedLocalesOf([tag]).length > 0) {
    return new Intl.ListFormat(tag, { style: "long", type: "conjunction" }).format(names);
  }
  if (names.length < 2) return names.join("");
  return `${names.slice(0, -1).join(", ")} ${i18next.t("ui.and", { lng: language })} ${names[names.length - 1]}`;
}
