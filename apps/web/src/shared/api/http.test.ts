import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createTokenStore } from '@/shared/auth/token-store';
import { createMemoryStorage } from '@/shared/native/preferences';
import { createFakeApi, deferred, fail, ok, type Handler } from '@/test/fake-api';
import { accessTokenExpiry, AUTH_ENDPOINTS, createHttpClient } from './http';

const item = z.object({ id: z.string() });

async function setup(
  handlers: Record<string, Handler> = {},
  options: {
    signedIn?: boolean;
    refreshToken?: boolean;
    accessToken?: string;
    isOnline?: () => boolean;
    getPlatform?: () => 'ios' | 'android' | 'web';
  } = {},
) {
  const {
    signedIn = true,
    refreshToken = true,
    accessToken = 'old-access',
    isOnline,
    getPlatform,
  } = options;
  const api = createFakeApi(handlers);
  const initial: Record<string, string> = {};
  if (signedIn) initial.accessToken = accessToken;
  if (signedIn && refreshToken) initial.refreshToken = 'old-refresh';
  const storage = createMemoryStorage(initial);
  const tokens = createTokenStore(storage);
  await tokens.load();
  let clock = 10_000;
  let locale = 'fo';
  const onSessionExpired = vi.fn();
  const http = createHttpClient({
    fetch: api.fetch,
    getLocale: () => locale,
    tokens,
    onSessionExpired,
    now: () => clock,
    isOnline,
    getPlatform,
  });
  return {
    api,
    tokens,
    storage,
    http,
    onSessionExpired,
    setLocale: (l: string) => (locale = l),
    advance: (ms: number) => (clock += ms),
  };
}

/** A protected endpoint that accepts only the given access token. */
const protectedBy =
  (token: () => string): Handler =>
  (req) =>
    req.headers.authorization === `Bearer ${token()}` ? ok({ id: 'x' }) : fail(401, 'UNAUTHORIZED');

const refreshOk =
  (pairs: string[] = ['new']): Handler =>
  () => {
    const next = pairs.shift() ?? 'later';
    return ok({ accessToken: `${next}-access`, refreshToken: `${next}-refresh`, expiresIn: 900 });
  };

