import {
  SUPPORT_HUB_PATH,
  SUPPORT_UPDATED_TARGET,
  type SupportUpdated,
} from '@alda/contract/schemas/support';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/client';
import type { AuthUser } from '../plugins/auth';
import { parseSupportUpdatedNotice, SUPPORT_UPDATED_CHANNEL } from '../modules/support/events';
import { DEFAULT_PAYMENT_HUB_OPTIONS } from './payment-hub';
import { registerHubServer, type HubConnection, type HubOptions } from './hub-server';

/*
 * The support hub (issue 46 "New answers arrive live while the thread is open"): the same
 * SignalR server, authentication and reconnection as the payment hub, at SUPPORT_HUB_PATH. It has
 * no methods: a connected customer hears `SupportUpdated { conversationId }` whenever one of
 * their conversations changes on any instance (NOTIFY on SUPPORT_UPDATED_CHANNEL, sent in the
 * transaction of the change), and refetches the thread. Nothing of the conversation travels on
 * the hub, so nothing can leak through it that the REST routes would not answer.
 */

export interface SupportHubDeps {
  database: Database;
  authenticate(accessToken: string): Promise<AuthUser | null>;
  tokenKey: Uint8Array;
  now?: () => Date;
  options?: Partial<HubOptions> | undefined;
}

export interface SupportHub {
  readonly connections: number;
}

declare module 'fastify' {
  interface FastifyInstance {
    supportHub: SupportHub;
  }
}

export async function registerSupportHub(
  app: FastifyInstance,
  deps: SupportHubDeps,
): Promise<SupportHub> {
  const { database } = deps;
  const log = app.log.child({ hub: 'support' });
  /** userId → that customer's live connections on this instance. */
  const byUser = new Map<string, Set<HubConnection>>();

  const server = await registerHubServer(app, {
    path: SUPPORT_HUB_PATH,
    name: 'support',
    database,
    options: { ...DEFAULT_PAYMENT_HUB_OPTIONS, ...deps.options },
    authenticate: deps.authenticate,
    tokenKey: deps.tokenKey,
    ...(deps.now ? { now: deps.now } : {}),
    hub: {
      methods: {},
      onConnected(connection) {
        let set = byUser.get(connection.userId);
        if (!set) {
          set = new Set();
          byUser.set(connection.userId, set);
        }
        set.add(connection);
      },
      onDisconnected(connection) {
        const set = byUser.get(connection.userId);
        set?.delete(connection);
        if (set?.size === 0) byUser.delete(connection.userId);
      },
    },
  });

  let stopListening: (() => Promise<void>) | undefined;
  app.addHook('onReady', async () => {
    stopListening = await database.listen(SUPPORT_UPDATED_CHANNEL, (payload) => {
      const notice = parseSupportUpdatedNotice(payload);
      if (!notice) {
        log.warn('malformed support notice ignored');
        return;
      }
      const event: SupportUpdated = { conversationId: notice.conversationId };
      for (const connection of byUser.get(notice.userId) ?? []) {
        connection.send(SUPPORT_UPDATED_TARGET, [event]);
      }
    });
  });
  app.addHook('preClose', async () => {
    await stopListening?.();
    stopListening = undefined;
  });

  const hub: SupportHub = {
    get connections() {
      return server.size;
    },
  };
  app.decorate('supportHub', hub);
  return hub;
}
