// Translation catalogs: the same files the Python package uses (src/gametable/locales).
import i18next from "i18next";
import { useSyncExternalStore } from "react";
import { initReactI18next } from "react-i18next";
import en from "@locales/en.json";
import isUrl from "@locales/is.json?url";
import nbUrl from "@locales/nb.json?url";
import ptUrl from "@locales/pt.json?url";

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
// each, a JSON file of the build) is fetched when the page is first shown in it
// (`loadLanguage`). A fetch that failed is tried again on the next choice (a dynamic
// import that failed would fail again until the page is reloaded).
const CATALOGUES: Record<Exclude<Language, "en">, string> = { is: isUrl, nb: nbUrl, pt: ptUrl };
const loaded = new Set<string>(["en"]);

/** Fetch `language`'s catalogue once, before anything is shown in it; true once it is
 * in. A catalogue that cannot be fetched (the network dropped) is false: the page stays
 * in its language and says so (`useLanguageFailure`), and the next choice tries again. */
export async function loadLanguage(language: Language): Promise<boolean> {
  if (loaded.has(language) || language === "en") return true;
  try {
    const response = await fetch(CATALOGUES[language]);
    if (!response.ok) return false;
    const catalogue = (await response.json()) as Record<string, unknown>;
    // Deep, without overwriting: a game's own texts (card names) may be there already.
    i18next.addResourceBundle(language, "translation", catalogue, true, false);
    loaded.add(language);
    return true;
  } catch {
    return false;
  }
}

// The language whose texts could not be fetched, for the notice over the page.
let failure: Language | null = null;
const failureListeners = new Set<() => void>();
function setFailure(language: Language | null) {
  failure = language;
  failureListeners.forEach((listener) => listener());
}

/** The language last chosen whose texts could not be fetched (null: none, or the
 * failure was dismissed or overtaken by a later choice). */
export function useLanguageFailure(): Language | null {
  return useSyncExternalStore(
    (listener) => {
      failureListeners.add(listener);
      return () => failureListeners.delete(listener);
    },
    () => failure,
  );
}

export function dismissLanguageFailure() {
  setFailure(null);
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

// Numbers in the page's language: "0,5" in Icelandic too (see formatNumber).
(i18next.services.formatter as { add: (name: string, format: (value: unknown, lng: string | undefined, options: Intl.NumberFormatOptions) => string) => void })
  .add("number", (value, lng, options) => formatNumber(Number(value), options, lng));

let chosen: Language = startLanguage;

/** Show the page in `language` once its texts are in; a choice whose texts cannot be
 * fetched leaves the page (and the switch) in the language it was in, with a notice. */
export function setLanguage(language: Language) {
  localStorage.setItem("gametable.lang", language);
  chosen = language;
  setFailure(null);
  void loadLanguage(language).then((ok) => {
    // Two quick choices: the last one stands, whichever catalogue came first.
    if (chosen !== language) return;
    if (!ok) {
      setFailure(language);
      return;
    }
    void i18next.changeLanguage(language);
    document.documentElement.lang = language;
  });
}

/** Before the first render: the start language's texts, or English with the notice. */
export async function loadStartLanguage(): Promise<void> {
  if (await loadLanguage(startLanguage)) return;
  await i18next.changeLanguage("en");
  document.documentElement.lang = "en";
  setFailure(startLanguage);
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

/** ``value`` written as the page's language writes numbers ("0.5", "0,5"; "1,024",
 * "1.024"). A browser without number data for the language (Debian's Chromium has none
 * for Icelandic, and wrote "0.5") gets English digits with the catalogue's own decimal
 * and group marks. */
export function formatNumber(value: number, options: Intl.NumberFormatOptions = {},
  language: string = i18next.language || "en"): string {
  const tag = localeTag(language);
  if (Intl.NumberFormat.supportedLocalesOf([tag]).length > 0) return new Intl.NumberFormat(tag, options).format(value);
  const decimal = i18next.t("ui.number.decimal", { lng: language });
  const group = i18next.t("ui.number.group", { lng: language });
  return new Intl.NumberFormat("en", options)
    .formatToParts(value)
    .map((part) => (part.type === "decimal" ? decimal : part.type === "group" ? group : part.value))
    .join("");
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