describe('HTTP client basics (SPEC §7)', () => {
  it('prefixes /api, sends the bearer token and Accept-Language, and unwraps {data} (SPEC §7)', async () => {
    const { http, api } = await setup({ 'GET /things/1': () => ok({ id: '1' }) });
    const result = await http.get('/things/1', item);
    expect(result).toEqual({ ok: true, data: { id: '1' } });
    const [request] = api.requests;
    expect(request?.url).toBe('/api/things/1');
    expect(request?.headers.authorization).toBe('Bearer old-access');
    expect(request?.headers['accept-language']).toBe('fo');
  });

  it('sends the current locale with every request, following a language switch (SPEC §1, §7)', async () => {
    const { http, api, setLocale } = await setup({ 'GET /a': () => ok({ id: 'a' }) });
    await http.get('/a', item);
    setLocale('en');
    await http.get('/a', item);
    expect(api.requests.map((r) => r.headers['accept-language'])).toEqual(['fo', 'en']);
  });

  it('sends no Authorization header for a guest', async () => {
    const { http, api } = await setup({ 'GET /a': () => ok({ id: 'a' }) }, { signedIn: false });
    await http.get('/a', item);
    expect(api.requests[0]?.headers.authorization).toBeUndefined();
  });

  it('posts JSON bodies and adds query parameters', async () => {
    const { http, api } = await setup({
      'POST /things': (req) => ok({ id: String((req.body as { n: number }).n) }),
    });
    const result = await http.post('/things', { n: 7 }, item, {
      query: { page: 0, perPage: 15, skip: undefined },
    });
    expect(result).toEqual({ ok: true, data: { id: '7' } });
    expect(api.requests[0]?.url).toBe('/api/things?page=0&perPage=15');
    expect(api.requests[0]?.headers['content-type']).toBe('application/json');
  });

  it('wraps an error envelope as a result-or-error pair with code, message, field and status (SPEC §8)', async () => {
    const { http } = await setup({
      'POST /things': () =>
        new Response(
          JSON.stringify({ error: { code: 'VALIDATION_FAILED', message: 'Bad', field: 'email' } }),
          {
            status: 400,
          },
        ),
    });
    expect(await http.post('/things', {}, item)).toEqual({
      ok: false,
      error: { code: 'VALIDATION_FAILED', message: 'Bad', field: 'email', status: 400 },
    });
  });

  it('passes on the failed fields of a validation answer and when to try again', async () => {
    const issues = [{ path: 'postCode', key: 'UNKNOWN_POSTCODE', message: 'Unknown' }];
    const { http } = await setup({
      'POST /things': () =>
        new Response(
          JSON.stringify({ error: { code: 'VALIDATION_FAILED', message: 'Bad', issues } }),
          { status: 400 },
        ),
      'POST /later': () =>
        new Response(JSON.stringify({ error: { code: 'RATE_LIMITED', message: 'Wait' } }), {
          status: 429,
          headers: { 'Retry-After': '42' },
        }),
      'POST /soon': () =>
        new Response(
          JSON.stringify({ error: { code: 'PIN_RESEND_TOO_SOON', message: 'x', retryAfter: 17 } }),
          { status: 429 },
        ),
    });
    expect(await http.post('/things', {}, item)).toMatchObject({ ok: false, error: { issues } });
    expect(await http.post('/later', {}, item)).toMatchObject({ error: { retryAfter: 42 } });
    expect(await http.post('/soon', {}, item)).toMatchObject({ error: { retryAfter: 17 } });
  });

  it("reports a network failure as the error code 'NETWORK' (SPEC §8)", async () => {
    const { http } = await setup({
      'GET /a': () => {
        throw new TypeError('Failed to fetch');
      },
    });
    const result = await http.get('/a', item);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error).toMatchObject({ code: 'NETWORK', status: 0 });
  });

  it("parses answers with the caller's schema and reports a mismatch as INVALID_RESPONSE", async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { http } = await setup({ 'GET /a': () => ok({ id: 42 }) });
    const result = await http.get('/a', item);
    expect(!result.ok && result.error.code).toBe('INVALID_RESPONSE');
    expect(warn).toHaveBeenCalled();
  });

  it('takes a schema that is still loading: the request goes out at once, the answer waits for the schema', async () => {
    const { http, api } = await setup({ 'GET /a': () => ok({ id: 'x' }) });
    let resolve: (schema: typeof item) => void = () => {};
    const loading = new Promise<typeof item>((r) => (resolve = r));
    const pending = http.get('/a', loading);
    await vi.waitFor(() => expect(api.callsTo('GET /a')).toHaveLength(1));
    resolve(item);
    expect(await pending).toEqual({ ok: true, data: { id: 'x' } });
  });

  it('answers NETWORK when a schema cannot be loaded, and never throws', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { http } = await setup({
      'GET /a': () => ok({ id: 'x' }),
      'GET /b': () => {
        throw new TypeError('Failed to fetch');
      },
    });
    const chunkFailed = () => Promise.reject<typeof item>(new TypeError('Failed to fetch chunk'));
    expect(await http.get('/a', chunkFailed())).toMatchObject({
      ok: false,
      error: { code: 'NETWORK' },
    });
    // The request failing first leaves the rejected schema handled, not unhandled.
    expect(await http.get('/b', chunkFailed())).toMatchObject({
      ok: false,
      error: { code: 'NETWORK' },
    });
    expect(warn).toHaveBeenCalled();
  });

  it('keeps an error envelope whose issues or retryAfter are malformed, without them', async () => {
    const { http } = await setup({
      'POST /a': () =>
        new Response(
          JSON.stringify({
            error: {
              code: 'VALIDATION_FAILED',
              message: 'Bad',
              issues: [{ path: 1 }],
              retryAfter: -1,
            },
          }),
          { status: 400 },
        ),
      'POST /b': () =>
        new Response(JSON.stringify({ error: { code: '', message: 'x' } }), { status: 400 }),
    });
    const a = await http.post('/a', {}, item);
    expect(a).toEqual({
      ok: false,
      error: { code: 'VALIDATION_FAILED', message: 'Bad', status: 400 },
    });
    expect(await http.post('/b', {}, item)).toMatchObject({
      ok: false,
      error: { code: 'UNKNOWN' },
    });
  });

  it('reports an answer without an envelope as UNKNOWN with its status', async () => {
    const { http } = await setup({ 'GET /a': () => new Response('Bad gateway', { status: 502 }) });
    const result = await http.get('/a', item);
    expect(!result.ok && result.error).toMatchObject({ code: 'UNKNOWN', status: 502 });
  });
});

