import { formatPhoneNumber } from '@alda/contract/format/phone';
import type { OrderPlacedResponse } from '@alda/contract/schemas/orders';
import type { TopUpOptionsResponse, TopUpRequest } from '@alda/contract/schemas/top-ups';
import type { Db } from '../../db/client';
import { AppError } from '../../errors';
import { placeOnce, type Purchase, type PaymentPlacer } from '../orders/placing';
import { findPurchaseLine } from '../packages/package-data';

/** The amounts offered, øre with VAT: 50, 100, 200, 300 and 500 kr. */
export const TOP_UP_AMOUNTS = [5_000, 10_000, 20_000, 30_000, 50_000] as const;
export const TOP_UP_MIN_OERE = 5_000;
export const TOP_UP_MAX_OERE = 100_000;

/**
 * An amount may be topped up when it lies between the minimum and the maximum and is whole
 * kroner (the card page and the receipt speak in kroner).
 */
export function isValidTopUpAmount(oere: number): boolean {
  return (
    Number.isSafeInteger(oere) &&
    oere >= TOP_UP_MIN_OERE &&
    oere <= TOP_UP_MAX_OERE &&
    oere % 100 === 0
  );
}

export interface TopUpServiceDeps {
  db: Db;
  payments: () => PaymentPlacer;
}

/**
 * Top-up of a prepaid (talutíð) number (SPEC §1 "top up", §8 "top-up errors"; ADR 0052): only
 * the caller's own prepaid numbers; the credit is added when the payment is paid.
 */
export function createTopUpService(deps: TopUpServiceDeps) {
  const { db, payments } = deps;
  return {
    options(): TopUpOptionsResponse {
      return { amounts: [...TOP_UP_AMOUNTS], minOere: TOP_UP_MIN_OERE, maxOere: TOP_UP_MAX_OERE };
    },

    async topUp(purchase: Purchase, input: TopUpRequest): Promise<OrderPlacedResponse> {
      return placeOnce(db, payments, {
        ...purchase,
        method: input.payWith,
        prepare: async () => {
          const line = await findPurchaseLine(db, input.phoneNumber);
          // Own numbers only: the number's user, or the holder of an account whose number has none.
          if (
            !line ||
            line.status !== 'active' ||
            (line.userId ?? line.ownerUserId) !== purchase.userId
          )
            throw new AppError('NUMBER_NOT_FOUND', { field: 'phoneNumber' });
          if (!line.isPrepaid) throw new AppError('TOP_UP_NOT_PREPAID', { field: 'phoneNumber' });
          if (!isValidTopUpAmount(input.amount))
            throw new AppError('TOP_UP_AMOUNT_INVALID', { field: 'amount' });
          return {
            order: {
              kind: 'top_up',
              priceOere: input.amount,
              accountId: line.accountId,
              lineId: line.lineId,
              msisdn: line.msisdn,
            },
            description: `Alda: áfylling · ${formatPhoneNumber(line.msisdn)}`,
          };
        },
      });
    },
  };
}

export type TopUpService = ReturnType<typeof createTopUpService>;
