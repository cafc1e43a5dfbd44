import type { FastifyBaseLogger } from 'fastify';
import { startOfMonth } from '@alda/contract/format/date';
import type { Db } from '../../db/client';
import { initialBuckets } from '../usage/balance';
import { bumpUserVersions } from '../versions/change-versions';
import { deleteBalances, lockStaleBalances, resetBalance } from './repo';

export interface MonthEndServiceDeps {
  db: Db;
  now: () => Date;
  log: FastifyBaseLogger;
  /** Balances moved per transaction. */
  batchSize?: number;
}

/** What one month-end round did (tests and the log). */
export interface MonthEndResult {
  /** Balances started over with the plan's data in the current month. */
  moved: number;
  /** Balances of cancelled lines removed. */
  removed: number;
}

/**
 * Month end (docs/decisions/0053-month-end.md): every line balance of a Faroese month before the
 * current one starts over with the line's plan data and the account's EU package allowance —
 * extra packages, gifts received and last month's use are gone, no rollover. Balances of
 * cancelled lines (they worked until the month's end, SPEC §4) are removed. Each batch is one
 * transaction that locks its balances with SKIP LOCKED and bumps the customers' change
 * versions, so several instances can run it at once and each balance moves once; a balance
 * already in the current month is never touched, so a second run changes nothing.
 */
export function createMonthEndService(deps: MonthEndServiceDeps) {
  const { db, now, log } = deps;
  const batchSize = deps.batchSize ?? 200;

  async function run(): Promise<MonthEndResult> {
    const at = now();
    const monthStart = startOfMonth(at);
    const result: MonthEndResult = { moved: 0, removed: 0 };
    for (;;) {
      const batch = await db.transaction(async (tx) => {
        const stale = await lockStaleBalances(tx, monthStart, batchSize);
        const cancelled = stale.filter((b) => b.status === 'cancelled');
        const live = stale.filter((b) => b.status !== 'cancelled');
        for (const b of live) {
          await resetBalance(
            tx,
            b.lineId,
            monthStart,
            initialBuckets(b.dataMb ?? 0, b.euAllowanceMb),
            at,
          );
        }
        await deleteBalances(
          tx,
          cancelled.map((b) => b.lineId),
        );
        await bumpUserVersions(
          tx,
          stale.flatMap((b) => [b.userId, b.ownerUserId].filter((id): id is string => !!id)),
        );
        return { moved: live.length, removed: cancelled.length, size: stale.length };
      });
      result.moved += batch.moved;
      result.removed += batch.removed;
      if (batch.size < batchSize) break;
    }
    if (result.moved + result.removed > 0) {
      log.info({ ...result, month: monthStart.toISOString() }, 'month end: balances moved');
    }
    return result;
  }

  return { run };
}

export type MonthEndService = ReturnType<typeof createMonthEndService>;
