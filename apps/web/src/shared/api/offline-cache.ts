import type { QueryClient } from '@tanstack/react-query';
import type { User } from '@alda/contract/schemas/auth';
import type { SessionStore } from '@/shared/auth/session-store';
import type { KeyValueStorage } from '@/shared/native/preferences';
import { ACCOUNT_RESOURCES, accountKeys, type AccountResource } from './account-data';
import type { ResponseSchema } from './http';

/**
 * What home needs to show the last known data use while the server cannot be reached (issue 16
 * item 4): the subscription state with its data figures, the orders (the processing notice, the
 * welcome guard) and the plans (the plan's name). Nothing else is kept: no tokens, no cards, no
 * notifications.
 */
export const KEPT_RESOURCES = [
  'subscriptions',
  'orders',
  'plans',
] as const satisfies readonly AccountResource[];

/** Each user's last known data is kept on the device under this prefix and the user's id. */
export const OFFLINE_CACHE_PREFIX = 'lastKnown.';
const keyOf = (userId: string) => `${OFFLINE_CACHE_PREFIX}${userId}`;

/** The shape kept; a newer app that changes it counts up and ignores older copies. */
const VERSION = 1;

interface Kept {
  v: typeof VERSION;
  user: User;
  queries: { resource: AccountResource; data: unknown; updatedAt: number }[];
}

export interface OfflineCache {
  /**
   * Puts what this device last knew of `userId` back into the query cache, with the time each
   * answer was fetched, and returns that user as they were; null when nothing usable is kept for
   * exactly this user. Every answer is checked with its contract schema first.
   */
  restore(userId: string): Promise<User | null>;
  /** Keeps the signed-in user's answers on the device whenever one of them changes. */
  start(): () => void;
  /** Forgets every user's kept answers on this device (logout, an ended session). */
  wipe(): Promise<void>;
}

export interface OfflineCacheDeps {
  queryClient: QueryClient;
  storage: KeyValueStorage;
  session: Pick<SessionStore, 'getState' | 'subscribe'>;
  /** How long changes are gathered before they are written (the six start-up loads → one write). */
  delayMs?: number;
  /** The user's schema (the same chunk as GET /auth/me's). */
  userSchema?: () => Promise<ResponseSchema<User>>;
}

const isKept = (key: readonly unknown[]): boolean =>
  key.length === 2 &&
  key[0] === accountKeys.all[0] &&
  (KEPT_RESOURCES as readonly unknown[]).includes(key[1]);

/**
 * The query cache kept per user on the device (issue 16 item 4, ADR 0069): written a moment
 * after the kept answers change, read back at start when the server cannot be reached, wiped at
 * every sign-out. Small on purpose: three answers of one user, their fetch times and who the user
 * is, in the device's preferences (localStorage on the web).
 */
export function createOfflineCache({
  queryClient,
  storage,
  session,
  delayMs = 500,
  userSchema = () => import('@alda/contract/schemas/auth').then((m) => m.user),
}: OfflineCacheDeps): OfflineCache {
  let timer: ReturnType<typeof setTimeout> | null = null;
  // Writes and the wipe run one after another, so a write begun before a logout cannot land
  // after the wipe.
  let queue: Promise<unknown> = Promise.resolve();
  const enqueue = (work: () => Promise<unknown>) => {
    queue = queue.then(work).catch((error: unknown) => {
      console.warn('Could not keep the last known data on the device', error);
    });
    return queue;
  };

  const write = () => {
    timer = null;
    const { user } = session.getState();
    if (!user) return;
    const queries = KEPT_RESOURCES.flatMap((resource) => {
      const state = queryClient.getQueryState(accountKeys.resource(resource));
      return state?.data === undefined
        ? []
        : [{ resource, data: state.data, updatedAt: state.dataUpdatedAt }];
    });
    if (queries.length === 0) return;
    const kept: Kept = { v: VERSION, user, queries };
    void enqueue(() => storage.set(keyOf(user.id), JSON.stringify(kept)));
  };
  const schedule = () => {
    if (timer === null) timer = setTimeout(write, delayMs);
  };
  const cancel = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
  };

  return {
    async restore(userId) {
      const raw = await storage.get(keyOf(userId)).catch(() => null);
      if (!raw) return null;
      let kept: Kept;
      try {
        kept = JSON.parse(raw) as Kept;
      } catch {
        return null;
      }
      if (kept?.v !== VERSION || !Array.isArray(kept.queries)) return null;
      const user = (await userSchema()).safeParse(kept.user);
      // Only ever this user's own data, whatever the key says.
      if (!user.success || user.data.id !== userId) return null;
      await Promise.all(
        kept.queries.map(async ({ resource, data, updatedAt }) => {
          if (!(KEPT_RESOURCES as readonly string[]).includes(resource)) return;
          const parsed = (await ACCOUNT_RESOURCES[resource].schema()).safeParse(data);
          if (!parsed.success || typeof updatedAt !== 'number') return;
          queryClient.setQueryData(accountKeys.resource(resource), parsed.data, { updatedAt });
        }),
      );
      return user.data;
    },
    start() {
      const stopQueries = queryClient.getQueryCache().subscribe((event) => {
        if (
          event.type === 'updated' &&
          event.action.type === 'success' &&
          isKept(event.query.queryKey)
        )
          schedule();
      });
      // The answers of a sign-in arrive before the session names the user.
      const stopSession = session.subscribe(() => {
        if (session.getState().user) schedule();
      });
      return () => {
        cancel();
        stopQueries();
        stopSession();
      };
    },
    wipe() {
      cancel();
      return enqueue(async () => {
        const keys = await storage.keys();
        await Promise.all(
          keys
            .filter((key) => key.startsWith(OFFLINE_CACHE_PREFIX))
            .map((key) => storage.remove(key)),
        );
      }).then(() => undefined);
    },
  };
}
