import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '@alda/contract/errors';
import en from '@/locales/en.json';
import fo from '@/locales/fo.json';
import { createI18n, resources } from './i18n';

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
    const i18n = createI18n();
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
    const i18n = createI18n('en');
    expect(i18n.t('REQUIRED', { ns: 'validation' })).toBe('This is a required field');
  });
});
