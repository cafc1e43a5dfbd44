import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { createChosenLine } from '@/shared/account/chosen-line';
import { httpAccountLoaders } from '@/shared/api/account-data';
import { createHttpClient } from '@/shared/api/http';
import { createSessionStore } from '@/shared/auth/session-store';
import { createTokenStore } from '@/shared/auth/token-store';
import { createMemoryStorage } from '@/shared/native/preferences';
import { createFakeApi, ok } from '@/test/fake-api';
import { demoUser } from '@/test/fixtures';
import { createAppServices } from './services';

describe('logout (SPEC §4 "Session")', () => {
  it('revokes the refresh token and forgets the tokens and the line chosen on this device', async () => {
    const api = createFakeApi({ 'POST /auth/logout': () => ok({ ok: true }) });
    const storage = createMemoryStorage({ accessToken: 'a', refreshToken: 'r' });
    const tokens = createTokenStore(storage);
    await tokens.load();
    const http = createHttpClient({
      fetch: api.fetch,
      getLocale: () => 'fo',
      tokens,
      onSessionExpired: () => {},
    });
    const lineStorage = createMemoryStorage({ 'alda.chosenLine': '214466' });
    const chosenLine = createChosenLine(lineStorage);
    const services = createAppServices({
      http,
      session: createSessionStore(),
      tokens,
      queryClient: async () => new QueryClient(),
      loaders: httpAccountLoaders(http),
      chosenLine,
    });

    await services.signOut();

    expect(api.callsTo('POST /auth/logout')[0]?.body).toEqual({ refreshToken: 'r' });
    expect(tokens.getAccessToken()).toBeNull();
    expect(await storage.get('refreshToken')).toBeNull();
    expect(await chosenLine.get()).toBeNull();
  });
});

describe('sign-in (issue 33 §3: the language follows the customer)', () => {
  it("shows the account's language before the session flips to the next screen", async () => {
    const api = createFakeApi({ 'GET /auth/me': () => ok({ ...demoUser, locale: 'en' }) });
    const tokens = createTokenStore(createMemoryStorage());
    const http = createHttpClient({
      fetch: api.fetch,
      getLocale: () => 'fo',
      tokens,
      onSessionExpired: () => {},
    });
    const session = createSessionStore();
    const seen: string[] = [];
    const followLocale = vi.fn(async (locale: string) => {
      // Still a guest while the language switches: the next screen opens in it.
      seen.push(`${locale} ${session.getState().user ? 'signed in' : 'guest'}`);
    });
    const services = createAppServices({
      http,
      session,
      tokens,
      queryClient: async () => new QueryClient(),
      loaders: httpAccountLoaders(http),
      followLocale,
    });

    const me = await services.signIn({ accessToken: 'a', refreshToken: 'r' });

    expect(me.ok).toBe(true);
    expect(seen).toEqual(['en guest']);
    expect(session.getState().user?.locale).toBe('en');
  });
});
