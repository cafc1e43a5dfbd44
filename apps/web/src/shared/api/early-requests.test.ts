import { runInNewContext } from 'node:vm';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import {
  EARLY_GETS,
  ENTRY_SCRIPT,
  FIRST_PAINT_SCRIPT,
  type EARLY_REQUESTS_GLOBAL,
} from '@alda/contract/first-paint';
import { PACKAGE_REQUESTS_PATH, PAYMENT_METHODS_PATH } from '@alda/contract/start-up';
import { createTokenStore } from '@/shared/auth/token-store';
import { ROUTES } from '@/shared/config/paths';
import { createI18n, restoreLocale } from '@/shared/i18n/i18n';
import { createMemoryStorage } from '@/shared/native/preferences';
import { createFakeApi, fail, ok, type Handler } from '@/test/fake-api';
import { dropEarlyResponses, takeEarlyResponse, type EarlyRequests } from './early-requests';
import { createHttpClient } from './http';

const user = z.object({ id: z.string() });

/**
 * index.html's inline scripts run with a saved session (token `tok`, `saved` Preferences besides),
 * its requests answered by `early`; then the app's HTTP client, signed in with `appToken` and
 * speaking `locale`, answered by `later`. What each side was asked, and the client.
 */
async function start({
  early,
  later,
  saved = {},
  appToken = 'tok',
  locale = 'fo',
  path = '/',
}: {
  early: Record<string, Handler>;
  later: Record<string, Handler>;
  saved?: Record<string, string>;
  appToken?: string;
  locale?: string;
  path?: string;
}) {
  const page = createFakeApi(early);
  const scope: { [EARLY_REQUESTS_GLOBAL]?: EarlyRequests } = {};
  const stored: Record<string, string> = { accessToken: 'tok', ...saved };
  const context = {
    window: Object.assign(scope, {
      localStorage: {
        getItem: (key: string) => stored[key.replace('CapacitorStorage.', '')] ?? null,
      },
    }),
    location: { pathname: path },
    fetch: page.fetch,
    document: {
      visibilityState: 'visible',
      documentElement: { setAttribute: () => {}, getAttribute: () => null },
      getElementById: () => null,
    },
  };
  // The first inline script finds the session; the second sends the requests.
  runInNewContext(FIRST_PAINT_SCRIPT, context);
  runInNewContext(ENTRY_SCRIPT, context);
  const app = createFakeApi(later);
  const tokens = createTokenStore(
    createMemoryStorage({ accessToken: appToken, refreshToken: 'refresh' }),
  );
  await tokens.load();
  const onSessionExpired = vi.fn();
  const http = createHttpClient({
    fetch: app.fetch,
    getLocale: () => locale,
    tokens,
    onSessionExpired,
    takeEarly: (url, headers) => takeEarlyResponse(url, headers, scope),
  });
  return { page, app, http, scope, tokens, onSessionExpired };
}

