import { DEFAULT_LOCALE, LOCALES, type Locale } from '@alda/contract/locale';
import { ACCOUNT_LOCALE_KEY, LOCALE_KEY } from '@alda/contract/constants';
import { preferences, type KeyValueStorage } from '@/shared/native/preferences';
import i18next, { type i18n as I18n } from 'i18next';
import { setI18n } from 'react-i18next';
import type { LaterResources, LocaleResources, Messages } from './locale-resources';

const NAMESPACES = ['translation', 'errors', 'validation'] as const;

/** An i18next instance: the app's, or a test's own. */
export type Translator = I18n;

/**
 * The texts of each language are a chunk of their own (resources-<lang>.ts): a phone downloads
 * only the language it shows, when it first shows it; and only the first screens' texts before
 * the first screen, the rest (text-parts.ts) after it.
 */
const LOADERS: Record<Locale, () => Promise<{ default: LocaleResources }>> = {
  fo: () => import('./resources-fo'),
  en: () => import('./resources-en'),
};
const LATER_LOADERS: Record<Locale, () => Promise<{ default: LaterResources }>> = {
  fo: () => import('./later-fo'),
  en: () => import('./later-en'),
};

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/**
 * A fresh i18next instance (ADR 0073), Faroese as the fallback language, ready when this returns
 * (texts are added by hand, so nothing is waited for). With `resources` (tests) the texts are
 * there at once; without them (the app) {@link loadLocale} adds a language before it is shown.
 */
export function createI18n(
  lng: Locale = DEFAULT_LOCALE,
  resources?: Partial<Record<Locale, LocaleResources | LocaleResources<Messages>>>,
): Translator {
  const instance = i18next.createInstance();
  void instance.init({
    lng,
    fallbackLng: DEFAULT_LOCALE,
    supportedLngs: [...LOCALES],
    ns: [...NAMESPACES],
    defaultNS: 'translation',
    resources: resources ?? {},
    // Languages and namespaces arrive with addResourceBundle (loadLocale, loadLaterTexts).
    partialBundledLanguages: true,
    initAsync: false,
    // Keys are plain dotted paths; a server's message passed as defaultValue may hold a colon.
    nsSeparator: false,
    // React escapes what it renders.
    interpolation: { escapeValue: false },
    react: {
      // The app awaits its texts before it renders (startup.ts, routes.tsx); nothing suspends.
      useSuspense: false,
      // Screens shown while a language's first texts arrive render again with them (the later
      // texts are added silently, loadLaterTexts).
      bindI18nStore: 'added',
    },
  });
  return instance;
}

/**
 * The app's i18n instance; its texts load with {@link restoreLocale} at start-up. It is also
 * react-i18next's instance for a tree without a provider (tests' own instances are not).
 */
export const i18n = createI18n();
setI18n(i18n);

/** The current locale, as sent in Accept-Language. */
export function currentLocale(instance: Translator = i18n): Locale {
  return isLocale(instance.language) ? instance.language : DEFAULT_LOCALE;
}

/** Downloads per translator and locale: started once, shared by concurrent and later callers. */
type Downloads = WeakMap<Translator, Map<Locale, Promise<void>>>;

function once(
  downloads: Downloads,
  instance: Translator,
  locale: Locale,
  download: () => Promise<void>,
): Promise<void> {
  let byLocale = downloads.get(instance);
  if (!byLocale) downloads.set(instance, (byLocale = new Map()));
  const known = byLocale.get(locale);
  if (known) return known;
  const started = download();
  byLocale.set(locale, started);
  // A failed download may be tried again (offline now, online later).
  started.catch(() => byLocale.delete(locale));
  return started;
}

const firstLoads: Downloads = new WeakMap();

/**
 * Adds the texts of `locale` to `instance` unless it has them: downloads the language's chunk
 * once (concurrent callers share the download; a failed one may be tried again).
 */
export function loadLocale(locale: Locale, instance: Translator = i18n): Promise<void> {
  // `validation` comes only with the first chunk (`translation` and `errors` may already hold
  // the later part's texts).
  if (instance.hasResourceBundle(locale, 'validation')) return Promise.resolve();
  return once(firstLoads, instance, locale, async () => {
    const { default: bundle } = await LOADERS[locale]();
    // Not copied (i18next's default is a JSON round trip of every text, on the way to the first
    // screen): the bundle is a module of ours that nothing changes.
    for (const ns of NAMESPACES) {
      instance.addResourceBundle(locale, ns, bundle[ns], false, false, { skipCopy: true });
    }
  });
}