describe('the platform header (MobilePay app switch)', () => {
  it('names the native shell in X-Alda-Platform on every request, refreshed retries and files too; the web sends none', async () => {
    let platform: 'ios' | 'android' | 'web' = 'ios';
    let token = 'old-access';
    const { http, api } = await setup(
      {
        'GET /a': protectedBy(() => token),
        'DELETE /agreements': () => ok(null),
        'GET /file': () => new Response('pdf'),
        'POST /auth/refresh-token': () => {
          token = 'new-access';
          return ok({ accessToken: 'new-access', refreshToken: 'new-refresh', expiresIn: 900 });
        },
      },
      { getPlatform: () => platform },
    );
    token = 'rotated';
    await http.get('/a', item);
    await http.delete('/agreements', z.null());
    platform = 'android';
    await http.getBlob('/file');
    platform = 'web';
    await http.get('/a', item);
    expect(
      api.requests.map((r) => [`${r.method} ${r.path}`, r.headers['x-alda-platform']]),
    ).toEqual([
      ['GET /a', 'ios'],
      ['POST /auth/refresh-token', 'ios'],
      ['GET /a', 'ios'],
      ['DELETE /agreements', 'ios'],
      ['GET /file', 'android'],
      ['GET /a', undefined],
    ]);
  });

  it('sends none when the client is not told the platform', async () => {
    const { http, api } = await setup({ 'GET /a': () => ok({ id: 'a' }) });
    await http.get('/a', item);
    expect(api.requests[0]?.headers).not.toHaveProperty('x-alda-platform');
  });
});

describe('offline (issue 16 item 4)', () => {
  it('issue 16.4: a write fails at once with OFFLINE while the device is offline, and is never sent', async () => {
    let online = false;
    const saved = () => ok({ id: 'saved' });
    const { http, api } = await setup(
      { 'POST /a': saved, 'PUT /a': saved, 'PATCH /a': saved, 'DELETE /a': saved },
      { isOnline: () => online },
    );
    const offline = { ok: false, error: { code: 'OFFLINE', status: 0 } };
    expect(await http.post('/a', { x: 1 }, item)).toMatchObject(offline);
    expect(await http.put('/a', { x: 1 }, item)).toMatchObject(offline);
    expect(await http.patch('/a', { x: 1 }, item)).toMatchObject(offline);
    expect(await http.delete('/a', item)).toMatchObject(offline);
    expect(api.requests).toEqual([]);

    // Nothing was kept for later: back online, only what is sent now arrives.
    online = true;
    expect(await http.patch('/a', { x: 2 }, item)).toEqual({ ok: true, data: { id: 'saved' } });
    expect(api.requests.map((r) => [r.method, r.body])).toEqual([['PATCH', { x: 2 }]]);
  });

  it('issue 16.4: a read is still sent offline (the browser may know better) and fails as NETWORK', async () => {
    const { http, api } = await setup(
      {
        'GET /a': () => {
          throw new TypeError('Failed to fetch');
        },
      },
      { isOnline: () => false },
    );
    expect(await http.get('/a', item)).toMatchObject({ ok: false, error: { code: 'NETWORK' } });
    expect(api.callsTo('GET /a')).toHaveLength(1);
  });
});

