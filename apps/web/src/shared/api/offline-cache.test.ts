import { describe, expect, it } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { User } from '@alda/contract/schemas/auth';
import { ownerData, ownerSubscriptions } from '@/test/account-fixtures';
import { ok } from '@/test/fake-api';
import { demoUser } from '@/test/fixtures';
import { renderApp } from '@/test/render';
import { createSessionStore } from '@/shared/auth/session-store';
import { createMemoryStorage, type KeyValueStorage } from '@/shared/native/preferences';
import { fetchCurrentUser } from '@/shared/auth/current-user';
import { createTokenStore } from '@/shared/auth/token-store';
import { accountKeys } from './account-data';
import { createHttpClient } from './http';
import { createOfflineCache, OFFLINE_CACHE_PREFIX } from './offline-cache';

const otherUser: User = { ...demoUser, id: 'u-2', firstname: 'Sunneva', email: 's@example.fo' };
const TWO_HOURS_AGO = Date.now() - 2 * 60 * 60 * 1000;

/** One device: its storage outlives the app (a reload is a new query client and session). */
function device(storage: KeyValueStorage = createMemoryStorage()) {
  const queryClient = new QueryClient();
  const session = createSessionStore();
  const cache = createOfflineCache({ queryClient, storage, session, delayMs: 0 });
  return { storage, queryClient, session, cache };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 10));

/** A signed-in session on `app` whose answers were fetched at `updatedAt`. */
async function keepDataOf(app: ReturnType<typeof device>, user: User, updatedAt = TWO_HOURS_AGO) {
  const stop = app.cache.start();
  app.session.setUser(user);
  for (const [resource, data] of Object.entries(ownerData))
    app.queryClient.setQueryData(accountKeys.resource(resource as 'orders'), data, { updatedAt });
  // Not kept: a resource home does not need.
  app.queryClient.setQueryData(accountKeys.resource('agreement'), { cardNumber: '4242' });
  await flush();
  stop();
}

/** An access token of `userId` as the API signs it (the app reads `sub`, never the signature). */
const tokenOf = (userId: string) =>
  `h.${btoa(JSON.stringify({ sub: userId, sid: 's', exp: 2_000_000_000 }))}.sig`;

/** Start-up step 3 on `app`'s device, with the server out of reach. */
async function startOffline(app: ReturnType<typeof device>, accessToken: string) {
  await app.storage.set('accessToken', accessToken);
  await app.storage.set('refreshToken', 'r');
  const tokens = createTokenStore(app.storage);
  const http = createHttpClient({
    getLocale: () => 'fo',
    tokens,
    onSessionExpired: () => app.session.signOut('expired'),
    fetch: () => Promise.reject(new TypeError('Failed to fetch')),
  });
  return fetchCurrentUser(http, tokens, (userId) => app.cache.restore(userId));
}

