import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { ACCOUNT_LOCALE_KEY, LOCALE_KEY, TOKEN_KEYS } from './constants';
import {
  EARLY_GETS,
  EARLY_REQUESTS_GLOBAL,
  ENTRY_SCRIPT,
  FIRST_PAINT_SCRIPT,
  GUEST_START,
  PRELOAD_FOR_ATTRIBUTE,
  SCRIPTS_TEMPLATE_ID,
  SIGNED_IN_PRELOAD,
} from './first-paint';

/**
 * Runs the inline script on `path` with these Preferences saved (in the native shell with
 * `native`): the `<html data-start>` it set, the requests it sent and what it left on `window`.
 */
function runFirstPaint(
  saved: Record<string, string>,
  path = '/rita-inn',
  native = false,
  answer: (url: string) => Promise<unknown> = (url) => Promise.resolve({ ok: true, url }),
) {
  const attributes: Record<string, string> = {};
  const localStorage = {
    getItem: (key: string) => saved[key.replace('CapacitorStorage.', '')] ?? null,
  };
  const sent: { url: string; headers: Record<string, string> }[] = [];
  const window: Record<string, unknown> = {
    localStorage,
    ...(native ? { Capacitor: { isNativePlatform: () => true } } : {}),
  };
  runInNewContext(FIRST_PAINT_SCRIPT, {
    window,
    location: { pathname: path },
    fetch: (url: string, init: { headers: Record<string, string> }) => {
      sent.push({ url, headers: init.headers });
      return answer(url);
    },
    document: {
      documentElement: {
        setAttribute: (name: string, value: string) => (attributes[name] = value),
      },
    },
  });
  return {
    start: attributes['data-start'],
    sent,
    early: window[EARLY_REQUESTS_GLOBAL] as
      { headers: Record<string, string>; responses: Record<string, Promise<unknown>> } | undefined,
  };
}

/** The `<html data-start>` the inline script set on `path` with these Preferences saved. */
const firstPaint = (saved: Record<string, string>, path = '/rita-inn') =>
  runFirstPaint(saved, path).start;

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

describe('the start-up requests of a saved session, sent before the scripts load (issue 45)', () => {
  const urls = EARLY_GETS.map((path) => `/api${path}`);

  it('sends the user and the six account resources (SPEC §1 steps 3 and 5) with the saved token, in Faroese', async () => {
    const { sent, early, start } = runFirstPaint({ [TOKEN_KEYS.access]: 'tok' }, '/');
    const headers = {
      Accept: 'application/json',
      'Accept-Language': 'fo',
      Authorization: 'Bearer tok',
    };
    expect(sent).toEqual(urls.map((url) => ({ url, headers })));
    expect(early?.headers).toEqual(headers);
    expect(Object.keys(early?.responses ?? {})).toEqual(urls);
    await expect(early?.responses['/api/auth/me']).resolves.toEqual({
      ok: true,
      url: '/api/auth/me',
    });
    // Signed in: the splash, not the prerendered login.
    expect(start).toBeUndefined();
  });

  it("asks in the device's language, else the last account's (SPEC §1, issue 33 §3)", () => {
    const language = (saved: Record<string, string>) =>
      runFirstPaint({ [TOKEN_KEYS.access]: 'tok', ...saved }).sent[0]?.headers['Accept-Language'];
    expect(language({ [LOCALE_KEY]: 'en' })).toBe('en');
    expect(language({ [ACCOUNT_LOCALE_KEY]: 'en' })).toBe('en');
    expect(language({ [LOCALE_KEY]: 'fo', [ACCOUNT_LOCALE_KEY]: 'en' })).toBe('fo');
    expect(language({ [LOCALE_KEY]: 'de' })).toBe('fo');
  });

  it('sends nothing for a guest, a refresh token alone, or in the native shell', () => {
    expect(runFirstPaint({}).sent).toEqual([]);
    expect(runFirstPaint({ [TOKEN_KEYS.refresh]: 'r' }).sent).toEqual([]);
    const native = runFirstPaint({ [TOKEN_KEYS.access]: 'tok' }, '/', true);
    expect(native.sent).toEqual([]);
    expect(native.early).toBeUndefined();
  });

  it('answers null for a request the network refused, instead of failing', async () => {
    const { early } = runFirstPaint({ [TOKEN_KEYS.access]: 't' }, '/', false, () =>
      Promise.reject(new TypeError('Failed to fetch')),
    );
    await expect(early?.responses['/api/orders']).resolves.toBeNull();
  });
});

