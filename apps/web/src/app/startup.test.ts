import { describe, expect, it, vi } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import {
  accountKeys,
  ACCOUNT_RESOURCE_NAMES,
  type AccountLoaders,
  type AccountResource,
} from '@/shared/api/account-data';
import type { Result } from '@/shared/api/http';
import { createSessionStore } from '@/shared/auth/session-store';
import { deferred } from '@/test/fake-api';
import { demoUser, subscriptionsWithPlan } from '@/test/fixtures';
import { startup, type StartupDeps } from './startup';

type Pending = Record<AccountResource, ReturnType<typeof deferred<Result<unknown>>>>;

function controlledLoaders() {
  const pending = Object.fromEntries(
    ACCOUNT_RESOURCE_NAMES.map((r) => [r, deferred<Result<unknown>>()]),
  ) as Pending;
  const started: AccountResource[] = [];
  const loaders = Object.fromEntries(
    ACCOUNT_RESOURCE_NAMES.map((r) => [
      r,
      () => {
        started.push(r);
        return pending[r].promise;
      },
    ]),
  ) as unknown as AccountLoaders;
  return { pending, started, loaders };
}

function deps(overrides: Partial<StartupDeps> = {}) {
  const calls: string[] = [];
  const session = createSessionStore();
  const queryClient = new QueryClient();
  const base: StartupDeps = {
    registerPlugins: vi.fn(() => void calls.push('registerPlugins')),
    restoreLocale: vi.fn(async () => void calls.push('restoreLocale')),
    fetchUser: vi.fn(async () => {
      calls.push('fetchUser');
      return demoUser;
    }),
    session,
    queryClient: async () => queryClient,
    loaders: controlledLoaders().loaders,
    mount: vi.fn(() => void calls.push('mount')),
    hideSplash: vi.fn(async () => void calls.push('hideSplash')),
    ...overrides,
  };
  return { deps: base, calls, session, queryClient };
}

const okAll = (pending: Pending, except: AccountResource[] = []) => {
  for (const resource of ACCOUNT_RESOURCE_NAMES) {
    if (except.includes(resource)) continue;
    pending[resource].resolve({
      ok: true,
      data: resource === 'subscriptions' ? subscriptionsWithPlan : [{ resource }],
    });
  }
};

describe('start-up sequence (SPEC §1)', () => {
  it('runs register plugins → restore locale → fetch user → loads → mount → hide splash, in that order (SPEC §1)', async () => {
    const { pending, loaders } = controlledLoaders();
    const { deps: d, calls } = deps({ loaders });
    const run = startup(d);
    await vi.waitFor(() =>
      expect(calls).toEqual(['registerPlugins', 'restoreLocale', 'fetchUser']),
    );
    okAll(pending);
    await run;
    expect(calls).toEqual(['registerPlugins', 'restoreLocale', 'fetchUser', 'mount', 'hideSplash']);
  });

  it('starts all six loads together, before any of them resolves (SPEC §1 step 5)', async () => {
    const { pending, started, loaders } = controlledLoaders();
    const { deps: d } = deps({ loaders });
    const run = startup(d);
    await vi.waitFor(() => expect(started).toHaveLength(6));
    expect([...started].sort()).toEqual([
      'actions',
      'agreement',
      'orders',
      'packages',
      'plans',
      'subscriptions',
    ]);
    expect(d.mount).not.toHaveBeenCalled();
    okAll(pending);
    await run;
    expect(d.mount).toHaveBeenCalledTimes(1);
  });

  it('skips a failing load silently: its data stays unset while the others are set (SPEC §1)', async () => {
    const { pending, loaders } = controlledLoaders();
    const { deps: d, queryClient } = deps({ loaders });
    const run = startup(d);
    await vi.waitFor(() => expect(pending.orders).toBeDefined());
    pending.orders.resolve({
      ok: false,
      error: { code: 'ROUTE_NOT_FOUND', message: 'Not found', status: 404 },
    });
    pending.plans.reject(new Error('boom'));
    okAll(pending, ['orders', 'plans']);
    const result = await run;
    expect(queryClient.getQueryData(accountKeys.resource('orders'))).toBeUndefined();
    expect(queryClient.getQueryData(accountKeys.resource('plans'))).toBeUndefined();
    expect(queryClient.getQueryData(accountKeys.resource('subscriptions'))).toEqual(
      subscriptionsWithPlan,
    );
    expect(queryClient.getQueryData(accountKeys.resource('actions'))).toEqual([
      { resource: 'actions' },
    ]);
    expect(queryClient.getQueryData(accountKeys.resource('agreement'))).toEqual([
      { resource: 'agreement' },
    ]);
    expect([...result.loaded].sort()).toEqual([
      'actions',
      'agreement',
      'packages',
      'subscriptions',
    ]);
    expect(d.mount).toHaveBeenCalled();
    expect(d.hideSplash).toHaveBeenCalled();
  });

  it('stops after marking the user fetched when there is no user: anonymous visitors get no data (SPEC §1 step 4)', async () => {
    const { started, loaders } = controlledLoaders();
    const queryClient = vi.fn(async () => new QueryClient());
    const { deps: d, session } = deps({
      loaders,
      fetchUser: vi.fn(async () => null),
      queryClient,
    });
    const result = await startup(d);
    expect(started).toEqual([]);
    // Issue 45: a guest's start does not even load the query cache (its chunk).
    expect(queryClient).not.toHaveBeenCalled();
    expect(session.getState()).toEqual({ user: null, userFetched: true });
    expect(result).toEqual({ user: null, loaded: [] });
    // The app is still mounted and the splash hidden, for the login screen.
    expect(d.mount).toHaveBeenCalled();
    expect(d.hideSplash).toHaveBeenCalled();
  });

  it('keeps the fetched user in the session', async () => {
    const { pending, loaders } = controlledLoaders();
    const { deps: d, session } = deps({ loaders });
    const run = startup(d);
    await vi.waitFor(() => expect(session.getState().user).toEqual(demoUser));
    okAll(pending);
    await run;
    expect(session.getState()).toEqual({ user: demoUser, userFetched: true });
  });

  it("shows the signed-in user's language before mounting, meanwhile loading the data (issue 33 §3)", async () => {
    const { pending, loaders } = controlledLoaders();
    const english = { ...demoUser, locale: 'en' as const };
    const { deps: d, calls } = deps({
      loaders,
      fetchUser: vi.fn(async () => english),
      followLocale: vi.fn(async (locale: string) => void calls.push(`follow ${locale}`)),
    });
    const run = startup(d);
    await vi.waitFor(() => expect(calls).toContain('follow en'));
    expect(calls).not.toContain('mount');
    okAll(pending);
    await run;
    expect(calls).toEqual(['registerPlugins', 'restoreLocale', 'follow en', 'mount', 'hideSplash']);
  });

  it('still mounts and hides the splash when a step throws', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { deps: d } = deps({
      restoreLocale: vi.fn(async () => {
        throw new Error('storage broken');
      }),
      fetchUser: vi.fn(async () => {
        throw new Error('offline');
      }),
    });
    await startup(d);
    expect(d.mount).toHaveBeenCalled();
    expect(d.hideSplash).toHaveBeenCalled();
    expect(warn).toHaveBeenCalledTimes(2);
  });
});
