import { createHash } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import { AppError } from '../../errors';
import { POLICIES, type RateLimitPolicy } from './policies';
import { consumeAttempt, deleteCounters, pruneCounters, readCounts, refundAttempt } from './repo';

export interface RateLimiterDeps {
  db: Db;
  now: () => Date;
  log: FastifyBaseLogger;
  /** Told the policy's name of each refusal (the metrics count them). */
  onRefused?: (policy: string) => void;
}

/** One limit applied to one subject, e.g. `{ policy: POLICIES.loginAccount, subject: [email] }`. */
export interface LimitCheck {
  policy: RateLimitPolicy;
  /** What is counted: an address, an e-mail, a number. Hashed into the key. */
  subject: readonly string[];
}

/** Attempts that were counted; refund them when the attempt turns out to be legitimate. */
export interface Permit {
  refund(): Promise<void>;
}

/** The longest window of any policy, at least an hour: older windows can be pruned. */
const LONGEST_WINDOW_S = Math.max(3600, ...Object.values(POLICIES).map((p) => p.windowS));

/** Prune old windows once every this many counted attempts (per process). */
const PRUNE_EVERY = 500;

/** Counter key: readable scope, hashed subject (no e-mail addresses or IPs in clear). */
export function counterKey(check: LimitCheck): string {
  const digest = createHash('sha256').update(check.subject.join('\u0000')).digest('base64url');
  return `${check.policy.name}:${digest.slice(0, 32)}`;
}

interface Window {
  start: Date;
  previousStart: Date;
  /** Seconds since the window started. */
  elapsedS: number;
}

function windowOf(at: Date, windowS: number): Window {
  const windowMs = windowS * 1000;
  const startMs = Math.floor(at.getTime() / windowMs) * windowMs;
  return {
    start: new Date(startMs),
    previousStart: new Date(startMs - windowMs),
    elapsedS: (at.getTime() - startMs) / 1000,
  };
}

/**
 * Seconds until one more attempt fits under the limit, assuming no other attempts come in. The
 * sliding estimate at `e` seconds into the current window is `current + previous × (1 − e/W)`;
 * in the next window it is `current × (1 − e/W)`; after that nothing is left.
 */
export function secondsUntilAllowed(
  counts: { current: number; previous: number },
  elapsedS: number,
  policy: RateLimitPolicy,
): number {
  const w = policy.windowS;
  const room = policy.limit - 1;
  for (let t = 0; t <= 2 * w; t += 1) {
    const at = elapsedS + t;
    const estimate =
      at < w
        ? counts.current + counts.previous * (1 - at / w)
        : at < 2 * w
          ? counts.current * (1 - (at - w) / w)
          : 0;
    if (estimate <= room + 1e-9) return Math.max(1, t);
  }
  return 2 * w;
}

/**
 * Security rate limits with their counters in the database, so they hold across every API
 * instance on it (docs/decisions/0021-rate-limits-and-lockout.md).
 */
export function createRateLimiter(deps: RateLimiterDeps) {
  const { db, now } = deps;
  let counted = 0;

  async function maybePrune(at: Date): Promise<void> {
    counted += 1;
    if (counted % PRUNE_EVERY !== 0) return;
    // Windows older than two of the longest window can no longer be read.
    const removed = await pruneCounters(db, new Date(at.getTime() - 2 * LONGEST_WINDOW_S * 1000));
    deps.log.debug({ removed }, 'pruned old rate limit windows');
  }

  /**
   * Counts one attempt against every check, or none: when one check is over its limit the
   * others are refunded and the answer is `{ allowed: false, retryAfter }`.
   */
  async function tryConsume(
    checks: readonly LimitCheck[],
  ): Promise<{ allowed: true; permit: Permit } | { allowed: false; retryAfter: number }> {
    const at = now();
    const taken: { key: string; windowStart: Date }[] = [];
    const refundAll = async () => {
      for (const { key, windowStart } of taken) await refundAttempt(db, key, windowStart);
    };
    for (const check of checks) {
      const key = counterKey(check);
      const window = windowOf(at, check.policy.windowS);
      const allowed = await consumeAttempt(db, {
        key,
        windowStart: window.start,
        previousWindowStart: window.previousStart,
        previousWeight: 1 - window.elapsedS / check.policy.windowS,
        limit: check.policy.limit,
      });
      if (!allowed) {
        await refundAll();
        const counts = await readCounts(db, key, window.start, window.previousStart);
        deps.log.warn({ scope: check.policy.name, key }, 'rate limit reached');
        deps.onRefused?.(check.policy.name);
        return {
          allowed: false,
          retryAfter: secondsUntilAllowed(counts, window.elapsedS, check.policy),
        };
      }
      taken.push({ key, windowStart: window.start });
    }
    await maybePrune(at);
    return { allowed: true, permit: { refund: refundAll } };
  }

  return {
    tryConsume,

    /** Like {@link tryConsume}, but refuses with 429 TOO_MANY_ATTEMPTS and `retryAfter`. */
    async consume(checks: readonly LimitCheck[]): Promise<Permit> {
      const outcome = await tryConsume(checks);
      if (!outcome.allowed) {
        throw new AppError('TOO_MANY_ATTEMPTS', {
          retryAfter: outcome.retryAfter,
          detail: 'security rate limit',
        });
      }
      return outcome.permit;
    },

    /** Forgets the counts of these checks (a proven owner clears their own account's lock). */
    async reset(checks: readonly LimitCheck[]): Promise<void> {
      await deleteCounters(db, checks.map(counterKey));
    },
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;