/**
 * Runs the entry script on a page whose `<html data-start>` is `start`, at `path`, after the first
 * paint's script did (`signedIn`) or did not send a saved session's requests; returns what it had
 * added to `<head>` at once, and the callbacks it left for the next frame and for later.
 */
function entryScript(
  start: string | null,
  visibility: 'visible' | 'hidden' = 'visible',
  { path = '/', signedIn = false }: { path?: string; signedIn?: boolean } = {},
) {
  const added: { name: string; attributes: Record<string, string> }[] = [];
  const frames: (() => void)[] = [];
  const timers: (() => void)[] = [];
  const template = (name: string, attributes: Record<string, string>) => ({
    localName: name,
    attributes: Object.entries(attributes).map(([key, value]) => ({ name: key, value })),
    getAttribute: (key: string) => attributes[key] ?? null,
  });
  const children = [
    template('link', { rel: 'modulepreload', href: '/assets/shell.js' }),
    template('link', {
      rel: 'modulepreload',
      href: '/assets/login.js',
      [PRELOAD_FOR_ATTRIBUTE]: GUEST_START,
    }),
    template('link', {
      rel: 'modulepreload',
      href: '/assets/home.js',
      [PRELOAD_FOR_ATTRIBUTE]: `${SIGNED_IN_PRELOAD}/`,
    }),
    template('link', {
      rel: 'modulepreload',
      href: '/assets/purchase.js',
      [PRELOAD_FOR_ATTRIBUTE]: `${SIGNED_IN_PRELOAD}/keyp-pakka`,
    }),
    template('script', { type: 'module', src: '/assets/index.js' }),
  ];
  runInNewContext(ENTRY_SCRIPT, {
    window: signedIn ? { [EARLY_REQUESTS_GLOBAL]: { headers: {}, responses: {} } } : {},
    location: { pathname: path },
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
  const shell = { name: 'link', attributes: { rel: 'modulepreload', href: '/assets/shell.js' } };
  const login = {
    name: 'link',
    attributes: {
      rel: 'modulepreload',
      href: '/assets/login.js',
      [PRELOAD_FOR_ATTRIBUTE]: GUEST_START,
    },
  };
  const entry = { name: 'script', attributes: { type: 'module', src: '/assets/index.js' } };
  const scripts = [shell, login, entry];

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

  it("adds a signed-in start's own screen instead of the login screen: home, or the purchase screen", () => {
    const preload = (href: string, path: string) => ({
      name: 'link',
      attributes: {
        rel: 'modulepreload',
        href,
        [PRELOAD_FOR_ATTRIBUTE]: `${SIGNED_IN_PRELOAD}${path}`,
      },
    });
    expect(entryScript(null, 'visible', { signedIn: true }).added).toEqual([
      shell,
      preload('/assets/home.js', '/'),
      entry,
    ]);
    expect(entryScript(null, 'visible', { signedIn: true, path: '/keyp-pakka' }).added).toEqual([
      shell,
      preload('/assets/purchase.js', '/keyp-pakka'),
      entry,
    ]);
    // Signed in on another screen: only what every start needs; main.tsx preloads the screen.
    expect(entryScript(null, 'visible', { signedIn: true, path: '/menu' }).added).toEqual([
      shell,
      entry,
    ]);
  });
});
