import type { Agreement, AgreementResponse } from '@alda/contract/schemas/agreements';
import type { Db } from '../../db/client';
import type { PaymentAgreementRow } from '../../db/schema/agreements';
import { findCurrentAgreement } from './repo';

export interface AgreementServiceDeps {
  db: Db;
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
  };
}

export type AgreementService = ReturnType<typeof createAgreementService>;
