import { describe, expect, it } from 'vitest';
import { createChosenLine } from '@/shared/account/chosen-line';
import { createTokenStore } from '@/shared/auth/token-store';
import { createMemoryStorage } from '@/shared/native/preferences';
import { ownerSubscriptions } from '@/test/account-fixtures';
import { createFakeApi, fail, ok, type Handler } from '@/test/fake-api';
import { httpAccountLoaders } from './account-data';
import { createHttpClient } from './http';

async function setup(handler: Handler, stored: Record<string, string> = {}) {
  const api = createFakeApi({ 'GET /subscriptions': handler });
  const tokens = createTokenStore(createMemoryStorage({ accessToken: 'a', refreshToken: 'r' }));
  await tokens.load();
  const http = createHttpClient({
    fetch: api.fetch,
    getLocale: () => 'fo',
    tokens,
    onSessionExpired: () => {},
  });
  const chosen = createChosenLine(createMemoryStorage(stored));
  return { api, loaders: httpAccountLoaders(http, () => chosen.get()) };
}

describe('start-up subscriptions load (SPEC §1 step 5) opens the line chosen on this device', () => {
  it('asks for the remembered number', async () => {
    const { api, loaders } = await setup(() => ok(ownerSubscriptions), {
      'alda.chosenLine': '557812',
    });
    const result = await loaders.subscriptions();
    expect(result.ok).toBe(true);
    expect(api.callsTo('GET /subscriptions')[0]?.url).toContain('line=557812');
  });

  it('without a remembered number, asks for the default line', async () => {
    const { api, loaders } = await setup(() => ok(ownerSubscriptions));
    await loaders.subscriptions();
    expect(api.callsTo('GET /subscriptions')).toHaveLength(1);
    expect(api.callsTo('GET /subscriptions')[0]?.url).not.toContain('line=');
  });

  it('a remembered number that is no longer the customer’s falls back to the default line', async () => {
    const { api, loaders } = await setup(
      (request) =>
        request.url.includes('line=') ? fail(404, 'NUMBER_NOT_FOUND') : ok(ownerSubscriptions),
      { 'alda.chosenLine': '999999' },
    );
    const result = await loaders.subscriptions();
    expect(result.ok && result.data.currentAccount?.currentMember.phoneNumber).toBe('214455');
    expect(api.callsTo('GET /subscriptions')).toHaveLength(2);
  });
});
