import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../../db/client';
import { urlWithoutCallbackSecret } from '../../../log-privacy';
import type { Tmf641Client } from './client';
import { deleteHubSubscription, findHubSubscriptions, recordHubSubscription } from './store';

/** The events we ask the OSS for (EventSubscriptionInput.query, TMF630 filtering). */
export const HUB_QUERY =
  'eventType=ServiceOrderStateChangeEvent,ServiceOrderAttributeValueChangeEvent';

export interface HubRegistration {
  hubId: string;
  /** The callback with its secret segment redacted (log-privacy.ts), fit to print and log. */
  callback: string;
  /** False when a registration made earlier (another start, another instance) was kept. */
  registered: boolean;
}

/**
 * Registers our listener with the OSS's hub (`POST /hub`, TMF641 EventSubscription) and keeps
 * the answer in network_hub_subscriptions, so a restart or a second instance does not register
 * again. `force` registers anew (the operator command: the OSS lost it, or the address moved).
 *
 * The callback carries a secret (callback.ts): the table, the logs and the answer hold it
 * redacted (log-privacy.ts `urlWithoutCallbackSecret`) — the same secret gives the same redacted
 * form, so a registration is still found.
 * A new callback (the secret rotated, APP_URL moved) is registered, and the subscriptions of
 * the callbacks before it are removed at the hub (`DELETE /hub/{id}`) and here.
 */
export async function registerHub(deps: {
  client: Tmf641Client;
  db: Db;
  log: FastifyBaseLogger;
  now: () => Date;
  /** TMF641_URL, to tell registrations with different OSSs apart. */
  apiUrl: string;
  callback: string;
  force?: boolean;
}): Promise<HubRegistration> {
  const { db, log, apiUrl } = deps;
  const callback = urlWithoutCallbackSecret(deps.callback);
  const kept = await findHubSubscriptions(db, apiUrl);
  const known = kept.find((row) => row.callback === callback);
  if (known && !deps.force) {
    log.info({ hubId: known.hubId, callback }, 'tmf641: listener already registered with the hub');
    return { hubId: known.hubId, callback, registered: false };
  }
  const { id } = await deps.client.registerListener(deps.callback, HUB_QUERY);
  await recordHubSubscription(db, {
    apiUrl,
    callback,
    hubId: id,
    query: HUB_QUERY,
    createdAt: deps.now(),
  });
  log.info({ hubId: id, callback }, 'tmf641: listener registered with the hub');
  for (const old of kept) {
    if (old.callback === callback) continue;
    try {
      await deps.client.unregisterListener(old.hubId);
      log.info(
        { hubId: old.hubId, callback: old.callback },
        'tmf641: the subscription of an earlier callback removed from the hub',
      );
    } catch (error) {
      // Its events find no listener (404) and are not taken; the OSS's operator can remove it.
      log.warn(
        { err: error, hubId: old.hubId, callback: old.callback },
        'tmf641: could not remove the subscription of an earlier callback from the hub',
      );
    }
    await deleteHubSubscription(db, apiUrl, old.callback);
  }
  return { hubId: id, callback, registered: true };
}

/**
 * {@link registerHub} at start, tried again until it works: the OSS may be down, or — on one
 * machine with the demo's TMF641 server — not listening yet when the app is ready. Waits 1 s,
 * then twice as long each time up to `maxDelayMs`; stops when `signal` aborts (the app closes).
 * Meanwhile unfinished orders are polled every TMF641_POLL_S, so nothing waits forever.
 */
export async function keepRegisteringHub(
  deps: Parameters<typeof registerHub>[0] & { signal: AbortSignal; maxDelayMs?: number },
): Promise<void> {
  let delayMs = 1000;
  const maxDelayMs = deps.maxDelayMs ?? 60_000;
  while (!deps.signal.aborted) {
    try {
      await registerHub(deps);
      return;
    } catch (error) {
      deps.log.warn(
        { err: error, callback: urlWithoutCallbackSecret(deps.callback), inS: delayMs / 1000 },
        'tmf641: could not register the listener with the hub; trying again',
      );
    }
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, delayMs);
      deps.signal.addEventListener(
        'abort',
        () => {
          clearTimeout(timer);
          resolve();
        },
        { once: true },
      );
    });
    delayMs = Math.min(delayMs * 2, maxDelayMs);
  }
}
