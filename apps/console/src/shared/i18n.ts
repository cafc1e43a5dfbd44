import i18next, { type i18n as I18n, type Resource } from 'i18next';
import { DEFAULT_LOCALE, LOCALES, isLocale, type Locale } from '@alda/contract/locale';
import errorsEn from '@alda/contract/locales/errors.en.json';
import errorsFo from '@alda/contract/locales/errors.fo.json';

/*
 * The console's texts: Faroese (the default) and English, one i18next namespace per area. A
 * namespace is the pair `src/locales/fo/<area>.json` + `src/locales/en/<area>.json`, picked up
 * here by file name; its keys are typed by one line in `i18next.d.ts` (README "Adding an area").
 * `errors` is the contract's messages per API error code, as the API words them.
 */

/** Where the chosen language is remembered on this computer. */
export const LANGUAGE_KEY = 'alda-console-lang';

/** Every `src/locales/<lang>/<namespace>.json`, bundled (the console's texts are small). */
const FILES = import.meta.glob<Record<string, unknown>>('../locales/*/*.json', {
  eager: true,
  import: 'default',
});

/** The texts of every language, by namespace. */
export function consoleResources(): Record<Locale, Resource[string]> {
  const resources: Record<Locale, Resource[string]> = {
    fo: { errors: errorsFo },
    en: { errors: errorsEn },
  };
  for (const [file, texts] of Object.entries(FILES)) {
    const match = /\/locales\/([a-z]+)\/([a-z0-9-]+)\.json$/.exec(file);
    if (!match) continue;
    const [, lang, namespace] = match;
    if (lang && namespace && isLocale(lang)) resources[lang][namespace] = texts;
  }
  return resources;
}

/** The namespaces there are texts for (every area's, `common` and `errors`). */
export function namespacesOf(resources: Record<Locale, Resource[string]>): string[] {
  return Object.keys(resources[DEFAULT_LOCALE]);
}

/** The language remembered on this computer, else Faroese. */
export function savedLocale(
  storage: Pick<Storage, 'getItem'> | null = localStorageOrNull(),
): Locale {
  try {
    const saved = storage?.getItem(LANGUAGE_KEY);
    return saved && isLocale(saved) ? saved : DEFAULT_LOCALE;
  } catch {
    return DEFAULT_LOCALE;
  }
}

function localStorageOrNull(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/** An i18next instance with every text of the console, ready when this returns. */
export function createI18n(lng: Locale = DEFAULT_LOCALE): I18n {
  const resources = consoleResources();
  const instance = i18next.createInstance();
  void instance.init({
    lng,
    fallbackLng: DEFAULT_LOCALE,
    supportedLngs: [...LOCALES],
    ns: namespacesOf(resources),
    defaultNS: 'common',
    resources,
    initAsync: false,
    // React escapes what it renders.
    interpolation: { escapeValue: false },
    react: { useSuspense: false },
  });
  if (typeof document !== 'undefined') document.documentElement.lang = lng;
  return instance;
}

/** The current language of `instance`, as sent in Accept-Language. */
export function localeOf(instance: I18n): Locale {
  return isLocale(instance.language) ? instance.language : DEFAULT_LOCALE;
}

/** Switches the language and remembers it on this computer (`alda-console-lang`). */
export async function changeLocale(
  instance: I18n,
  locale: Locale,
  storage: Pick<Storage, 'setItem'> | null = localStorageOrNull(),
): Promise<void> {
  await instance.changeLanguage(locale);
  if (typeof document !== 'undefined') document.documentElement.lang = locale;
  try {
    storage?.setItem(LANGUAGE_KEY, locale);
  } catch {
    // Not remembered; the switch still holds for this page.
  }
}