describe('token handling on 401 (SPEC §8)', () => {
  it('refreshes the token once on a 401 for a signed-in user and retries the request (SPEC §8)', async () => {
    const { http, api, tokens, storage } = await setup({
      'GET /me': protectedBy(() => 'new-access'),
      'POST /auth/refresh-token': refreshOk(),
    });
    const result = await http.get('/me', item);
    expect(result).toEqual({ ok: true, data: { id: 'x' } });
    expect(api.callsTo('POST /auth/refresh-token')).toHaveLength(1);
    expect(api.callsTo('POST /auth/refresh-token')[0]?.body).toEqual({
      refreshToken: 'old-refresh',
    });
    expect(api.callsTo('GET /me').map((r) => r.headers.authorization)).toEqual([
      'Bearer old-access',
      'Bearer new-access',
    ]);
    expect(tokens.getAccessToken()).toBe('new-access');
    expect(await storage.get('refreshToken')).toBe('new-refresh');
  });

  it('refreshes only once: a second 401 after the retry is returned, not refreshed again (SPEC §8)', async () => {
    const { http, api, onSessionExpired } = await setup({
      'GET /me': () => fail(401, 'UNAUTHORIZED'),
      'POST /auth/refresh-token': refreshOk(),
    });
    const result = await http.get('/me', item);
    expect(!result.ok && result.error).toMatchObject({ code: 'UNAUTHORIZED', status: 401 });
    expect(api.callsTo('POST /auth/refresh-token')).toHaveLength(1);
    expect(api.callsTo('GET /me')).toHaveLength(2);
    expect(onSessionExpired).not.toHaveBeenCalled();
  });

  it('lets concurrent 401s wait for one refresh and retries them all on success (SPEC §8)', async () => {
    const gate = deferred<void>();
    const { http, api } = await setup({
      'GET /a': protectedBy(() => 'new-access'),
      'GET /b': protectedBy(() => 'new-access'),
      'GET /c': protectedBy(() => 'new-access'),
      'POST /auth/refresh-token': async () => {
        await gate.promise;
        return ok({ accessToken: 'new-access', refreshToken: 'new-refresh', expiresIn: 900 });
      },
    });
    const pending = Promise.all([http.get('/a', item), http.get('/b', item), http.get('/c', item)]);
    await vi.waitFor(() => expect(api.callsTo('POST /auth/refresh-token')).toHaveLength(1));
    gate.resolve();
    const results = await pending;
    expect(results.every((r) => r.ok)).toBe(true);
    expect(api.callsTo('POST /auth/refresh-token')).toHaveLength(1);
    for (const route of ['GET /a', 'GET /b', 'GET /c']) {
      expect(api.callsTo(route).map((r) => r.headers.authorization)).toEqual([
        'Bearer old-access',
        'Bearer new-access',
      ]);
    }
  });

  it('retries without refreshing when another request already refreshed meanwhile (SPEC §8)', async () => {
    const slow = deferred<Response>();
    const { http, api } = await setup({
      'GET /fast': protectedBy(() => 'new-access'),
      'GET /slow': (req) =>
        req.headers.authorization === 'Bearer new-access' ? ok({ id: 'slow' }) : slow.promise,
      'POST /auth/refresh-token': refreshOk(),
    });
    const slowResult = http.get('/slow', item);
    expect((await http.get('/fast', item)).ok).toBe(true);
    slow.resolve(fail(401, 'UNAUTHORIZED'));
    expect(await slowResult).toEqual({ ok: true, data: { id: 'slow' } });
    expect(api.callsTo('POST /auth/refresh-token')).toHaveLength(1);
  });

  it('throttles refresh attempts to one per second (SPEC §8, §9)', async () => {
    let valid = 'old-access';
    const { http, api, advance } = await setup({
      // The server rejects every token it has not just issued, so each new 401 wants a refresh.
      'GET /me': (req) =>
        req.headers.authorization === `Bearer ${valid}`
          ? ok({ id: 'x' })
          : fail(401, 'UNAUTHORIZED'),
      'POST /auth/refresh-token': () => {
        valid = 'never';
        return ok({
          accessToken: `t${api.callsTo('POST /auth/refresh-token').length}`,
          refreshToken: 'r',
          expiresIn: 900,
        });
      },
    });
    valid = 'never';
    await http.get('/me', item); // 401 → refresh #1 → retry 401
    advance(500);
    await http.get('/me', item); // 401 within 1 s of the last attempt → no new refresh
    expect(api.callsTo('POST /auth/refresh-token')).toHaveLength(1);
    advance(600);
    await http.get('/me', item); // 1.1 s later → a new attempt is allowed
    expect(api.callsTo('POST /auth/refresh-token')).toHaveLength(2);
  });

  it('logs out and rejects when there is no refresh token (SPEC §8)', async () => {
    const { http, api, tokens, onSessionExpired } = await setup(
      { 'GET /me': () => fail(401, 'UNAUTHORIZED') },
      { refreshToken: false },
    );
    const result = await http.get('/me', item);
    expect(!result.ok && result.error).toMatchObject({ code: 'UNAUTHORIZED', status: 401 });
    expect(api.callsTo('POST /auth/refresh-token')).toHaveLength(0);
    expect(onSessionExpired).toHaveBeenCalledTimes(1);
    expect(tokens.getAccessToken()).toBeNull();
  });

  it('logs out once, clears the stored tokens and rejects every waiting request when the refresh fails (SPEC §4, §8)', async () => {
    const { http, api, tokens, storage, onSessionExpired } = await setup({
      'GET /a': () => fail(401, 'UNAUTHORIZED'),
      'GET /b': () => fail(401, 'UNAUTHORIZED'),
      'POST /auth/refresh-token': () => fail(401, 'UNAUTHORIZED'),
    });
    const [a, b] = await Promise.all([http.get('/a', item), http.get('/b', item)]);
    expect(a.ok || b.ok).toBe(false);
    expect(!a.ok && a.error.status).toBe(401);
    expect(!b.ok && b.error.status).toBe(401);
    expect(api.callsTo('POST /auth/refresh-token')).toHaveLength(1);
    expect(onSessionExpired).toHaveBeenCalledTimes(1);
    expect(tokens.getAccessToken()).toBeNull();
    expect(await storage.get('accessToken')).toBeNull();
    expect(await storage.get('refreshToken')).toBeNull();
  });

  it('keeps the session when the refresh cannot reach the server, and fails with NETWORK', async () => {
    const { http, tokens, onSessionExpired } = await setup({
      'GET /me': () => fail(401, 'UNAUTHORIZED'),
      'POST /auth/refresh-token': () => {
        throw new TypeError('offline');
      },
    });
    const result = await http.get('/me', item);
    expect(!result.ok && result.error.code).toBe('NETWORK');
    expect(onSessionExpired).not.toHaveBeenCalled();
    expect(tokens.getRefreshToken()).toBe('old-refresh');
  });

  it.each(AUTH_ENDPOINTS)(
    'does not refresh on a 401 from the auth endpoint %s (SPEC §8)',
    async (endpoint) => {
      const { http, api, onSessionExpired } = await setup({
        'POST /auth/refresh-token': refreshOk(),
        [`POST ${endpoint}`]: () =>
          fail(401, 'INVALID_CREDENTIALS', 'Incorrect email or password.'),
      });
      const result = await http.post(endpoint, {}, item);
      expect(!result.ok && result.error).toMatchObject({
        code: 'INVALID_CREDENTIALS',
        status: 401,
      });
      // Only the request itself went out: no refresh, no retry.
      expect(api.requests).toHaveLength(1);
      expect(onSessionExpired).not.toHaveBeenCalled();
    },
  );

  it('does not refresh for a guest: a 401 is just an answer (SPEC §8 "signed-in user")', async () => {
    const { http, api, onSessionExpired } = await setup(
      { 'GET /me': () => fail(401, 'UNAUTHORIZED'), 'POST /auth/refresh-token': refreshOk() },
      { signedIn: false },
    );
    const result = await http.get('/me', item);
    expect(!result.ok && result.error.status).toBe(401);
    expect(api.callsTo('POST /auth/refresh-token')).toHaveLength(0);
    expect(onSessionExpired).not.toHaveBeenCalled();
  });

  it('skips the refresh when the caller asks (logout)', async () => {
    const { http, api } = await setup({
      'POST /auth/logout': () => fail(401, 'UNAUTHORIZED'),
      'POST /auth/refresh-token': refreshOk(),
    });
    await http.post('/auth/logout', { refreshToken: 'old-refresh' }, z.unknown(), {
      skipAuthRefresh: true,
    });
    expect(api.callsTo('POST /auth/refresh-token')).toHaveLength(0);
  });
});

