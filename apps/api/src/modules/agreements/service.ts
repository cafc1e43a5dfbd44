import type { Agreement, AgreementResponse } from '@alda/contract/schemas/agreements';
import type { OrderPlacedResponse } from '@alda/contract/schemas/orders';
import type { Db } from '../../db/client';
import type { PaymentAgreementRow } from '../../db/schema/agreements';
import { placeOnce, type Purchase, type PaymentPlacer } from '../orders/placing';
import { findCurrentAgreement } from './repo';

export interface AgreementServiceDeps {
  db: Db;
  payments: () => PaymentPlacer;
}

/** An agreement as the contract shows it; the provider's reference never leaves the server. */
export function toAgreementDto(row: PaymentAgreementRow): Agreement {
  return {
    id: row.id,
    status: row.status,
    cardBrand: row.cardBrand,
    cardLast4: row.cardLast4,
    cardExpiry: row.cardExpiry,
    createdAt: row.createdAt.toISOString(),
  };
}

/** Payment agreements (SPEC §2 profile.agreement, §7 GET agreements). */
export function createAgreementService(deps: AgreementServiceDeps) {
  return {
    /** The caller's current agreement, or null when there is none. */
    async current(userId: string): Promise<AgreementResponse> {
      const row = await findCurrentAgreement(deps.db, userId);
      return row ? toAgreementDto(row) : null;
    },

    /**
     * POST /api/agreements: registers or changes the card on file. A `payment_agreement` order
     * with price 0 is a card check on the provider's card page (the card is saved there); when it
     * is paid, fulfilment makes the card the active agreement and cancels the previous one.
     */
    async create(purchase: Purchase): Promise<OrderPlacedResponse> {
      return placeOnce(deps.db, deps.payments, {
        ...purchase,
        method: 'card',
        prepare: async () => ({
          order: { kind: 'payment_agreement', priceOere: 0 },
          description: 'Alda: gjaldsavtala (kortkanning)',
        }),
      });
    },
  };
}

export type AgreementService = ReturnType<typeof createAgreementService>;
