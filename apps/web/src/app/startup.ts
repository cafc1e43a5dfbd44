import type { QueryClient } from '@tanstack/react-query';
import type { User } from '@alda/contract/schemas/auth';
import {
  loadAccountData,
  type AccountLoaders,
  type AccountResource,
} from '@/shared/api/account-data';
import type { SessionStore } from '@/shared/auth/session-store';

export interface StartupDeps {
  /** 1. Register plugins (error reporting, …). */
  registerPlugins: () => void | Promise<void>;
  /** 2. Restore the saved locale. */
  restoreLocale: () => Promise<unknown>;
  /** 3. Fetch the user; null for a guest. */
  fetchUser: () => Promise<User | null>;
  /** 3b. Show the user's language where the device has none of its own (issue 33 §3). */
  followLocale?: (locale: User['locale']) => Promise<unknown>;
  session: Pick<SessionStore, 'setUser' | 'markUserFetched'>;
  /** 5. Where the account data goes (loaded on demand), and how each of the six resources is loaded. */
  queryClient: () => Promise<QueryClient>;
  loaders: AccountLoaders;
  /** 6. Mount the app … */
  mount: () => void;
  /** … and hide the splash screen. */
  hideSplash: () => Promise<void>;
}

export interface StartupResult {
  user: User | null;
  /** The account resources that loaded (failed ones are skipped silently and stay unset). */
  loaded: AccountResource[];
}

async function step<T>(name: string, run: () => T | Promise<T>, fallback: T): Promise<T> {
  try {
    return await run();
  } catch (error) {
    // A broken step must not keep the app from mounting; the app copes with its absence.
    console.warn(`Start-up step "${name}" failed`, error);
    return fallback;
  }
}

/**
 * The start-up sequence of SPEC §1, in order:
 * 1. register plugins; 2. restore the saved locale; 3. fetch the user;
 * 4. no user → mark the user as fetched and load nothing more (anonymous visitors get no data);
 * 5. otherwise load actions, packages, subscriptions, plans, orders and agreement in parallel
 *    into the query cache, skipping failures silently — and meanwhile show the user's language
 *    where this device has none of its own (issue 33 §3);
 * 6. mount the app and hide the splash screen.
 */
export async function startup(deps: StartupDeps): Promise<StartupResult> {
  await step('register plugins', deps.registerPlugins, undefined);
  await step('restore locale', deps.restoreLocale, undefined);
  const user = await step('fetch user', deps.fetchUser, null);

  let loaded: AccountResource[] = [];
  if (!user) {
    deps.session.markUserFetched();
  } else {
    deps.session.setUser(user);
    const { followLocale } = deps;
    [loaded] = await Promise.all([
      step(
        'load account data',
        async () => loadAccountData(await deps.queryClient(), deps.loaders),
        [],
      ),
      followLocale ? step('follow the account language', () => followLocale(user.locale), 0) : 0,
    ]);
  }

  deps.mount();
  await step('hide splash', deps.hideSplash, undefined);
  return { user, loaded };
}