describe('getIfChanged (SPEC §4 cheap polling)', () => {
  it('sends If-None-Match, answers 304 as unchanged and returns the new ETag otherwise', async () => {
    let etag = '"v1"';
    const { api, http } = await setup({
      'GET /poll': (req) => {
        if (req.headers['if-none-match'] === etag) return new Response(null, { status: 304 });
        const response = ok({ id: etag });
        response.headers.set('ETag', etag);
        return response;
      },
    });
    const first = await http.getIfChanged('/poll', item, null);
    expect(first).toEqual({
      ok: true,
      data: { changed: true, data: { id: '"v1"' }, etag: '"v1"' },
    });
    expect(api.requests[0]?.headers['if-none-match']).toBeUndefined();
    expect(await http.getIfChanged('/poll', item, '"v1"')).toEqual({
      ok: true,
      data: { changed: false },
    });
    etag = '"v2"';
    const third = await http.getIfChanged('/poll', item, '"v1"');
    expect(third.ok && third.data.changed && third.data.etag).toBe('"v2"');
  });

  it('refreshes an expired token and retries with the same If-None-Match', async () => {
    let access = 'old-access';
    const { api, http } = await setup({
      'GET /poll': (req) =>
        req.headers.authorization === `Bearer ${access}`
          ? new Response(null, { status: 304 })
          : fail(401, 'UNAUTHORIZED'),
      'POST /auth/refresh-token': () => ok({ accessToken: 'new-access', refreshToken: 'r2' }),
    });
    access = 'new-access';
    expect(await http.getIfChanged('/poll', item, '"v1"')).toEqual({
      ok: true,
      data: { changed: false },
    });
    expect(api.callsTo('GET /poll').map((r) => r.headers['if-none-match'])).toEqual([
      '"v1"',
      '"v1"',
    ]);
  });
});

