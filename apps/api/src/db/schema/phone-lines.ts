import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { accounts } from './accounts';
import { plans } from './catalog';
import { users } from './users';

export const PHONE_LINE_STATUSES = ['active', 'processing', 'cancelled'] as const;
export type PhoneLineStatus = (typeof PHONE_LINE_STATUSES)[number];

export const SIM_TYPES = ['esim', 'physical'] as const;
export type SimTypeValue = (typeof SIM_TYPES)[number];

/**
 * A mobile line of the provider: one number (MSISDN, stored as the 6 national digits) and the
 * person who uses it — a "product" in TM Forum terms, whose user may differ from the paying
 * account owner (a family member), on an account with a plan and a SIM. Status:
 * - `processing`: ordered, being set up by the network (SPEC §4 "Subscription processing can take
 *   days"); phone login answers PHONE_PROCESSING;
 * - `active`: in service; its number can sign in with an SMS code;
 * - `cancelled`: ended; the row stays as history and the number may be given out again, which
 *   is why the number is unique only among lines that are not cancelled.
 */
export const phoneLines = pgTable(
  'phone_lines',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    msisdn: text('msisdn').notNull(),
    /** Who uses the number and signs in with it; null when not (yet) tied to a user. */
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    status: text('status', { enum: PHONE_LINE_STATUSES }).notNull(),
    /**
     * The account the line is a member of (TMF637: the product's bundle); null for a line that
     * is not on an account (yet). See db/schema/accounts.ts.
     */
    accountId: uuid('account_id').references(() => accounts.id, { onDelete: 'set null' }),
    /** The line's plan; for family members the family plan of the account. */
    planId: text('plan_id').references(() => plans.id),
    simType: text('sim_type', { enum: SIM_TYPES }).notNull().default('physical'),
    /** A prepaid (talutíð) number: no monthly plan, paid by top-ups (SPEC §4). */
    isPrepaid: boolean('is_prepaid').notNull().default(false),
    /** A cancelled subscription runs until this instant (month end, SPEC §4), then ends. */
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    statusChangedAt: timestamp('status_changed_at', { withTimezone: true }).notNull().defaultNow(),
    /** ICCID of the physical SIM in service (null for eSIM, or before one is issued). */
    iccid: text('iccid'),
    /** PIN and PUK of the physical SIM, shown only after re-authentication. */
    simPin: text('sim_pin'),
    simPuk: text('sim_puk'),
    /** eSIM: the SM-DP+ matching id of the profile (GSMA SGP.22 activation code). */
    esimMatchingId: text('esim_matching_id'),
    /** eSIM: the profile has been downloaded to a phone. */
    esimInstalled: boolean('esim_installed').notNull().default(false),
    /**
     * When provisioning made the line active (null for lines older than provisioning). The month
     * it became active is not charged: the first charge is for the next month (ADR 0055).
     */
    activatedAt: timestamp('activated_at', { withTimezone: true }),
    /**
     * The name of the person who uses a number without a login of its own (a child's number on
     * a family plan), as the owner gave it when adding them; shown as the member's name (ADR
     * 0056). Null when the line has a user, or none was given.
     */
    holderFirstname: text('holder_firstname'),
    holderLastname: text('holder_lastname'),
    /** Listed in the phone book (per number, SPEC §1); null follows the user's own setting. */
    phoneBookVisible: boolean('phone_book_visible'),
    // Owner controls (issue 16.3, docs/decisions/0068-owner-controls.md).
    /**
     * When the account owner paused the number's mobile data (barred in the network in the
     * same transaction); null while data runs.
     */
    dataPausedAt: timestamp('data_paused_at', { withTimezone: true }),
    /** The member's own extra-package purchases become requests the owner approves. */
    purchaseApproval: boolean('purchase_approval').notNull().default(false),
    // Number protection (issue 32, docs/decisions/0076-number-protection.md).
    /**
     * Number lock: while true, a port-out, a SIM change and a new eSIM are refused. New lines
     * start locked; lines older than the lock were left unlocked by the migration.
     */
    numberLocked: boolean('number_locked').notNull().default(true),
    /** An unlock asked for: the lock opens at this instant unless cancelled (null: none waits). */
    unlockAt: timestamp('unlock_at', { withTimezone: true }),
    /** When that unlock was asked for. */
    unlockRequestedAt: timestamp('unlock_requested_at', { withTimezone: true }),
    /** The latest SIM change or eSIM re-issue of the number (CAMARA SIM Swap); null: none. */
    simChangedAt: timestamp('sim_changed_at', { withTimezone: true }),
    // Roaming spend cap (issue 33 §2, docs/decisions/0078-roaming-spend-cap.md).
    /** The monthly cap on roaming charges, øre with VAT; null: the default (`ROAMING_CAP_DEFAULT`). */
    roamingCapOere: integer('roaming_cap_oere'),
    /** The account owner turned the cap off (confirmed the risk): roaming is never stopped. */
    roamingCapOff: boolean('roaming_cap_off').notNull().default(false),
  },
  (t) => [
    uniqueIndex('phone_lines_msisdn_live_uq')
      .on(t.msisdn)
      .where(sql`${t.status} <> 'cancelled'`),
    index('phone_lines_user_id_idx').on(t.userId),
    index('phone_lines_account_id_idx').on(t.accountId),
    check('phone_lines_sim_type', sql`${t.simType} in ('esim', 'physical')`),
    check('phone_lines_msisdn_6_digits', sql`${t.msisdn} ~ '^[0-9]{6}$'`),
    check('phone_lines_status', sql`${t.status} in ('active', 'processing', 'cancelled')`),
    check('phone_lines_roaming_cap', sql`${t.roamingCapOere} is null or ${t.roamingCapOere} >= 0`),
    check(
      'phone_lines_unlock_only_when_locked',
      sql`${t.unlockAt} is null or (${t.numberLocked} and ${t.unlockRequestedAt} is not null)`,
    ),
    index('phone_lines_unlock_at_idx')
      .on(t.unlockAt)
      .where(sql`${t.unlockAt} is not null`),
  ],
);

/**
 * A number held for a signed-in customer during sign-up (POST /api/auth/reserved-numbers), until
 * `expires_at`; its id is the signup payload's `phoneNumberReservationId`. One row per number:
 * an expired row is taken over by the next customer who asks (docs/decisions/0024-number-reservations.md).
 */
export const numberReservations = pgTable(
  'number_reservations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    msisdn: text('msisdn').notNull().unique(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /**
     * An easy number's one-off price in øre as it was when reserved (ADR 0077), held for the
     * order; null for an ordinary number. `number_class` names its class.
     */
    oneOffPriceOere: integer('one_off_price_oere'),
    numberClass: text('number_class'),
  },
  (t) => [
    index('number_reservations_user_id_idx').on(t.userId),
    check('number_reservations_msisdn_6_digits', sql`${t.msisdn} ~ '^[0-9]{6}$'`),
  ],
);

export type PhoneLineRow = typeof phoneLines.$inferSelect;
export type NewPhoneLineRow = typeof phoneLines.$inferInsert;
export type NumberReservationRow = typeof numberReservations.$inferSelect;
