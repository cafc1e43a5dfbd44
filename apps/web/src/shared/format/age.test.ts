import { describe, expect, it } from 'vitest';
import { createI18n } from '@/shared/i18n/i18n';
import { resources } from '@/shared/i18n/resources';
import { ageOf } from './age';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const now = Date.UTC(2026, 10, 23, 12, 0);

/** Home's age line for figures fetched `ago` ms before now, as the customer reads it. */
function ageText(language: 'fo' | 'en', ago: number): string {
  const i18n = createI18n(language, resources);
  const age = ageOf(now - ago, now);
  return i18n.t(`home.data.updated.${age.unit}`, { count: age.count });
}

describe('issue 16.4: the age of the last known figures', () => {
  it('is said in whole minutes, hours and days, rounded down, in natural Faroese', () => {
    expect(ageText('fo', 30 * 1000)).toBe('Dagført fyri løtu síðan');
    expect(ageText('fo', MINUTE)).toBe('Dagført fyri 1 minutti síðan');
    expect(ageText('fo', 59 * MINUTE)).toBe('Dagført fyri 59 minuttum síðan');
    expect(ageText('fo', HOUR)).toBe('Dagført fyri 1 tíma síðan');
    expect(ageText('fo', 2 * HOUR + 59 * MINUTE)).toBe('Dagført fyri 2 tímum síðan');
    expect(ageText('fo', DAY)).toBe('Dagført fyri 1 degi síðan');
    expect(ageText('fo', 3 * DAY + HOUR)).toBe('Dagført fyri 3 døgum síðan');
  });

  it('and in English', () => {
    expect(ageText('en', 10 * 1000)).toBe('Updated just now');
    expect(ageText('en', MINUTE)).toBe('Updated 1 minute ago');
    expect(ageText('en', 5 * MINUTE)).toBe('Updated 5 minutes ago');
    expect(ageText('en', 2 * HOUR)).toBe('Updated 2 hours ago');
    expect(ageText('en', 2 * DAY)).toBe('Updated 2 days ago');
  });

  it('is "just now" for a time ahead of the clock (a clock put back)', () => {
    expect(ageOf(now + HOUR, now)).toEqual({ unit: 'now', count: 0 });
  });
});
