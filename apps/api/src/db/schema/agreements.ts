import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { AgreementStatus } from '@alda/contract/schemas/agreements';
import { users } from './users';

export const AGREEMENT_STATUSES = [
  'pending',
  'active',
  'expired',
  'cancelled',
] as const satisfies readonly AgreementStatus[];

/**
 * A payment agreement: a card saved with the payment provider for monthly charges (SPEC §2
 * profile.agreement). The card stays with the provider; we keep only what the customer needs to
 * recognise it (brand, last four digits, expiry) and the provider's reference to charge it. At
 * most one agreement per customer is pending or active.
 */
export const paymentAgreements = pgTable(
  'payment_agreements',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: text('status', { enum: AGREEMENT_STATUSES }).notNull(),
    cardBrand: text('card_brand'),
    cardLast4: text('card_last4'),
    /** `MM/YY`. */
    cardExpiry: text('card_expiry'),
    /** The provider's id of the stored card or agreement (not card data). */
    providerReference: text('provider_reference'),
    /** The payment provider holding it (`test`, `vipps-mobilepay`): where ending it is sent. */
    provider: text('provider'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('payment_agreements_user_id_idx').on(t.userId),
    uniqueIndex('payment_agreements_one_current_uq')
      .on(t.userId)
      .where(sql`${t.status} in ('pending', 'active')`),
    check(
      'payment_agreements_status',
      sql`${t.status} in ('pending', 'active', 'expired', 'cancelled')`,
    ),
    check('payment_agreements_last4', sql`${t.cardLast4} ~ '^[0-9]{4}$'`),
    check('payment_agreements_expiry', sql`${t.cardExpiry} ~ '^(0[1-9]|1[0-2])/[0-9]{2}$'`),
  ],
);

export type PaymentAgreementRow = typeof paymentAgreements.$inferSelect;
export type NewPaymentAgreementRow = typeof paymentAgreements.$inferInsert;
