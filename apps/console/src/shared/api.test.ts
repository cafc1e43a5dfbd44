import { describe, expect, it } from 'vitest';
import { createApi, ApiError } from './api';
import { IDLE_AFTER_MS, setLastActivity } from './activity';
import { createSessionStore, SESSION_KEY } from './session';
import { aSession, fakeFetch, memoryStorage, type Handler } from '@/test/render';

function setUp(handler: Handler, { signedIn = true } = {}) {
  const session = aSession('support');
  const storage = memoryStorage(signedIn ? { [SESSION_KEY]: JSON.stringify(session) } : {});
  const store = createSessionStore(storage);
  const { fetch, calls } = fakeFetch(handler);
  const api = createApi({ session: store, locale: () => 'en', fetch });
  return { api, store, storage, calls, session };
}

const failure = (status: number, code: string, message = `${code} message`) => ({
  status,
  body: { error: { code, message } },
});

describe('the console API client (shared/api.ts)', () => {
  it('sends the staff token and the language, and answers the data of the envelope', async () => {
    const { api, calls, session } = setUp(() => ({
      status: 200,
      body: { data: { items: [1, 2] } },
    }));
    await expect(
      api.get('/api/staff/audit', { query: { limit: 2, actor: undefined } }),
    ).resolves.toEqual({
      items: [1, 2],
    });
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ method: 'GET', path: '/api/staff/audit?limit=2' });
    expect(calls[0]?.headers.authorization).toBe(`Bearer ${session.token}`);
    expect(calls[0]?.headers['accept-language']).toBe('en');
  });

  it('sends no Authorization header when signed out', async () => {
    const { api, calls } = setUp(() => ({ status: 200, body: { data: null } }), {
      signedIn: false,
    });
    await api.post('/api/staff/auth/sign-in', { email: 'a@alda.fo' });
    expect(calls[0]?.headers.authorization).toBeUndefined();
    expect(calls[0]?.headers['content-type']).toBe('application/json');
    expect(calls[0]?.body).toEqual({ email: 'a@alda.fo' });
  });

  it('answers undefined for 204', async () => {
    const { api } = setUp(() => ({ status: 204 }));
    await expect(api.post('/api/staff/auth/sign-out')).resolves.toBeUndefined();
  });

  it('throws an ApiError with the code, status and the server message of the error envelope', async () => {
    const { api, store } = setUp(() =>
      failure(403, 'FORBIDDEN', 'You do not have access to this.'),
    );
    const error = await api.get('/api/staff/accounts').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      code: 'FORBIDDEN',
      status: 403,
      message: 'You do not have access to this.',
    });
    // A refusal is not a sign-out.
    expect(store.get()).not.toBeNull();
  });

  it.each(['STAFF_SESSION_EXPIRED', 'UNAUTHORIZED'])(
    'a 401 %s clears the session (memory and sessionStorage) and says why',
    async (code) => {
      const { api, store, storage } = setUp(() => failure(401, code));
      expect(storage.map.has(SESSION_KEY)).toBe(true);
      await expect(api.get('/api/staff/auth/me')).rejects.toMatchObject({ code, status: 401 });
      expect(store.get()).toBeNull();
      expect(store.token()).toBeNull();
      expect(storage.map.has(SESSION_KEY)).toBe(false);
      expect(store.notice()).toBe('expired');
    },
  );

  it('keeps the session on a failed sign-in (401 STAFF_SIGN_IN_FAILED) and on other statuses', async () => {
    const { api, store } = setUp(() => failure(401, 'STAFF_SIGN_IN_FAILED'));
    await expect(api.get('/api/staff/x')).rejects.toMatchObject({ code: 'STAFF_SIGN_IN_FAILED' });
    expect(store.get()).not.toBeNull();
    const other = setUp(() => failure(500, 'INTERNAL'));
    await expect(other.api.get('/api/staff/x')).rejects.toMatchObject({ code: 'INTERNAL' });
    expect(other.store.get()).not.toBeNull();
  });

  it('moves the idle expiry after a successful call (the server restarted its idle clock)', async () => {
    const { api, store, session } = setUp(() => ({ status: 200, body: { data: {} } }));
    store.refresh({
      staff: session.staff,
      expiresAt: session.expiresAt,
      idleExpiresAt: new Date(Date.now() + 60_000).toISOString(),
    });
    await api.get('/api/staff/orders');
    const idle = Date.parse(store.get()!.idleExpiresAt);
    expect(idle).toBeGreaterThan(Date.now() + 14 * 60_000);
  });

  it('turns a failed connection into NETWORK and a body without the envelope into INVALID_RESPONSE', async () => {
    const offline = createApi({
      session: createSessionStore(memoryStorage()),
      locale: () => 'fo',
      fetch: () => Promise.reject(new TypeError('Failed to fetch')),
    });
    await expect(offline.get('/api/staff/auth/me')).rejects.toMatchObject({
      code: 'NETWORK',
      status: 0,
    });
    const { api } = setUp(() => ({ status: 502, body: 'Bad gateway' }));
    await expect(api.get('/api/staff/x')).rejects.toMatchObject({
      code: 'INVALID_RESPONSE',
      status: 502,
    });
  });

  it('answers a GET from its last answer when the server says 304 Not Modified (ETag)', async () => {
    let version = 'v1';
    const { api, calls } = setUp((call) =>
      call.headers['if-none-match'] === `"${version}"`
        ? { status: 304 }
        : { status: 200, body: { data: { version } }, headers: { etag: `"${version}"` } },
    );
    await expect(api.get('/api/staff/orders')).resolves.toEqual({ version: 'v1' });
    await expect(api.get('/api/staff/orders')).resolves.toEqual({ version: 'v1' });
    expect(calls[1]?.headers['if-none-match']).toBe('"v1"');
    version = 'v2';
    await expect(api.get('/api/staff/orders')).resolves.toEqual({ version: 'v2' });
  });

  it('sends its own refreshes as background while nobody is at the desk, so they keep no session alive', async () => {
    const { api, calls } = setUp(() => ({ status: 200, body: { data: null } }));
    setLastActivity(Date.now());
    await api.get('/api/staff/orders');
    expect(calls[0]?.headers['x-staff-background']).toBeUndefined();
    setLastActivity(Date.now() - IDLE_AFTER_MS - 1);
    await api.get('/api/staff/orders');
    expect(calls[1]?.headers['x-staff-background']).toBe('1');
    // A change is always the staff member's own doing.
    await api.post('/api/staff/orders/x/retry', { reason: 'r' });
    expect(calls[2]?.headers['x-staff-background']).toBeUndefined();
    setLastActivity(Date.now());
  });
});