describe('start-up GETs sent by index.html before the app loaded (issue 45)', () => {
  it('the app takes their answers instead of asking again, each once (SPEC §1 steps 3 and 5)', async () => {
    const { page, app, http } = await start({
      early: { 'GET /auth/me': () => ok({ id: 'early' }), 'GET /orders': () => ok({ id: 'o' }) },
      later: { 'GET /auth/me': () => ok({ id: 'later' }) },
    });
    expect(page.requests.map((r) => r.path)).toEqual([...EARLY_GETS]);
    expect(await http.get('/auth/me', user)).toEqual({ ok: true, data: { id: 'early' } });
    expect(app.requests).toEqual([]);
    // Taken once: asked again, the app sends its own request.
    expect(await http.get('/auth/me', user)).toEqual({ ok: true, data: { id: 'later' } });
    expect(app.callsTo('GET /auth/me')).toHaveLength(1);
  });

  it("on the purchase screen's path, its own GETs come early too, and the screen takes them", async () => {
    const { page, app, http } = await start({
      path: ROUTES.buyPackage,
      early: {
        [`GET ${PAYMENT_METHODS_PATH}`]: () => ok({ id: 'early' }),
        [`GET ${PACKAGE_REQUESTS_PATH}`]: () => ok({ id: 'early' }),
      },
      later: {},
    });
    expect(page.requests.map((r) => r.path)).toEqual([
      ...EARLY_GETS,
      PAYMENT_METHODS_PATH,
      PACKAGE_REQUESTS_PATH,
    ]);
    expect(await http.get(PAYMENT_METHODS_PATH, user)).toEqual({ ok: true, data: { id: 'early' } });
    expect(await http.get(PACKAGE_REQUESTS_PATH, user)).toEqual({
      ok: true,
      data: { id: 'early' },
    });
    expect(app.requests).toEqual([]);
  });

  it('asks in the language the app restores (SPEC §1 step 2, issue 33 §3), whatever is saved', async () => {
    const combinations: Record<string, string>[] = [
      {},
      { locale: 'en' },
      { accountLocale: 'en' },
      { locale: 'fo', accountLocale: 'en' },
      { locale: 'de', accountLocale: 'en' },
      { locale: 'de' },
    ];
    for (const saved of combinations) {
      const { page } = await start({ early: {}, later: {}, saved });
      const restored = await restoreLocale({
        instance: createI18n('fo'),
        storage: createMemoryStorage(saved),
      });
      expect(page.requests[0]?.headers['accept-language'], JSON.stringify(saved)).toBe(restored);
    }
  });

  it('a request sent otherwise (a query, another token or language, not a GET) is sent as usual', async () => {
    const later = {
      'GET /subscriptions': () => ok({ id: 'later' }),
      'GET /plans': () => ok({ id: 'later' }),
      'GET /orders': () => ok({ id: 'later' }),
      'POST /agreements': () => ok({ id: 'later' }),
    };
    const early = {
      'GET /subscriptions': () => ok({ id: 'early' }),
      'GET /plans': () => ok({ id: 'early' }),
      'GET /orders': () => ok({ id: 'early' }),
      'GET /agreements': () => ok({ id: 'early' }),
    };
    const chosenLine = await start({ early, later });
    expect(
      await chosenLine.http.get('/subscriptions', user, { query: { line: '298123456' } }),
    ).toEqual({ ok: true, data: { id: 'later' } });
    expect(await chosenLine.http.post('/agreements', {}, user)).toEqual({
      ok: true,
      data: { id: 'later' },
    });

    const refreshed = await start({ early, later, appToken: 'newer' });
    expect(await refreshed.http.get('/plans', user)).toEqual({ ok: true, data: { id: 'later' } });

    const english = await start({ early, later, locale: 'en' });
    expect(await english.http.get('/orders', user)).toEqual({ ok: true, data: { id: 'later' } });
    // Sent in the language the app speaks, the answer is taken.
    const both = await start({ early, later, locale: 'en', saved: { locale: 'en' } });
    expect(await both.http.get('/orders', user)).toEqual({ ok: true, data: { id: 'early' } });
  });

  it("an expired token's early 401 goes through the client's refresh and retry (SPEC §8)", async () => {
    const { app, http, tokens, onSessionExpired } = await start({
      early: { 'GET /auth/me': () => fail(401, 'UNAUTHORIZED') },
      later: {
        'GET /auth/me': (r) =>
          r.headers.authorization === 'Bearer fresh' ? ok({ id: 'me' }) : fail(401, 'UNAUTHORIZED'),
        'POST /auth/refresh-token': () =>
          ok({ accessToken: 'fresh', refreshToken: 'fresh-refresh' }),
      },
    });
    expect(await http.get('/auth/me', user)).toEqual({ ok: true, data: { id: 'me' } });
    expect(app.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /auth/me',
      'POST /auth/refresh-token',
      'GET /auth/me',
    ]);
    expect(tokens.getAccessToken()).toBe('fresh');
    expect(onSessionExpired).not.toHaveBeenCalled();
  });

  it('an early request the network failed is sent again by the app', async () => {
    const { app, http } = await start({
      early: { 'GET /packages': () => Promise.reject(new TypeError('Failed to fetch')) },
      later: { 'GET /packages': () => ok({ id: 'p' }) },
    });
    expect(await http.get('/packages', user)).toEqual({ ok: true, data: { id: 'p' } });
    expect(app.callsTo('GET /packages')).toHaveLength(1);
  });

  it('after start-up the early answers are dropped: a later request gets fresh data', async () => {
    const { app, http, scope } = await start({
      early: { 'GET /actions': () => ok({ id: 'from the page load' }) },
      later: { 'GET /actions': () => ok({ id: 'now' }) },
    });
    dropEarlyResponses(scope);
    expect(await http.get('/actions', user)).toEqual({ ok: true, data: { id: 'now' } });
    expect(app.callsTo('GET /actions')).toHaveLength(1);
  });
});