describe('issue 16.4: the query cache is kept per user for offline use', () => {
  it('a start without a connection opens as the token’s own user, with their last known figures', async () => {
    const before = device();
    await keepDataOf(before, demoUser);

    const after = device(before.storage);
    expect(await startOffline(after, tokenOf(demoUser.id))).toEqual(demoUser);
    expect(after.queryClient.getQueryState(accountKeys.resource('subscriptions'))).toMatchObject({
      data: ownerSubscriptions,
      dataUpdatedAt: TWO_HOURS_AGO,
    });

    // Someone else's tokens on the same device: a guest, with nothing of the first user.
    const other = device(before.storage);
    expect(await startOffline(other, tokenOf(otherUser.id))).toBeNull();
    expect(other.queryClient.getQueryData(accountKeys.resource('subscriptions'))).toBeUndefined();
  });

  it('puts back the same user’s figures with the time they were fetched, after a restart', async () => {
    const before = device();
    await keepDataOf(before, demoUser);

    const after = device(before.storage);
    const user = await after.cache.restore(demoUser.id);
    expect(user).toEqual(demoUser);
    expect(after.queryClient.getQueryData(accountKeys.resource('subscriptions'))).toEqual(
      ownerSubscriptions,
    );
    const state = after.queryClient.getQueryState(accountKeys.resource('subscriptions'));
    expect(state?.dataUpdatedAt).toBe(TWO_HOURS_AGO);
    expect(after.queryClient.getQueryData(accountKeys.resource('plans'))).toEqual(ownerData.plans);
    // Only what home needs is kept on the device.
    expect(after.queryClient.getQueryData(accountKeys.resource('agreement'))).toBeUndefined();
    const [key] = await before.storage.keys();
    expect(key).toBe(`${OFFLINE_CACHE_PREFIX}${demoUser.id}`);
    expect(await before.storage.get(key ?? '')).not.toContain('4242');
  });

  it('never shows one user’s figures to another user on the same device', async () => {
    const before = device();
    await keepDataOf(before, demoUser);
    const after = device(before.storage);
    expect(await after.cache.restore(otherUser.id)).toBeNull();
    expect(after.queryClient.getQueryData(accountKeys.resource('subscriptions'))).toBeUndefined();

    // A copy whose content belongs to someone else than its key says is refused as well.
    const raw = await before.storage.get(`${OFFLINE_CACHE_PREFIX}${demoUser.id}`);
    await before.storage.set(`${OFFLINE_CACHE_PREFIX}${otherUser.id}`, raw ?? '');
    expect(await after.cache.restore(otherUser.id)).toBeNull();
    expect(after.queryClient.getQueryData(accountKeys.resource('subscriptions'))).toBeUndefined();
  });

  it('drops a kept answer that no longer fits its schema (an older app’s copy), and keeps the rest', async () => {
    const before = device();
    await keepDataOf(before, demoUser);
    const key = `${OFFLINE_CACHE_PREFIX}${demoUser.id}`;
    const kept = JSON.parse((await before.storage.get(key)) ?? '{}') as {
      queries: { resource: string; data: unknown }[];
    };
    for (const query of kept.queries) if (query.resource === 'plans') query.data = { plans: 'x' };
    await before.storage.set(key, JSON.stringify(kept));

    const after = device(before.storage);
    expect(await after.cache.restore(demoUser.id)).toEqual(demoUser);
    expect(after.queryClient.getQueryData(accountKeys.resource('plans'))).toBeUndefined();
    expect(after.queryClient.getQueryData(accountKeys.resource('subscriptions'))).toEqual(
      ownerSubscriptions,
    );
  });

  it('is wiped at logout: nothing of the user is left on the device (SPEC §4 "Session")', async () => {
    const app = await renderApp({
      user: demoUser,
      data: ownerData,
      api: { 'POST /auth/logout': () => ok(null) },
      initialEntries: ['/min-brukari'],
    });
    app.offlineCache.start();
    // A fresh answer is kept…
    app.queryClient.setQueryData(accountKeys.resource('subscriptions'), ownerSubscriptions);
    await waitFor(async () =>
      expect(await app.storage.get(`${OFFLINE_CACHE_PREFIX}${demoUser.id}`)).not.toBeNull(),
    );
    // …a copy of another user who once used the device too.
    await app.storage.set(`${OFFLINE_CACHE_PREFIX}${otherUser.id}`, '{}');

    await userEvent.click(await screen.findByRole('button', { name: 'Rita út' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Rita út' }));
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/rita-inn'));
    await flush();
    const left = (await app.storage.keys()).filter((key) => key.startsWith(OFFLINE_CACHE_PREFIX));
    expect(left).toEqual([]);
  });

  it('is wiped when the session ends (an unrecoverable 401, SPEC §8)', async () => {
    const app = await renderApp({ user: demoUser, data: ownerData });
    app.offlineCache.start();
    app.queryClient.setQueryData(accountKeys.resource('subscriptions'), ownerSubscriptions);
    const key = `${OFFLINE_CACHE_PREFIX}${demoUser.id}`;
    await waitFor(async () => expect(await app.storage.get(key)).not.toBeNull());
    app.session.signOut('expired');
    await waitFor(async () => expect(await app.storage.get(key)).toBeNull());
  });
});
