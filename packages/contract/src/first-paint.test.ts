import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { ACCOUNT_LOCALE_KEY, LOCALE_KEY, TOKEN_KEYS } from './constants';
import { FIRST_PAINT_SCRIPT, GUEST_START } from './first-paint';

/** Runs the inline script on `path` with these Preferences saved; the `<html data-start>` it set. */
function firstPaint(saved: Record<string, string>, path = '/rita-inn'): string | undefined {
  const attributes: Record<string, string> = {};
  const localStorage = {
    getItem: (key: string) => saved[key.replace('CapacitorStorage.', '')] ?? null,
  };
  runInNewContext(FIRST_PAINT_SCRIPT, {
    window: { localStorage },
    location: { pathname: path },
    document: {
      documentElement: {
        setAttribute: (name: string, value: string) => (attributes[name] = value),
      },
    },
  });
  return attributes['data-start'];
}

describe('the first paint (issue 30, ADR 0072)', () => {
  it('shows the prerendered Faroese login to a guest who chose nothing', () => {
    expect(firstPaint({})).toBe(GUEST_START);
    expect(firstPaint({}, '/')).toBe(GUEST_START);
    expect(firstPaint({ [LOCALE_KEY]: 'fo' })).toBe(GUEST_START);
  });

  it('keeps the splash for a saved session, another path or English', () => {
    expect(firstPaint({ [TOKEN_KEYS.refresh]: 'r' })).toBeUndefined();
    expect(firstPaint({}, '/nytt-loyniord')).toBeUndefined();
    expect(firstPaint({ [LOCALE_KEY]: 'en' })).toBeUndefined();
  });

  it("keeps the splash where the last account's language is English, unless the device chose Faroese (issue 33 §3)", () => {
    expect(firstPaint({ [ACCOUNT_LOCALE_KEY]: 'en' })).toBeUndefined();
    expect(firstPaint({ [ACCOUNT_LOCALE_KEY]: 'en', [LOCALE_KEY]: 'fo' })).toBe(GUEST_START);
  });
});
