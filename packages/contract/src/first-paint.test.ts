import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { ACCOUNT_LOCALE_KEY, LOCALE_KEY, TOKEN_KEYS } from './constants';
import { PACKAGE_REQUESTS_PATH, PAYMENT_METHODS_PATH } from './start-up';
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

/** The app's scripts in index.html's template, as the build writes them (at low priority). */
const TEMPLATE: { name: string; attributes: Record<string, string> }[] = [
  {
    name: 'link',
    attributes: { rel: 'modulepreload', href: '/assets/shell.js', fetchpriority: 'low' },
  },
  {
    name: 'link',
    attributes: {
      rel: 'modulepreload',
      href: '/assets/login.js',
      fetchpriority: 'low',
      [PRELOAD_FOR_ATTRIBUTE]: GUEST_START,
    },
  },
  {
    name: 'link',
    attributes: {
      rel: 'modulepreload',
      href: '/assets/home.js',
      fetchpriority: 'low',
      [PRELOAD_FOR_ATTRIBUTE]: `${SIGNED_IN_PRELOAD}/`,
    },
  },
  {
    name: 'link',
    attributes: {
      rel: 'modulepreload',
      href: '/assets/purchase.js',
      fetchpriority: 'low',
      [PRELOAD_FOR_ATTRIBUTE]: `${SIGNED_IN_PRELOAD}/keyp-pakka`,
    },
  },
  { name: 'script', attributes: { type: 'module', src: '/assets/index.js', fetchpriority: 'low' } },
];

interface Added {
  name: string;
  attributes: Record<string, string>;
}

/**
 * index.html's two inline scripts, run in order on a page at `path` with these Preferences saved
 * (in the native shell with `native`): the `<html data-start>` they set, the requests they sent,
 * the tags added to `<head>`, everything in the order it happened, what they left on `window`, and
 * the callbacks left for the next frame and for later. `entry: false` runs the first alone.
 */
function runFirstPaint(
  saved: Record<string, string>,
  path = '/rita-inn',
  native = false,
  answer: (url: string) => Promise<unknown> = (url) => Promise.resolve({ ok: true, url }),
  {
    visibility = 'visible',
    entry = true,
  }: { visibility?: 'visible' | 'hidden'; entry?: boolean } = {},
) {
  const attributes: Record<string, string> = {};
  const localStorage = {
    getItem: (key: string) => saved[key.replace('CapacitorStorage.', '')] ?? null,
  };
  const sent: { url: string; headers: Record<string, string> }[] = [];
  const priorities: (string | undefined)[] = [];
  const added: Added[] = [];
  const order: string[] = [];
  const frames: (() => void)[] = [];
  const timers: (() => void)[] = [];
  const window: Record<string, unknown> = {
    localStorage,
    ...(native ? { Capacitor: { isNativePlatform: () => true } } : {}),
  };
  const children = TEMPLATE.map(({ name, attributes: own }) => ({
    localName: name,
    attributes: Object.entries(own).map(([key, value]) => ({ name: key, value })),
    getAttribute: (key: string) => own[key] ?? null,
  }));
  const context = {
    window,
    location: { pathname: path },
    fetch: (url: string, init: { headers: Record<string, string>; priority?: string }) => {
      sent.push({ url, headers: init.headers });
      priorities.push(init.priority);
      order.push(`fetch ${url}`);
      return answer(url);
    },
    document: {
      visibilityState: visibility,
      documentElement: {
        setAttribute: (name: string, value: string) => (attributes[name] = value),
        getAttribute: (name: string) => attributes[name] ?? null,
      },
      getElementById: (id: string) =>
        id === SCRIPTS_TEMPLATE_ID ? { content: { children } } : null,
      createElement: (name: string) => {
        const element: Added = { name, attributes: {} };
        return {
          setAttribute: (key: string, value: string) => (element.attributes[key] = value),
          element,
        };
      },
      head: {
        appendChild: (node: { element: Added }) => {
          added.push(node.element);
          order.push(`add ${node.element.attributes.href ?? node.element.attributes.src}`);
        },
      },
    },
    requestAnimationFrame: (callback: () => void) => frames.push(callback),
    setTimeout: (callback: () => void) => timers.push(callback),
  };
  runInNewContext(FIRST_PAINT_SCRIPT, context);
  if (entry) runInNewContext(ENTRY_SCRIPT, context);
  return {
    start: attributes['data-start'],
    sent,
    priorities,
    added,
    order,
    frames,
    timers,
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

  it("adds the purchase screen's own GETs on its path (issue 45), after the start-up's", () => {
    const purchase = runFirstPaint({ [TOKEN_KEYS.access]: 'tok' }, '/keyp-pakka');
    expect(purchase.sent.map((r) => r.url)).toEqual([
      ...urls,
      `/api${PAYMENT_METHODS_PATH}`,
      `/api${PACKAGE_REQUESTS_PATH}`,
    ]);
    expect(purchase.sent.every((r) => r.headers.Authorization === 'Bearer tok')).toBe(true);
    expect(runFirstPaint({ [TOKEN_KEYS.access]: 'tok' }, '/menu').sent.map((r) => r.url)).toEqual(
      urls,
    );
  });

  it('leaves the sending to the entry script: without it (the dev server) nothing is sent, and the app asks itself', () => {
    const alone = runFirstPaint({ [TOKEN_KEYS.access]: 'tok' }, '/', false, undefined, {
      entry: false,
    });
    expect(alone.sent).toEqual([]);
    expect(alone.early?.responses).toEqual({});
    expect(alone.early?.headers.Authorization).toBe('Bearer tok');
  });

  it('answers null for a request the network refused, instead of failing', async () => {
    const { early } = runFirstPaint({ [TOKEN_KEYS.access]: 't' }, '/', false, () =>
      Promise.reject(new TypeError('Failed to fetch')),
    );
    await expect(early?.responses['/api/orders']).resolves.toBeNull();
  });
});

