import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { createChosenLine } from '@/shared/account/chosen-line';
import { httpAccountLoaders } from '@/shared/api/account-data';
import { createHttpClient } from '@/shared/api/http';
import { createSessionStore } from '@/shared/auth/session-store';
import { createTokenStore } from '@/shared/auth/token-store';
import { createMemoryStorage } from '@/shared/native/preferences';
import { createFakeApi, ok } from '@/test/fake-api';
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
      queryClient: new QueryClient(),
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
