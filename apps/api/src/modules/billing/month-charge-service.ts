import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { faroeMonth } from '@alda/contract/format/date';
import type { Db } from '../../db/client';
import { AppError } from '../../errors';
import { monthEndPendingFor } from '../lifecycle/apply';
import { requestHashOf, type Purchase } from '../orders/placing';
import { findMonthChargeCandidates } from './repo';
import type { BillingService } from './service';

/** The Idempotency-Key of a customer's month charge: `month-charge:<userId>:<YYYY-MM>`. */
export const MONTH_CHARGE_KEY_PREFIX = 'month-charge:';

export function monthChargeKey(userId: string, period: string): string {
  return `${MONTH_CHARGE_KEY_PREFIX}${userId}:${period}`;
}

/** The request the month charge makes: POST /api/billing/pay with the agreement. */
const PAY_WITH_AGREEMENT = { payWith: 'agreement' } as const;
const REQUEST_HASH = requestHashOf('POST /api/billing/pay', PAY_WITH_AGREEMENT);

/** Answers of `pay` that mean "nothing to charge for this customer now". */
const NOT_DUE = new Set(['ALREADY_PAID', 'NOTHING_TO_PAY', 'AGREEMENT_REQUIRED']);

export interface MonthChargeServiceDeps {
  db: Db;
  now: () => Date;
  log: FastifyBaseLogger;
  /** Billing's own path of POST /api/billing/pay: one home for the month's rules. */
  billing: Pick<BillingService, 'pay'>;
  /**
   * The configured payment provider: only agreements it holds are charged (another provider's
   * agreement needs renewal by the customer). Unset: every agreement is a candidate, and the
   * payments core refuses a foreign one (AGREEMENT_REQUIRED, skipped).
   */
  providerName?: string;
  /** Customers read per query. */
  pageSize?: number;
  /** Most customers looked at in one round (the rest are next round's). */
  maxPerRound?: number;
  /**
   * Where in the customers' ids a round starts (random by default), so instances running
   * rounds at the same moment mostly work on different customers.
   */
  startAt?: () => string;
}

/** What one round did (tests and the log). */
export interface MonthChargeResult {
  /** The Faroese month charged (`YYYY-MM`). */
  period: string;
  /** Charges placed on an agreement (or a payment of the month already open, answered). */
  placed: number;
  /** Nothing to charge after all: paid meanwhile, 0 kr., no agreement, month end not through. */
  skipped: number;
  /** The provider did not take a charge: the round stopped; the next one tries again. */
  unavailable: number;
  /** Anything else went wrong for a customer (logged; tried again next round). */
  failed: number;
}

/**
 * The month's charge on the payment agreement (issue 42; docs/decisions/0053-month-end.md "The
 * month's charge"): every customer with an active agreement whose current Faroese month is not
 * paid gets the month's `subscription_payment` placed through billing's `pay` — the path of
 * POST /api/billing/pay with `payWith: 'agreement'` — with the Idempotency-Key
 * `month-charge:<userId>:<YYYY-MM>`. The key is per payer, as the order is: one customer pays
 * the month of all the accounts they own in one order.
 *
 * - Never twice: a second round, or another instance at the same moment, meets the key (the
 *   unique index on orders(user_id, idempotency_key)) or the open payment of the month (the
 *   partial unique index of one month payment) and is answered the first order.
 * - Never skipped: a charge the provider did not take releases its key (the payments core), so
 *   the month is tried again next round; a customer whose month-end lifecycle order is not
 *   carried out yet is left to the next round too (the price must be the new month's).
 * - A charge that failed (declined, agreement ended at the provider) keeps its key and is not
 *   tried again: as with any failed monthly payment, the month shows unpaid and the customer
 *   pays it in the app.
 */
export function createMonthChargeService(deps: MonthChargeServiceDeps) {
  const { db, now, log, billing } = deps;
  const pageSize = deps.pageSize ?? 100;
  const maxPerRound = deps.maxPerRound ?? 2_000;
  const startAt = deps.startAt ?? randomUUID;

  type Outcome = 'placed' | 'skipped' | 'unavailable' | 'failed';

  async function chargeOne(userId: string, period: string): Promise<Outcome> {
    if (await monthEndPendingFor(db, userId, now())) return 'skipped';
    const purchase: Purchase = {
      userId,
      idempotencyKey: monthChargeKey(userId, period),
      requestHash: REQUEST_HASH,
      locale: 'fo',
      native: false,
    };
    try {
      const placed = await billing.pay(purchase, PAY_WITH_AGREEMENT, { period });
      log.info(
        { userId, orderId: placed.order.id, period, paymentStatus: placed.order.paymentStatus },
        'month charge placed on the payment agreement',
      );
      return 'placed';
    } catch (error) {
      if (error instanceof AppError && NOT_DUE.has(error.code)) return 'skipped';
      if (error instanceof AppError && error.code === 'PAYMENT_PROVIDER_UNAVAILABLE') {
        log.warn({ userId, period }, 'month charge: payment provider unavailable');
        return 'unavailable';
      }
      log.error({ err: error, userId, period }, 'month charge failed');
      return 'failed';
    }
  }

  /**
   * One round on the app's clock: the current Faroese month's charges still to place. Once
   * `signal` is aborted (the app closes) it stops before the next customer.
   */
  async function run(signal?: AbortSignal): Promise<MonthChargeResult> {
    const period = faroeMonth(now());
    const result: MonthChargeResult = { period, placed: 0, skipped: 0, unavailable: 0, failed: 0 };
    const start = startAt();
    let seen = 0;
    let stop = false;
    // From a point in the ids to the end, then from the beginning up to it.
    for (const pass of [
      { after: start, upTo: null },
      { after: null, upTo: start },
    ]) {
      let after: string | null = pass.after;
      while (!stop) {
        const limit = Math.min(pageSize, maxPerRound - seen);
        if (limit <= 0) {
          stop = true;
          break;
        }
        const page = await findMonthChargeCandidates(db, {
          period,
          keyPrefix: MONTH_CHARGE_KEY_PREFIX,
          provider: deps.providerName ?? null,
          after,
          upTo: pass.upTo,
          limit,
        });
        for (const userId of page) {
          if (signal?.aborted) {
            stop = true;
            break;
          }
          seen += 1;
          const outcome = await chargeOne(userId, period);
          result[outcome] += 1;
          // The provider is down: every further charge would fail the same way (and leave a
          // failed payment each); the next round tries them all again.
          if (outcome === 'unavailable') {
            stop = true;
            break;
          }
        }
        if (page.length < limit) break;
        after = page.at(-1) ?? null;
      }
      if (stop) break;
    }
    if (result.placed + result.unavailable + result.failed > 0) {
      log.info(result, 'month charge round');
    }
    return result;
  }

  return { run };
}

export type MonthChargeService = ReturnType<typeof createMonthChargeService>;
