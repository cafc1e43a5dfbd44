import type { FastifyBaseLogger } from 'fastify';
import { pushPayload } from '@alda/contract/schemas/push';
import type { Db } from '../../db/client';
import type {
  PushMessage,
  PushOutcome,
  PushPlatform,
  PushSender,
} from '../../adapters/push/push-sender';
import {
  claimDue,
  expireLeases,
  finishPush,
  removeDevice,
  type ClaimedPush,
} from './dispatch-repo';
import { pushKindOf } from './kinds';
import { pushTexts } from './texts';

/** Pushes handed over, per outcome (the metrics read them; ADR 0096). */
export interface PushStats {
  sent: number;
  gone: number;
  retried: number;
  refused: number;
  unknown: number;
  /** Given up: too many attempts, too old, or no sender for the platform. */
  failed: number;
}

export interface PushDispatchDeps {
  db: Db;
  now: () => Date;
  senders: Partial<Record<PushPlatform, PushSender>>;
  /** How long a claim holds before another dispatcher counts the push as `unknown`. */
  leaseS: number;
  /** Pushes claimed per statement. */
  batch: number;
  log: FastifyBaseLogger;
}

/** Temporary refusals are tried again this many times in all, then given up. */
export const PUSH_MAX_ATTEMPTS = 8;
/** A push not sent within this long of its due time is given up: it would be stale news. */
const PUSH_MAX_LATE_MS = 24 * 3_600_000;
/** How long the push service keeps a push for a phone that is off: a day for security, else 12 h. */
const TTL_S = { urgent: 24 * 3600, normal: 12 * 3600 } as const;

/** Back-off after the `attempts`th temporary refusal: 10 s, 20 s, 40 s … at most an hour. */
export function pushBackoffS(attempts: number, retryAfterS?: number): number {
  const backoff = Math.min(3600, 10 * 2 ** Math.max(0, attempts - 1));
  return Math.max(backoff, retryAfterS ?? 0);
}

/**
 * The push dispatcher (ADR 0096): claims due pushes with SKIP LOCKED under a lease, sends each
 * through its platform's sender, and writes how it ended. A push whose answer was lost (a
 * timeout, a dead instance) is `unknown` and never sent again: a device gets a notification at
 * most once.
 */
export function createPushDispatcher(deps: PushDispatchDeps) {
  const stats: PushStats = { sent: 0, gone: 0, retried: 0, refused: 0, unknown: 0, failed: 0 };

  function messageOf(row: ClaimedPush): PushMessage | null {
    const kind = pushKindOf(row.type, row.params);
    if (!kind) return null;
    const texts = pushTexts(kind, row.type, row.params, row.locale);
    const payload = pushPayload.parse({
      id: row.notificationId,
      kind,
      title: texts.title,
      body: texts.body,
      link: row.link ?? '/frabodanir',
      lang: row.locale,
    });
    return {
      device: { platform: row.platform, address: row.address, p256dh: row.p256dh, auth: row.auth },
      payload,
      urgent: row.urgent,
      ttlS: row.urgent ? TTL_S.urgent : TTL_S.normal,
    };
  }

  async function settle(row: ClaimedPush, outcome: PushOutcome, at: Date): Promise<void> {
    const attempts = row.attempts + 1;
    switch (outcome.kind) {
      case 'sent':
        stats.sent += 1;
        return finishPush(deps.db, row.id, { state: 'sent', at, attempts });
      case 'gone':
        stats.gone += 1;
        deps.log.info({ deviceId: row.deviceId, reason: outcome.reason }, 'push address gone');
        return removeDevice(deps.db, row.deviceId);
      case 'unknown':
        stats.unknown += 1;
        return finishPush(deps.db, row.id, {
          state: 'unknown',
          at,
          error: outcome.reason,
          attempts,
        });
      case 'refused':
        stats.refused += 1;
        deps.log.warn({ pushId: row.id, reason: outcome.reason }, 'push refused');
        return finishPush(deps.db, row.id, {
          state: 'failed',
          at,
          error: outcome.reason,
          attempts,
        });
      case 'retry': {
        if (attempts >= PUSH_MAX_ATTEMPTS) {
          stats.failed += 1;
          return finishPush(deps.db, row.id, {
            state: 'failed',
            at,
            error: `gave up after ${attempts} attempts: ${outcome.reason}`,
            attempts,
          });
        }
        stats.retried += 1;
        const dueAt = new Date(at.getTime() + pushBackoffS(attempts, outcome.retryAfterS) * 1000);
        return finishPush(deps.db, row.id, {
          state: 'queued',
          at,
          error: outcome.reason,
          dueAt,
          attempts,
        });
      }
    }
  }

  async function sendOne(row: ClaimedPush): Promise<void> {
    const at = deps.now();
    const sender = deps.senders[row.platform];
    const message = messageOf(row);
    if (!sender || !message || at.getTime() - row.dueAt.getTime() > PUSH_MAX_LATE_MS) {
      stats.failed += 1;
      const error = !sender
        ? `no ${row.platform} sender configured`
        : !message
          ? 'not a pushed notification'
          : 'too late: not sent within a day of its time';
      return finishPush(deps.db, row.id, { state: 'failed', at, error });
    }
    let outcome: PushOutcome;
    try {
      outcome = await sender.send(message);
    } catch (error) {
      // A sender answers every refusal as an outcome; a throw is ours, after the request may
      // have left: unknown, never sent again.
      outcome = { kind: 'unknown', reason: (error as Error).message };
    }
    await settle(row, outcome, deps.now());
  }

  return {
    stats,
    /** One round: expired leases become unknown, then every due push is sent, batch by batch. */
    async runRound(signal?: AbortSignal): Promise<{ sent: number; unknown: number }> {
      const before = { sent: stats.sent, unknown: stats.unknown };
      stats.unknown += await expireLeases(deps.db, deps.now());
      while (!signal?.aborted) {
        const now = deps.now();
        const claimed = await claimDue(
          deps.db,
          now,
          new Date(now.getTime() + deps.leaseS * 1000),
          deps.batch,
        );
        if (claimed.length === 0) break;
        await Promise.all(claimed.map((row) => sendOne(row)));
        if (claimed.length < deps.batch) break;
      }
      return { sent: stats.sent - before.sent, unknown: stats.unknown - before.unknown };
    },
  };
}

export type PushDispatcher = ReturnType<typeof createPushDispatcher>;