const laterLoads: Downloads = new WeakMap();

/**
 * Adds the texts of the screens after the first ones (text-parts.ts) in `locale` to `instance`,
 * downloaded once. Every route but the first screens awaits it (routes.tsx); start-up asks for
 * it in the background once the first screen is up.
 */
export function loadLaterTexts(
  instance: Translator = i18n,
  locale: Locale = currentLocale(instance),
): Promise<void> {
  return once(laterLoads, instance, locale, async () => {
    const { default: later } = await LATER_LOADERS[locale]();
    // Silently: no screen shown yet uses these texts (text-parts.test.ts), so nothing needs to
    // render again when they arrive. Announced, they made every translated component on home
    // render again in one task of 50–90 ms at a phone's speed, just after its first paint
    // (issue 45). A first screen showing an API error whose text is here keeps the API's own
    // message, which is the same text in the same language (text-parts.ts).
    const quietly = { silent: true, skipCopy: true };
    instance.addResourceBundle(locale, 'translation', later.translation, false, false, quietly);
    instance.addResourceBundle(locale, 'errors', later.errors, false, false, quietly);
  });
}

/** The locale asked for last, per instance: a slower, earlier switch must not undo it. */
const latestChoice = new WeakMap<Translator, Locale>();

/**
 * Shows `locale`: its texts first (nothing shows half-translated), then the switch. False when a
 * later call chose another locale meanwhile (that one wins).
 */
async function applyLocale(instance: Translator, locale: Locale): Promise<boolean> {
  latestChoice.set(instance, locale);
  // Past the first screen (the later texts of a language are there or coming), the new
  // language's later texts come too: the screen in view may show them.
  const pastFirstScreen = (laterLoads.get(instance)?.size ?? 0) > 0;
  await Promise.all([
    loadLocale(locale, instance),
    pastFirstScreen ? loadLaterTexts(instance, locale) : undefined,
  ]);
  if (latestChoice.get(instance) !== locale) return false;
  await instance.changeLanguage(locale);
  if (typeof document !== 'undefined') document.documentElement.lang = locale;
  return true;
}

/**
 * Switches the language and remembers it on the device (Preferences key LOCALE_KEY). The current
 * language stays when the new one's texts cannot be downloaded (offline).
 */
export async function changeLocale(
  locale: Locale,
  {
    instance = i18n,
    storage = preferences,
  }: { instance?: Translator; storage?: KeyValueStorage } = {},
): Promise<void> {
  let switched: boolean;
  try {
    switched = await applyLocale(instance, locale);
  } catch (error) {
    console.warn(`Could not switch to ${locale}`, error);
    return;
  }
  if (switched) await storage.set(LOCALE_KEY, locale);
}

/** The first of `keys` saved with a locale on the device; null when none is. */
async function savedLocale(storage: KeyValueStorage, ...keys: string[]): Promise<Locale | null> {
  for (const key of keys) {
    const saved = await storage.get(key).catch(() => null);
    if (isLocale(saved)) return saved;
  }
  return null;
}

/**
 * Start-up step 2 (SPEC §1): restores the locale chosen on this device, else the language of the
 * account last signed in here (issue 33 §3), else Faroese.
 */
export async function restoreLocale({
  instance = i18n,
  storage = preferences,
}: { instance?: Translator; storage?: KeyValueStorage } = {}): Promise<Locale> {
  const locale = (await savedLocale(storage, LOCALE_KEY, ACCOUNT_LOCALE_KEY)) ?? DEFAULT_LOCALE;
  await applyLocale(instance, locale);
  return locale;
}

/**
 * After a sign-in or a start signed in (issue 33 §3): shows the account's language (`users.locale`)
 * on a device where no language was ever chosen, and keeps it for the next start. A language
 * chosen on this device wins here (SPEC §1), so then nothing changes.
 */
export async function followAccountLocale(
  locale: Locale,
  {
    instance = i18n,
    storage = preferences,
  }: { instance?: Translator; storage?: KeyValueStorage } = {},
): Promise<void> {
  if (await savedLocale(storage, LOCALE_KEY)) return;
  try {
    if (!(await applyLocale(instance, locale))) return;
  } catch (error) {
    console.warn(`Could not switch to ${locale}`, error);
    return;
  }
  await storage.set(ACCOUNT_LOCALE_KEY, locale).catch(() => {});
}