/** A module preload the entry script added. */
const atOnce = (href: string, extra: Record<string, string> = {}) => ({
  name: 'link',
  attributes: { rel: 'modulepreload', href, ...extra },
});

describe("the app's scripts (issue 45)", () => {
  const entryAt = (priority: Record<string, string>) => ({
    name: 'script',
    attributes: { type: 'module', src: '/assets/index.js', ...priority },
  });
  const low = { fetchpriority: 'low' };
  const guestScripts = [
    atOnce('/assets/shell.js', low),
    atOnce('/assets/login.js', { ...low, [PRELOAD_FOR_ATTRIBUTE]: GUEST_START }),
    entryAt(low),
  ];

  it('adds them for a guest only after the frame that paints the prerendered login', () => {
    const { added, frames, timers, start } = runFirstPaint({}, '/');
    expect(start).toBe(GUEST_START);
    expect(added).toEqual([]);
    expect(frames).toHaveLength(1);
    frames[0]?.();
    // Inside the frame, before its paint: still nothing.
    expect(added).toEqual([]);
    timers[0]?.();
    expect(added).toEqual(guestScripts);
  });

  it('adds them at once for the splash (English, another path) and in a hidden tab', () => {
    expect(runFirstPaint({ [LOCALE_KEY]: 'en' }, '/').added).toEqual(guestScripts);
    expect(runFirstPaint({}, '/nytt-loyniord').added).toEqual(guestScripts);
    expect(runFirstPaint({}, '/', false, undefined, { visibility: 'hidden' }).added).toEqual(
      guestScripts,
    );
  });

  it("adds a signed-in start's own screen instead of the login screen: home, or the purchase screen", () => {
    const signedIn = (path: string) => runFirstPaint({ [TOKEN_KEYS.access]: 'tok' }, path).added;
    const forPath = (href: string, path: string) =>
      atOnce(href, { ...low, [PRELOAD_FOR_ATTRIBUTE]: `${SIGNED_IN_PRELOAD}${path}` });
    expect(signedIn('/')).toEqual([
      atOnce('/assets/shell.js', low),
      forPath('/assets/home.js', '/'),
      entryAt(low),
    ]);
    expect(signedIn('/keyp-pakka')).toEqual([
      atOnce('/assets/shell.js', low),
      forPath('/assets/purchase.js', '/keyp-pakka'),
      entryAt(low),
    ]);
    // Signed in on another screen: only what every start needs; main.tsx preloads the screen.
    expect(signedIn('/menu')).toEqual([atOnce('/assets/shell.js', low), entryAt(low)]);
  });

  it("sends a saved session's start-up requests after the scripts, at low priority like them, so the largest script is not queued behind them", () => {
    const { order, priorities } = runFirstPaint({ [TOKEN_KEYS.access]: 'tok' }, '/');
    expect(priorities).toEqual(EARLY_GETS.map(() => 'low'));
    expect(order).toEqual([
      'add /assets/shell.js',
      'add /assets/home.js',
      'add /assets/index.js',
      ...EARLY_GETS.map((path) => `fetch /api${path}`),
    ]);
  });
});
