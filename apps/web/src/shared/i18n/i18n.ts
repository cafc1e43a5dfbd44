import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LOCALE, LOCALES, type Locale } from '@alda/contract/locale';
import { LOCALE_KEY } from '@alda/contract/constants';
import { VALIDATION_MESSAGES } from '@alda/contract/rules/messages';
import errorsEn from '@alda/contract/locales/errors.en.json';
import errorsFo from '@alda/contract/locales/errors.fo.json';
import en from '@/locales/en.json';
import fo from '@/locales/fo.json';
import { preferences, type KeyValueStorage } from '@/shared/native/preferences';

/**
 * Namespaces: `translation` (the app's own texts, src/locales), `errors` (the contract's message
 * per API error code, plus the client-side codes of the HTTP client) and `validation` (the
 * contract's SPEC §5 rule messages).
 */
export const resources = {
  fo: {
    translation: fo,
    errors: { ...errorsFo, ...fo.httpErrors },
    validation: VALIDATION_MESSAGES.fo,
  },
  en: {
    translation: en,
    errors: { ...errorsEn, ...en.httpErrors },
    validation: VALIDATION_MESSAGES.en,
  },
} as const;

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/** A fresh, synchronously initialised i18next instance (tests create their own). */
export function createI18n(lng: Locale = DEFAULT_LOCALE): I18n {
  const instance = i18next.createInstance();
  void instance.use(initReactI18next).init({
    resources,
    lng,
    fallbackLng: DEFAULT_LOCALE,
    supportedLngs: [...LOCALES],
    ns: ['translation', 'errors', 'validation'],
    defaultNS: 'translation',
    interpolation: { escapeValue: false },
    returnNull: false,
    initAsync: false,
  });
  return instance;
}

/** The app's i18n instance. */
export const i18n = createI18n();

/** The current locale, as sent in Accept-Language. */
export function currentLocale(instance: I18n = i18n): Locale {
  return isLocale(instance.language) ? instance.language : DEFAULT_LOCALE;
}

function applyLocale(instance: I18n, locale: Locale) {
  if (typeof document !== 'undefined') document.documentElement.lang = locale;
  return instance.changeLanguage(locale);
}

/** Switches the language and remembers it on the device (Preferences key LOCALE_KEY). */
export async function changeLocale(
  locale: Locale,
  { instance = i18n, storage = preferences }: { instance?: I18n; storage?: KeyValueStorage } = {},
): Promise<void> {
  await applyLocale(instance, locale);
  await storage.set(LOCALE_KEY, locale);
}

/** Start-up step 2 (SPEC §1): restores the saved locale; Faroese when none is saved. */
export async function restoreLocale({
  instance = i18n,
  storage = preferences,
}: { instance?: I18n; storage?: KeyValueStorage } = {}): Promise<Locale> {
  const saved = await storage.get(LOCALE_KEY).catch(() => null);
  const locale = isLocale(saved) ? saved : DEFAULT_LOCALE;
  await applyLocale(instance, locale);
  return locale;
}
