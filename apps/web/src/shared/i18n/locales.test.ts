import { describe, expect, it, vi } from 'vitest';
import { ERROR_CODES } from '@alda/contract/errors';
import en from '@/locales/en.json';
import fo from '@/locales/fo.json';
import { ACCOUNT_LOCALE_KEY, LOCALE_KEY } from '@alda/contract/constants';
import { createMemoryStorage } from '@/shared/native/preferences';
import {
  changeLocale,
  createI18n,
  followAccountLocale,
  loadLaterTexts,
  loadLocale,
  restoreLocale,
} from './i18n';
import { resources } from './resources';

/** All leaf keys of a nested message object, dotted. */
function keysOf(value: unknown, prefix = ''): string[] {
  if (value === null || typeof value !== 'object') return [prefix];
  return Object.entries(value).flatMap(([key, child]) =>
    keysOf(child, prefix ? `${prefix}.${key}` : key),
  );
}

describe('translations (SPEC §1: Faroese default, English available)', () => {
  it('fo.json and en.json have identical key sets', () => {
    expect(keysOf(en).sort()).toEqual(keysOf(fo).sort());
  });

  it('has no empty message in either language', () => {
    for (const messages of [fo, en]) {
      for (const key of keysOf(messages)) {
        const text = key
          .split('.')
          .reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], messages);
        expect(typeof text === 'string' && text.trim().length > 0, key).toBe(true);
      }
    }
  });

  it('has a message for every API error code in both languages (namespace errors)', () => {
    for (const code of ERROR_CODES) {
      expect(resources.fo.errors[code], `fo ${code}`).toBeTruthy();
      expect(resources.en.errors[code], `en ${code}`).toBeTruthy();
    }
  });

  it('defaults to Faroese', () => {
    const i18n = createI18n(undefined, resources);
    expect(i18n.language).toBe('fo');
    expect(i18n.t('modal.ok')).toBe('Í lagi');
    expect(i18n.t('modal.cancel')).toBe('Angra');
  });

  it('uses the SPEC wording of the offline message (SPEC §8)', () => {
    expect(fo.offline).toBe('Áh nei, tú hevur onki samband við internetið.');
    expect(en.offline).toBe('Oh no, you have no internet connection.');
  });

  it('uses the SPEC wording of the upgrade prompts (SPEC §8)', () => {
    expect(fo.status.upgradeTitle).toBe('Dagfør appina');
    expect(fo.status.upgradeButton).toBe('Dagfør appina');
    expect(fo.status.later).toBe('Bíða við dagføring');
  });

  it('spells Faroese with ð, not the look-alike đ', () => {
    const all = JSON.stringify(fo);
    expect(all).not.toMatch(/[đĐ]/u);
    expect(fo.toast.region).toBe('Fráboðanir');
  });

  it('loads the contract validation messages (namespace validation)', () => {
    const i18n = createI18n('en', resources);
    expect(i18n.t('REQUIRED', { ns: 'validation' })).toBe('This is a required field');
  });

  it('the app loads only the language it shows, all three namespaces at once', async () => {
    const i18n = createI18n('fo');
    expect(i18n.hasResourceBundle('fo', 'translation')).toBe(false);
    await loadLocale('fo', i18n);
    expect(i18n.t('modal.ok')).toBe('Í lagi');
    expect(i18n.t('UNAUTHORIZED', { ns: 'errors' })).toBe(resources.fo.errors.UNAUTHORIZED);
    expect(i18n.t('REQUIRED', { ns: 'validation' })).toBe(resources.fo.validation.REQUIRED);
    expect(i18n.hasResourceBundle('en', 'translation')).toBe(false);
  });

  it('switches language once its texts have loaded, and remembers it', async () => {
    const i18n = createI18n('fo');
    const storage = createMemoryStorage();
    expect(await restoreLocale({ instance: i18n, storage })).toBe('fo');
    expect(i18n.t('modal.cancel')).toBe('Angra');
    const switching = changeLocale('en', { instance: i18n, storage });
    // Still Faroese, whole, while English loads.
    expect(i18n.language).toBe('fo');
    expect(i18n.t('modal.cancel')).toBe('Angra');
    await switching;
    expect(i18n.language).toBe('en');
    expect(i18n.t('modal.cancel')).toBe('Cancel');
    expect(document.documentElement.lang).toBe('en');
    expect(await storage.get(LOCALE_KEY)).toBe('en');
  });

  it("shows the account's language after sign-in where the device never chose one, and starts in it next time (issue 33 §3)", async () => {
    const i18n = createI18n('fo');
    const storage = createMemoryStorage();
    expect(await restoreLocale({ instance: i18n, storage })).toBe('fo');
    await followAccountLocale('en', { instance: i18n, storage });
    expect(i18n.language).toBe('en');
    expect(i18n.t('modal.cancel')).toBe('Cancel');
    expect(await storage.get(ACCOUNT_LOCALE_KEY)).toBe('en');
    // Not a choice made on the device: the next account's language may take its place.
    expect(await storage.get(LOCALE_KEY)).toBeNull();
    const nextStart = createI18n('fo');
    expect(await restoreLocale({ instance: nextStart, storage })).toBe('en');
    await followAccountLocale('fo', { instance: nextStart, storage });
    expect(nextStart.language).toBe('fo');
    expect(await storage.get(ACCOUNT_LOCALE_KEY)).toBe('fo');
  });

  it("a language chosen on the device wins over the account's there (SPEC §1, issue 33 §3)", async () => {
    const i18n = createI18n('fo');
    const storage = createMemoryStorage();
    await changeLocale('fo', { instance: i18n, storage });
    await followAccountLocale('en', { instance: i18n, storage });
    expect(i18n.language).toBe('fo');
    expect(await storage.get(ACCOUNT_LOCALE_KEY)).toBeNull();
    // Also at the next start, whatever an account left behind.
    await storage.set(ACCOUNT_LOCALE_KEY, 'en');
    expect(await restoreLocale({ instance: createI18n('fo'), storage })).toBe('fo');
  });

  it('keeps the current language when the new one cannot be loaded (offline)', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const i18n = createI18n('fo', { fo: resources.fo });
    const storage = createMemoryStorage();
    vi.spyOn(i18n, 'changeLanguage').mockRejectedValueOnce(new Error('chunk failed'));
    await changeLocale('en', { instance: i18n, storage });
    expect(i18n.language).toBe('fo');
    expect(await storage.get(LOCALE_KEY)).toBeNull();
    expect(warn).toHaveBeenCalled();
  });

  it('the last choice wins when an earlier one is still loading', async () => {
    const i18n = createI18n('fo', { fo: resources.fo });
    const storage = createMemoryStorage();
    const toEnglish = changeLocale('en', { instance: i18n, storage });
    const backToFaroese = changeLocale('fo', { instance: i18n, storage });
    await Promise.all([toEnglish, backToFaroese]);
    expect(i18n.language).toBe('fo');
    expect(await storage.get(LOCALE_KEY)).toBe('fo');
  });

  it("loads the first screens' texts first and the later screens' texts when asked (issue 13)", async () => {
    const i18n = createI18n('fo');
    await loadLocale('fo', i18n);
    expect(i18n.t('home.title')).toBe(fo.home.title);
    // A later section is not there yet: its key comes back as it is.
    expect(i18n.t('menu.title')).toBe('menu.title');
    await loadLaterTexts(i18n);
    expect(i18n.t('menu.title')).toBe(fo.menu.title);
    expect(i18n.t('home.title')).toBe(fo.home.title);
    expect(i18n.hasResourceBundle('en', 'translation')).toBe(false);
  });

  it('brings the API error texts the first screens do not name with the later texts (issue 33)', async () => {
    const i18n = createI18n('fo');
    await loadLocale('fo', i18n);
    expect(i18n.t('UNAUTHORIZED', { ns: 'errors' })).toBe(resources.fo.errors.UNAUTHORIZED);
    expect(i18n.exists('NUMBER_LOCKED', { ns: 'errors' })).toBe(false);
    await loadLaterTexts(i18n);
    expect(i18n.t('NUMBER_LOCKED', { ns: 'errors' })).toBe(resources.fo.errors.NUMBER_LOCKED);
    expect(i18n.t('NETWORK', { ns: 'errors' })).toBe(fo.httpErrors.NETWORK);
  });

  it("a language switch past the first screen brings the new language's later texts too", async () => {
    const i18n = createI18n('fo');
    const storage = createMemoryStorage();
    await restoreLocale({ instance: i18n, storage });
    await loadLaterTexts(i18n);
    await changeLocale('en', { instance: i18n, storage });
    expect(i18n.language).toBe('en');
    expect(i18n.t('menu.title')).toBe(en.menu.title);
    expect(i18n.t('signup.title')).toBe(en.signup.title);
  });

  it('a switch on the first screen loads only the first texts of the new language', async () => {
    const i18n = createI18n('fo');
    const storage = createMemoryStorage();
    await restoreLocale({ instance: i18n, storage });
    await changeLocale('en', { instance: i18n, storage });
    expect(i18n.t('home.title')).toBe(en.home.title);
    expect(i18n.t('menu.title')).toBe('menu.title');
    // The later route asks in the language in view.
    await loadLaterTexts(i18n);
    expect(i18n.t('menu.title')).toBe(en.menu.title);
  });

  it('later texts that arrived first do not keep the first texts away (a later screen preloaded at start-up)', async () => {
    const i18n = createI18n('fo');
    await loadLaterTexts(i18n);
    await loadLocale('fo', i18n);
    expect(i18n.t('home.title')).toBe(fo.home.title);
    expect(i18n.t('UNAUTHORIZED', { ns: 'errors' })).toBe(resources.fo.errors.UNAUTHORIZED);
    expect(i18n.t('menu.title')).toBe(fo.menu.title);
  });
});
