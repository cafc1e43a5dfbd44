import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { ACCOUNT_LOCALE_KEY, LOCALE_KEY, TOKEN_KEYS } from './constants';
import { ENTRY_SCRIPT, FIRST_PAINT_SCRIPT, GUEST_START, SCRIPTS_TEMPLATE_ID } from './first-paint';

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

/**
 * Runs the entry script on a page whose `<html data-start>` is `start`; returns what it had added
 * to `<head>` at once, and the callbacks it left for the next frame and for later.
 */
function entryScript(start: string | null, visibility: 'visible' | 'hidden' = 'visible') {
  const added: { name: string; attributes: Record<string, string> }[] = [];
  const frames: (() => void)[] = [];
  const timers: (() => void)[] = [];
  const template = (name: string, attributes: Record<string, string>) => ({
    localName: name,
    attributes: Object.entries(attributes).map(([key, value]) => ({ name: key, value })),
  });
  const children = [
    template('link', { rel: 'modulepreload', href: '/assets/shell.js' }),
    template('script', { type: 'module', src: '/assets/index.js' }),
  ];
  runInNewContext(ENTRY_SCRIPT, {
    document: {
      visibilityState: visibility,
      documentElement: { getAttribute: (name: string) => (name === 'data-start' ? start : null) },
      getElementById: (id: string) =>
        id === SCRIPTS_TEMPLATE_ID ? { content: { children } } : null,
      createElement: (name: string) => {
        const element = { name, attributes: {} as Record<string, string> };
        return {
          setAttribute: (key: string, value: string) => (element.attributes[key] = value),
          element,
        };
      },
      head: {
        appendChild: (node: { element: (typeof added)[number] }) => added.push(node.element),
      },
    },
    requestAnimationFrame: (callback: () => void) => frames.push(callback),
    setTimeout: (callback: () => void) => timers.push(callback),
  });
  return { added, frames, timers };
}

describe("the app's scripts after a guest's first paint (issue 45)", () => {
  const scripts = [
    { name: 'link', attributes: { rel: 'modulepreload', href: '/assets/shell.js' } },
    { name: 'script', attributes: { type: 'module', src: '/assets/index.js' } },
  ];

  it('adds them only after the frame that paints the prerendered login', () => {
    const { added, frames, timers } = entryScript(GUEST_START);
    expect(added).toEqual([]);
    expect(frames).toHaveLength(1);
    frames[0]?.();
    // Inside the frame, before its paint: still nothing.
    expect(added).toEqual([]);
    timers[0]?.();
    expect(added).toEqual(scripts);
  });

  it('adds them at once for the splash (signed in, English, another path) and in a hidden tab', () => {
    expect(entryScript(null).added).toEqual(scripts);
    expect(entryScript(GUEST_START, 'hidden').added).toEqual(scripts);
  });
});