describe('getBlob (a receipt PDF, SPEC §1 "download receipts")', () => {
  it('answers the body as a Blob, refreshing an expired token once like every call (SPEC §8)', async () => {
    let access = 'old-access';
    const { api, http } = await setup({
      'GET /files/1': (req) =>
        req.headers.authorization === `Bearer ${access}`
          ? new Response('%PDF-1.7', { headers: { 'Content-Type': 'application/pdf' } })
          : fail(401, 'UNAUTHORIZED'),
      'POST /auth/refresh-token': () => ok({ accessToken: 'new-access', refreshToken: 'r2' }),
    });
    access = 'new-access';
    const result = await http.getBlob('/files/1', { headers: { Accept: 'application/pdf' } });
    expect(result.ok && (await result.data.text())).toBe('%PDF-1.7');
    expect(api.callsTo('GET /files/1').map((r) => r.headers.accept)).toEqual([
      'application/pdf',
      'application/pdf',
    ]);
  });

  it('answers an error body as the usual error', async () => {
    const { http } = await setup({ 'GET /files/2': () => fail(404, 'NOT_FOUND', 'No such') });
    expect(await http.getBlob('/files/2')).toEqual({
      ok: false,
      error: { code: 'NOT_FOUND', message: 'No such', status: 404 },
    });
  });
});

