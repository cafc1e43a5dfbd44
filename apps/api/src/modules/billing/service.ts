import type { Locale } from '@alda/contract/locale';
import { faroeMonth, formatMonth } from '@alda/contract/format/date';
import type { MonthlyPriceResponse, PayMonthRequest } from '@alda/contract/schemas/billing';
import type { OrderPlacedResponse } from '@alda/contract/schemas/orders';
import type { Db } from '../../db/client';
import type { PlanRow } from '../../db/schema/catalog';
import { AppError } from '../../errors';
import { placeOnce, type Purchase, type PaymentPlacer } from '../orders/placing';
import { findPlansByIds } from '../plans/catalogue';
import { findLinesOfAccounts } from '../subscriptions/accounts';
import { findExtraCharges } from './extras';
import { inPriceOrder, monthlyPriceLines, type BilledAccount } from './price';
import { findOpenMonthOrder, findOwnedAccounts, findPaidMonthOrder } from './repo';

/**
 * The accounts a customer owns, with their plans, the numbers charged for the month of `at` and
 * the extra lines not charged yet (`extras.ts`: those numbers' one-off prices, ADR 0077, and the
 * accounts' past months' roaming charges, ADR 0078). With `chargedBy`, the order that paid the
 * month, also the extras it charged, so a paid month shows what was paid.
 */
export async function loadBilledAccounts(
  db: Db,
  userId: string,
  at: Date,
  chargedBy: string | null = null,
): Promise<BilledAccount[]> {
  const owned = await findOwnedAccounts(db, userId);
  const lines = await findLinesOfAccounts(
    db,
    owned.map((a) => a.id),
  );
  const planIds = new Set<string>();
  for (const a of owned) if (a.planId) planIds.add(a.planId);
  for (const l of lines) if (l.planId) planIds.add(l.planId);
  const plans = new Map<string, PlanRow>(
    (await findPlansByIds(db, [...planIds])).map((p) => [p.plan.id, p.plan]),
  );
  const billed = owned.map((account) => ({
    account,
    plans,
    lines: inPriceOrder(account, lines, at),
  }));
  const extras = await findExtraCharges(
    db,
    billed.map((b) => ({ accountId: b.account.id, chargedLineIds: b.lines.map((l) => l.id) })),
    chargedBy,
  );
  return billed.map((b) => ({ ...b, extras: extras.get(b.account.id) ?? [] }));
}

export interface BillingServiceDeps {
  db: Db;
  now: () => Date;
  payments: () => PaymentPlacer;
}

/**
 * The monthly price and paying it (SPEC §1 "view and pay for subscriptions", §8 "fetching the
 * monthly price", §9 totals with and without VAT; ADR 0052). The month is the Faroese calendar
 * month; it is paid when a `subscription_payment` order for it is paid.
 */
export function createBillingService(deps: BillingServiceDeps) {
  const { db, now, payments } = deps;

  async function monthlyPrice(userId: string, locale: Locale): Promise<MonthlyPriceResponse> {
    const period = faroeMonth(now());
    const paid = await findPaidMonthOrder(db, userId, period);
    const accounts = await loadBilledAccounts(db, userId, now(), paid?.id ?? null);
    return { period, ...monthlyPriceLines(accounts, locale), paidOrderId: paid?.id ?? null };
  }

  return {
    monthlyPrice,

    /**
     * POST /api/billing/pay: places a `subscription_payment` order for this month's total.
     * ALREADY_PAID when the month is paid, NOTHING_TO_PAY when the total is 0; while a payment
     * of the month is open, its order (and card page) is the answer. The month-end charge
     * (month-charge-service.ts) pays through here too, naming the `period` its key is for: when
     * the month has turned since, NOTHING_TO_PAY (the next round charges the new month).
     */
    async pay(
      purchase: Purchase,
      input: PayMonthRequest,
      expected: { period?: string } = {},
    ): Promise<OrderPlacedResponse> {
      return placeOnce(db, payments, {
        ...purchase,
        method: input.payWith,
        prepare: async () => {
          const price = await monthlyPrice(purchase.userId, 'fo');
          if (expected.period !== undefined && price.period !== expected.period)
            throw new AppError('NOTHING_TO_PAY', {
              detail: `${expected.period} is over: it is ${price.period} now`,
            });
          if (price.paidOrderId !== null)
            throw new AppError('ALREADY_PAID', { detail: `${price.period} is paid` });
          if (price.total.gross <= 0) throw new AppError('NOTHING_TO_PAY');
          // A payment of this month still open (card page not finished, slow card): answer it
          // instead of opening a second one that could charge the month twice.
          const open = await findOpenMonthOrder(db, purchase.userId, price.period);
          if (open) return { open };
          return {
            order: {
              kind: 'subscription_payment',
              priceOere: price.total.gross,
              billingPeriod: price.period,
            },
            description: `Alda: mánaðargjald ${formatMonth(price.period, 'fo')}`,
          };
        },
      });
    },
  };
}

export type BillingService = ReturnType<typeof createBillingService>;
