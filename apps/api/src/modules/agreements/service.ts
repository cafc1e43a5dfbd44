import type { FastifyBaseLogger } from 'fastify';
import type { Agreement, AgreementResponse } from '@alda/contract/schemas/agreements';
import type { OrderPlacedResponse } from '@alda/contract/schemas/orders';
import type { Db } from '../../db/client';
import type { PaymentAgreementRow } from '../../db/schema/agreements';
import type { NewNotificationRow } from '../../db/schema/data-transfers';
import { AppError } from '../../errors';
import { insertActions } from '../actions/log';
import { insertNotifications } from '../notifications/notify';
import { placeOnce, type Purchase, type PaymentPlacer } from '../orders/placing';
import { agreementHeldBy } from './card-on-file';
import { bumpUserVersions } from '../versions/change-versions';
import { cancelAgreement, findCurrentAgreement } from './repo';

/** How long ending an agreement waits for the payment provider before answering 503. */
export const STOP_AGREEMENT_TIMEOUT_MS = 10_000;

export interface AgreementServiceDeps {
  db: Db;
  now: () => Date;
  log: FastifyBaseLogger;
  payments: () => PaymentPlacer;
  /**
   * Ends an agreement at the payment provider (`PaymentProvider.stopAgreement` of the configured
   * provider): idempotent, throws when the provider cannot.
   */
  stopAgreement: (agreementRef: string) => Promise<void>;
  /** The configured payment provider's name (`PaymentProvider.name`). */
  providerName: string;
  /** How long to wait for {@link stopAgreement} (default {@link STOP_AGREEMENT_TIMEOUT_MS}). */
  stopTimeoutMs?: number;
}

/**
 * An agreement as the contract shows it; the provider's reference never leaves the server. An
 * active agreement another provider holds (made before PAYMENT_PROVIDER changed) cannot be
 * charged: it shows as expired and needing renewal, so the customer approves a new one.
 */
export function toAgreementDto(row: PaymentAgreementRow, providerName: string): Agreement {
  const needsRenewal = row.status === 'active' && !agreementHeldBy(row, providerName);
  return {
    id: row.id,
    status: needsRenewal ? 'expired' : row.status,
    needsRenewal,
    cardBrand: row.cardBrand,
    cardLast4: row.cardLast4,
    cardExpiry: row.cardExpiry,
    createdAt: row.createdAt.toISOString(),
  };
}

/** `work`, or a rejection once `ms` have passed without an answer. */
async function withinMs<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** The customer is told the agreement no longer pays the month (as when one is made, ADR 0052). */
function endedNotification(row: PaymentAgreementRow, at: Date): NewNotificationRow {
  const card = [row.cardBrand, row.cardLast4 ? `•••• ${row.cardLast4}` : null]
    .filter(Boolean)
    .join(' ');
  return {
    userId: row.userId,
    type: 'payment',
    params: {
      title: { fo: 'Gjaldsavtalan er uppsøgd', en: 'Payment agreement ended' },
      body: card
        ? {
            fo: `Kortið ${card} verður ikki longur brúkt til mánaðargjaldið.`,
            en: `The card ${card} will no longer be used for the monthly payment.`,
          }
        : {
            fo: 'Gjaldsavtalan verður ikki longur brúkt til mánaðargjaldið.',
            en: 'The payment agreement will no longer be used for the monthly payment.',
          },
    },
    link: '/min-brukari/gjaldsavtala',
    createdAt: at,
  };
}

/** Payment agreements (SPEC §2 profile.agreement, §7 GET agreements). */
export function createAgreementService(deps: AgreementServiceDeps) {
  const { db, now, log } = deps;
  const stopTimeoutMs = deps.stopTimeoutMs ?? STOP_AGREEMENT_TIMEOUT_MS;

  return {
    /** The caller's current agreement, or null when there is none. */
    async current(userId: string): Promise<AgreementResponse> {
      const row = await findCurrentAgreement(db, userId);
      return row ? toAgreementDto(row, deps.providerName) : null;
    },

    /**
     * POST /api/agreements: registers or changes the card on file. A `payment_agreement` order
     * with price 0 is a card check on the provider's card page (the card is saved there); when it
     * is paid, fulfilment makes the card the active agreement and cancels the previous one.
     */
    async create(purchase: Purchase): Promise<OrderPlacedResponse> {
      return placeOnce(db, deps.payments, {
        ...purchase,
        method: 'card',
        prepare: async () => ({
          order: { kind: 'payment_agreement', priceOere: 0 },
          description: 'Alda: gjaldsavtala (kortkanning)',
        }),
      });
    },

    /**
     * DELETE /api/agreements: ends the customer's current agreement (the one GET shows). First at
     * the provider, outside any transaction and within {@link STOP_AGREEMENT_TIMEOUT_MS}, so it
     * can never be charged again; only when the provider confirmed is it cancelled here, with the
     * log entry, the notification and the change version in one transaction. A provider that
     * fails or does not answer: 503 PAYMENT_PROVIDER_UNAVAILABLE and nothing changed here — a
     * retry is safe, as stopping is idempotent. NOT_FOUND without a current agreement.
     */
    async end(userId: string): Promise<void> {
      const row = await findCurrentAgreement(db, userId);
      if (!row) throw new AppError('NOT_FOUND', { detail: 'no current payment agreement' });
      // An agreement the provider never confirmed (no reference) has nothing to stop there, and
      // one another provider holds is never sent to this one: it can no longer be charged here.
      const ours = agreementHeldBy(row, deps.providerName);
      if (!ours) {
        log.warn(
          { agreementId: row.id, provider: row.provider },
          'payment agreement of another provider ended here only',
        );
      }
      if (row.providerReference !== null && ours) {
        try {
          await withinMs(deps.stopAgreement(row.providerReference), stopTimeoutMs);
        } catch (error) {
          log.warn(
            { err: error, agreementId: row.id, provider: row.provider },
            'payment agreement not ended: the provider did not stop it',
          );
          throw new AppError('PAYMENT_PROVIDER_UNAVAILABLE', { cause: error });
        }
      }
      const at = now();
      await db.transaction(async (tx) => {
        // Already cancelled meanwhile (a new card check replaced it): nothing more to tell.
        const ended = await cancelAgreement(tx, row.id, at);
        if (!ended) return;
        await insertActions(tx, [{ userId, type: 'profile_updated', payload: {}, createdAt: at }]);
        await insertNotifications(tx, [endedNotification(ended, at)]);
        await bumpUserVersions(tx, [userId]);
      });
      log.info({ agreementId: row.id, provider: row.provider }, 'payment agreement ended');
    },
  };
}

export type AgreementService = ReturnType<typeof createAgreementService>;
