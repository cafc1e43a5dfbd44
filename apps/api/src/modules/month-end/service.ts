import type { FastifyBaseLogger } from 'fastify';
import { faroeMonth, startOfMonth } from '@alda/contract/format/date';
import { rolloverInto } from '@alda/contract/rules/lifecycle';
import { barringKey, type NetworkAdapter } from '../../adapters/network/network';
import type { Db } from '../../db/client';
import { claimAndCompleteDueOrder } from '../lifecycle/apply';
import type { PendingEmail } from '../provisioning/service';
import { initialBuckets } from '../usage/balance';
import { insertRoamingCharges } from '../usage/roaming-charges';
import { bumpUserVersions } from '../versions/change-versions';
import { deleteBalances, lockStaleBalances, resetBalances } from './repo';

export interface MonthEndServiceDeps {
  db: Db;
  now: () => Date;
  log: FastifyBaseLogger;
  /** Balances moved per transaction. */
  batchSize?: number;
  /** Sends the e-mails of lifecycle orders carried out (provisioning's sender); none without. */
  sendEmails?: (pending: readonly PendingEmail[]) => void;
  /**
   * Lets numbers whose roaming cap stopped their data abroad roam again in the new month (ADR
   * 0078), after the commit; none without (tests of other parts).
   */
  network?: Pick<NetworkAdapter, 'setRoamingDataBarred'>;
}

/** What one month-end round did (tests and the log). */
export interface MonthEndResult {
  /** Lifecycle orders due at a month start carried out (ADR 0056). */
  applied: number;
  /** Balances started over with the plan's data in the current month. */
  moved: number;
  /** Balances of cancelled lines removed. */
  removed: number;
}

/**
 * Month end (docs/decisions/0053-month-end.md, 0056-subscription-lifecycle.md). First the
 * lifecycle orders due (a smaller plan, a cancellation, a number leaving: `effective_at <= now`,
 * waiting on the month end) are claimed one by one with SKIP LOCKED, carried out and completed,
 * so the new month begins on the new plan or as talutíð. Then every line balance of a Faroese
 * month before the current one starts over with the line's plan data and the account's EU
 * package allowance — extra packages, gifts received and last month's use are gone (its roaming
 * charges kept owed in `roaming_charges` first, ADR 0078) — plus the
 * rollover (`rolloverInto`: what was left, at most one month of the plan's data; none on
 * unlimited, talutíð, or when a smaller plan took effect at this month end). Balances of
 * cancelled lines (they worked until the month's end, SPEC §4) are removed. Each batch is one
 * transaction that locks its balances with SKIP LOCKED and bumps the customers' change
 * versions, so several instances can run it at once and each balance moves once; a balance
 * already in the current month is never touched, so a second run changes nothing.
 */
export function createMonthEndService(deps: MonthEndServiceDeps) {
  const { db, now, log } = deps;
  const batchSize = deps.batchSize ?? 200;

  /**
   * One round as of `at` (now; the demo's "simulated month end" passes a later instant, see
   * dev-routes.ts). Once `signal` is aborted (the app closes) it stops before its next
   * transaction; what is left is the next round's, here or on another instance.
   */
  async function run(at: Date = now(), signal?: AbortSignal): Promise<MonthEndResult> {
    const monthStart = startOfMonth(at);
    const result: MonthEndResult = { applied: 0, moved: 0, removed: 0 };
    // An order that cannot be carried out is logged and left for the next round; the balances
    // still move.
    const failed: string[] = [];
    for (;;) {
      if (signal?.aborted) return result;
      let claimed: string | undefined;
      try {
        const pending = await db.transaction((tx) =>
          claimAndCompleteDueOrder(tx, at, failed, (id) => (claimed = id)),
        );
        if (pending === null) break;
        result.applied += 1;
        deps.sendEmails?.(pending);
      } catch (error) {
        if (claimed === undefined) throw error;
        failed.push(claimed);
        log.error({ err: error, orderId: claimed }, 'month end: lifecycle order failed');
      }
    }
    // Numbers stopped by their roaming cap last month, to let roam again once committed.
    const unbar: { lineId: string; msisdn: string }[] = [];
    for (;;) {
      if (signal?.aborted) break;
      const batch = await db.transaction(async (tx) => {
        const stale = await lockStaleBalances(tx, monthStart, batchSize);
        // The month's roaming charges are kept owed before its figures start over (ADR 0078
        // "Billing"): the next monthly payment of the line's account charges them.
        await insertRoamingCharges(
          tx,
          stale.map((b) => ({
            lineId: b.lineId,
            month: faroeMonth(b.periodStart),
            accountId: b.accountId,
            msisdn: b.msisdn,
            chargeOere: b.roamingChargedOere,
            chargedMb: b.roamingChargedMb,
          })),
          at,
        );
        const cancelled = stale.filter((b) => b.status === 'cancelled');
        const live = stale.filter((b) => b.status !== 'cancelled');
        await resetBalances(
          tx,
          live.map((b) => {
            const dataMb = b.dataMb ?? 0;
            const rolloverMb = rolloverInto(b.remainingMb, dataMb, {
              prepaid: b.prepaid,
              toSmallerPlan: b.downgraded,
            });
            return {
              lineId: b.lineId,
              buckets: initialBuckets(dataMb + rolloverMb, b.euAllowanceMb),
              rolloverMb,
            };
          }),
          monthStart,
          at,
        );
        await deleteBalances(
          tx,
          cancelled.map((b) => b.lineId),
        );
        await bumpUserVersions(
          tx,
          stale.flatMap((b) => [b.userId, b.ownerUserId].filter((id): id is string => !!id)),
        );
        return {
          moved: live.length,
          removed: cancelled.length,
          size: stale.length,
          unbar: stale
            .filter((b) => b.roamingStopped)
            .map((b) => ({ lineId: b.lineId, msisdn: b.msisdn })),
        };
      });
      unbar.push(...batch.unbar);
      result.moved += batch.moved;
      result.removed += batch.removed;
      if (batch.size < batchSize) break;
    }
    for (const { lineId, msisdn } of unbar) {
      // Sets a state: a failure is logged; the next stop or cap change sets it again.
      await deps.network
        ?.setRoamingDataBarred(msisdn, false, { key: barringKey(lineId, 'roaming', false) })
        .catch((error: unknown) =>
          log.error({ err: error }, 'month end: could not let a capped number roam again'),
        );
    }
    if (result.applied + result.moved + result.removed > 0) {
      log.info(
        { ...result, month: monthStart.toISOString() },
        'month end: orders and balances moved',
      );
    }
    return result;
  }

  return { run };
}

export type MonthEndService = ReturnType<typeof createMonthEndService>;
