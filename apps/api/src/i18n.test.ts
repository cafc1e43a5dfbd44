import { describe, expect, it } from 'vitest';
import { requestLocale } from './i18n';

const localeOf = (header?: string) =>
  requestLocale({ headers: header === undefined ? {} : { 'accept-language': header } });

describe('requestLocale (SPEC §1: Faroese unless English is preferred)', () => {
  it('answers the same header the same way every time (the answer is kept per value)', () => {
    for (let i = 0; i < 3; i++) {
      expect(localeOf('en-GB,en;q=0.9,fo;q=0.8')).toBe('en');
      expect(localeOf('fo-FO,fo;q=0.9,en;q=0.8')).toBe('fo');
      expect(localeOf('da,en;q=0.5')).toBe('en');
      expect(localeOf('de')).toBe('fo');
      expect(localeOf()).toBe('fo');
    }
  });

  it('still reads every header once more values have come than are kept (made-up ones from a flood)', () => {
    for (let i = 0; i < 1000; i++) {
      expect(localeOf(`x-${i},en;q=0.${(i % 9) + 1}`)).toBe('en');
      expect(localeOf(`x-${i},fo;q=0.${(i % 9) + 1}`)).toBe('fo');
    }
    expect(localeOf('en')).toBe('en');
  });
});
