import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { HttpClient } from '@/shared/api/http';
import { pollIntervalMs } from '@/shared/config/polling';
import { useAppServices } from '@/shared/services/app-services';
import { supportKeys } from '@/shared/support/support-queries';
import type { SupportHubClient } from './support-hub-client';

/** Loads the SignalR client on demand, so `@microsoft/signalr` is only downloaded here. */
const loadSupportHub = async (http: HttpClient): Promise<SupportHubClient> =>
  (await import('./support-hub')).createSupportHub(
    async () => (await http.freshAccessToken()) ?? '',
  );

/**
 * One connection for all open support screens: the list and a thread opened from it share it,
 * and it stops when the last one closes.
 */
let shared: { client: Promise<SupportHubClient | null>; users: number } | null = null;

function acquireHub(load: () => Promise<SupportHubClient>) {
  if (!shared) {
    const client = load().then(
      (hub) => {
        void hub.connect();
        return hub;
      },
      (error: unknown) => {
        // The chunk did not load (offline, a new deploy): the screens poll instead.
        console.info('Support hub unavailable', error);
        return null;
      },
    );
    shared = { client, users: 0 };
  }
  const lease = shared;
  lease.users += 1;
  let released = false;
  return {
    client: lease.client,
    release() {
      if (released) return;
      released = true;
      lease.users -= 1;
      if (lease.users > 0) return;
      if (shared === lease) shared = null;
      void lease.client.then((hub) => hub?.disconnect());
    },
  };
}

/**
 * Live updates while a support screen is open (issue 46): connects to the support hub and, on
 * `SupportUpdated`, invalidates that conversation's thread and the list (the open ones refetch);
 * after a reconnect, all of them, since updates may have been missed.
 *
 * Answers how often the screen's query should poll instead: never while the hub is connected,
 * every polling interval (60 s, SPEC §4) while it is not (it could not connect, or gave up).
 */
export function useSupportLive(): number | false {
  const { http } = useAppServices();
  const queryClient = useQueryClient();
  const [live, setLive] = useState(false);

  useEffect(() => {
    let active = true;
    const offs: (() => void)[] = [];
    const lease = acquireHub(() => loadSupportHub(http));
    void lease.client.then((hub) => {
      if (!active || !hub) return;
      setLive(hub.live);
      offs.push(
        hub.onStateChange(setLive),
        hub.onUpdate((conversationId) => {
          void queryClient.invalidateQueries({ queryKey: supportKeys.thread(conversationId) });
          void queryClient.invalidateQueries({ queryKey: supportKeys.list });
        }),
        hub.onReconnected(() => void queryClient.invalidateQueries({ queryKey: supportKeys.all })),
      );
    });
    return () => {
      active = false;
      for (const off of offs) off();
      lease.release();
    };
  }, [http, queryClient]);

  return live ? false : pollIntervalMs();
}
