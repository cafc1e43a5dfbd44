import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { MonthChargeResult } from '../modules/billing/month-charge-service';
import type { BillRunResult } from '../modules/bills/service';
import type { MonthEndResult } from '../modules/month-end/service';
import { registerRounds } from './rounds';

export interface MonthEndJobOptions {
  /** Seconds between rounds; 0 turns the job off. */
  intervalS: number;
  /** The month end's round; it stops between batches once `signal` is aborted. */
  run: (signal?: AbortSignal) => Promise<MonthEndResult>;
  /**
   * The bills of the month before (docs/decisions/0098-monthly-bill.md), after the month end's
   * own work and the new month's charges; none in tests of other parts.
   */
  bills?: ((signal?: AbortSignal) => Promise<BillRunResult>) | undefined;
  /**
   * The month's charges on payment agreements (billing's month-charge service), after the
   * month end's own work; none when it is turned off (MONTH_END_CHARGE=false).
   */
  charge?: ((signal?: AbortSignal) => Promise<MonthChargeResult>) | undefined;
  log: FastifyBaseLogger;
}

/**
 * One round: the month end (lifecycle orders due, balances moved), the month's charges, then
 * the bills of the month before.
 * In this order on purpose: the charge prices the month on the plans and numbers it begins with
 * and includes last month's roaming charges, which the month end has just kept owed. A month end
 * that fails is logged and the charges run anyway (they wait, customer by customer, for what
 * the month end has not carried out yet).
 */
export async function monthEndRound(
  options: MonthEndJobOptions,
  signal?: AbortSignal,
): Promise<{
  monthEnd: MonthEndResult | null;
  bills: BillRunResult | null;
  charge: MonthChargeResult | null;
}> {
  let monthEnd: MonthEndResult | null = null;
  try {
    monthEnd = await options.run(signal);
  } catch (error) {
    options.log.warn({ err: error }, 'month-end round failed');
  }
  // The new month's charges before last month's bills: taking the money on the 1st must not
  // wait for thousands of bills. A failed charge is reported once the bills have had their turn.
  let charge: MonthChargeResult | null = null;
  let chargeError: unknown;
  try {
    charge = options.charge && !signal?.aborted ? await options.charge(signal) : null;
  } catch (error) {
    chargeError = error;
  }
  // Closing: the bills are the next round's (on this instance or another).
  let bills: BillRunResult | null = null;
  if (options.bills && !signal?.aborted) {
    try {
      bills = await options.bills(signal);
    } catch (error) {
      options.log.warn({ err: error }, 'month-end bills failed');
    }
  }
  if (chargeError !== undefined) throw chargeError;
  return { monthEnd, bills, charge };
}

/**
 * The month-end job (docs/decisions/0053-month-end.md): once when the app is ready and then every
 * `intervalS` seconds, balances of a past Faroese month are moved to the current one, and the
 * month is charged to the customers' payment agreements. A round is cheap when there is nothing
 * to do, so the job need not fire exactly at midnight; several instances may run it at once (SKIP
 * LOCKED; the charge's Idempotency-Key). Rounds never overlap; stopped, and the running round
 * awaited, before the database closes.
 */
export function registerMonthEnd(app: FastifyInstance, options: MonthEndJobOptions): void {
  registerRounds(app, {
    name: 'month_end',
    everyMs: options.intervalS * 1000,
    atStart: true,
    run: (signal) => monthEndRound(options, signal),
    // The month end's own failure is logged in the round; this is the charge's.
    failure: 'month charge round failed',
    log: options.log,
  });
}