describe('a Blob body (a photo sent to support, issue 46)', () => {
  it('is sent as it is, with its own type, the token and the language', async () => {
    const tokens = createTokenStore(createMemoryStorage({ accessToken: 'a-1' }));
    await tokens.load();
    const sent: RequestInit[] = [];
    const http = createHttpClient({
      fetch: async (_url, init = {}) => {
        sent.push(init);
        return ok({ id: 'p-1' });
      },
      getLocale: () => 'en',
      tokens,
      onSessionExpired: () => {},
    });
    const photo = new Blob([new Uint8Array([0xff, 0xd8, 0xff])], { type: 'image/jpeg' });
    expect(await http.post('/photos', photo, item)).toEqual({ ok: true, data: { id: 'p-1' } });
    expect(sent[0]?.body).toBe(photo);
    expect(new Headers(sent[0]?.headers).get('content-type')).toBe('image/jpeg');
    expect(new Headers(sent[0]?.headers).get('authorization')).toBe('Bearer a-1');
    expect(new Headers(sent[0]?.headers).get('accept-language')).toBe('en');
  });
});

/** A JWT-shaped access token expiring at `expMs` (the signature is the server's business). */
const jwtExpiringAt = (expMs: number) =>
  `eyJhbGciOiJIUzI1NiJ9.${btoa(JSON.stringify({ sub: 'u', exp: expMs / 1000 })).replace(/=+$/, '')}.sig`;

describe('freshAccessToken (the payment hub reconnects with it, ADR 0051)', () => {
  it('reads the expiry of a JWT access token, and null for anything else', () => {
    expect(accessTokenExpiry(jwtExpiringAt(1_800_000_000_000))).toBe(1_800_000_000_000);
    expect(accessTokenExpiry('old-access')).toBeNull();
    expect(accessTokenExpiry('a.%%%.c')).toBeNull();
  });

  it('answers a token that is still good without asking the server', async () => {
    // setup's clock stands at 10 s; this token is good for another 10 minutes.
    const token = jwtExpiringAt(10_000 + 600_000);
    const { http, api } = await setup({}, { accessToken: token });
    expect(await http.freshAccessToken()).toBe(token);
    expect(api.callsTo('POST /auth/refresh-token')).toHaveLength(0);
  });

  it('refreshes a token that has expired (or expires within 30 s) and answers the new one, once for simultaneous callers', async () => {
    const { http, api, tokens } = await setup(
      { 'POST /auth/refresh-token': refreshOk() },
      { accessToken: jwtExpiringAt(10_000 + 20_000) },
    );
    const answers = await Promise.all([http.freshAccessToken(), http.freshAccessToken()]);
    expect(answers).toEqual(['new-access', 'new-access']);
    expect(api.callsTo('POST /auth/refresh-token')).toHaveLength(1);
    expect(tokens.getAccessToken()).toBe('new-access');
  });

  it('answers null when signed out, and the old token when the refresh cannot reach the server', async () => {
    const guest = await setup({}, { signedIn: false });
    expect(await guest.http.freshAccessToken()).toBeNull();
    const expired = jwtExpiringAt(5_000);
    const offline = await setup(
      { 'POST /auth/refresh-token': () => Promise.reject(new TypeError('Failed to fetch')) },
      { accessToken: expired },
    );
    expect(await offline.http.freshAccessToken()).toBe(expired);
    expect(offline.onSessionExpired).not.toHaveBeenCalled();
  });
});
