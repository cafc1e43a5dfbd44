import { sql } from 'drizzle-orm';
import {
  check,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import type { UsageKind } from '@alda/contract/schemas/usage';
import { accounts } from './accounts';
import { orders } from './orders';
import { phoneLines } from './phone-lines';

/*
 * What a line has left (TM Forum TMF677 Usage Consumption: buckets) and the usage that used it
 * up (TMF635 Usage). Data in integer MB; every balance carries `updated_at`, shown on home as
 * "updated at". Months are Faroese calendar months (Atlantic/Faroe).
 */

/**
 * The data buckets of one line for the current month: domestic (plan + extra packages + gifts
 * received + rollover = `domestic_total_mb`, of which `domestic_remaining_mb` is left and
 * `domestic_used_mb` was used) and the EU
 * package's allowance (null without one) of which `eu_used_mb` is used.
 */
export const lineBalances = pgTable(
  'line_balances',
  {
    lineId: uuid('line_id')
      .primaryKey()
      .references(() => phoneLines.id, { onDelete: 'cascade' }),
    /** Start (UTC instant) of the Faroese month these figures belong to. */
    periodStart: timestamp('period_start', { withTimezone: true }).notNull(),
    domesticTotalMb: integer('domestic_total_mb').notNull(),
    domesticRemainingMb: integer('domestic_remaining_mb').notNull(),
    /** Domestic data used this month (also counted on unlimited plans, whose remainder stays). */
    domesticUsedMb: integer('domestic_used_mb').notNull().default(0),
    euAllowanceMb: integer('eu_allowance_mb'),
    euUsedMb: integer('eu_used_mb').notNull().default(0),
    /** Data carried over from last month (part of the total; SPEC §4 a smaller plan drops it). */
    rolloverMb: integer('rollover_mb').notNull().default(0),
    // Roaming charges of the month (issue 33 §2, ADR 0078), rated by the usage feed.
    /** Charged this month for data abroad beyond the EU package and the domestic data, øre. */
    roamingChargedOere: integer('roaming_charged_oere').notNull().default(0),
    /** The MB those charges are for. */
    roamingChargedMb: integer('roaming_charged_mb').notNull().default(0),
    /** Chargeable MB booked while roaming was stopped: not charged (the network refused it). */
    roamingWrittenOffMb: integer('roaming_written_off_mb').notNull().default(0),
    /** When the cap was reached and roaming data stopped; null while it runs. */
    roamingStoppedAt: timestamp('roaming_stopped_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // Month end's order (ADR 0093): the balances of a past month first, by line.
    index('line_balances_period_start_line_id_idx').on(t.periodStart, t.lineId),
    check(
      'line_balances_domestic',
      sql`${t.domesticRemainingMb} >= 0 and ${t.domesticTotalMb} >= 0 and ${t.domesticUsedMb} >= 0`,
    ),
    check('line_balances_rollover', sql`${t.rolloverMb} >= 0`),
    check(
      'line_balances_roaming',
      sql`${t.roamingChargedOere} >= 0 and ${t.roamingChargedMb} >= 0 and ${t.roamingWrittenOffMb} >= 0`,
    ),
    check(
      'line_balances_eu',
      sql`${t.euUsedMb} >= 0 and (${t.euAllowanceMb} is null or ${t.euUsedMb} <= ${t.euAllowanceMb})`,
    ),
  ],
);

/**
 * Data given away per line per Faroese month (SPEC §3 givenData {current, max}; SPEC §5 limits
 * giving to max − current). `max_mb` is copied from the plan when the month's row is made.
 */
export const givenDataCounters = pgTable(
  'given_data_counters',
  {
    lineId: uuid('line_id')
      .notNull()
      .references(() => phoneLines.id, { onDelete: 'cascade' }),
    /** Faroese calendar month, `yyyy-mm`. */
    month: text('month').notNull(),
    givenMb: integer('given_mb').notNull().default(0),
    maxMb: integer('max_mb').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.lineId, t.month] }),
    check('given_data_counters_month', sql`${t.month} ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'`),
    check('given_data_counters_amounts', sql`${t.givenMb} >= 0 and ${t.maxMb} >= 0`),
  ],
);

/** Credit on a prepaid (talutíð) line, øre with VAT. */
export const prepaidBalances = pgTable(
  'prepaid_balances',
  {
    lineId: uuid('line_id')
      .primaryKey()
      .references(() => phoneLines.id, { onDelete: 'cascade' }),
    balanceOere: integer('balance_oere').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('prepaid_balances_balance', sql`${t.balanceOere} >= 0`)],
);

export const USAGE_KINDS = ['domestic', 'eu'] as const satisfies readonly UsageKind[];

/**
 * Where a usage record was used: the data buckets' `domestic` and `eu` (EU/EEA), and — for use
 * that is not data, which draws on no bucket — `world`, anywhere else (ADR 0083).
 */
export const USAGE_RECORD_ZONES = [...USAGE_KINDS, 'world'] as const;
export type UsageRecordZone = (typeof USAGE_RECORD_ZONES)[number];

/** The unit of a usage record's `quantity`: MB of data, seconds of a call, a count of the rest. */
export const USAGE_UNITS = ['MB', 's', 'count'] as const;

/**
 * Every usage record received from the usage feeds (POST /api/usage/records, TMF635). The
 * record id — the charging system's, or one the TMF635 feed made from the record's content (ADR
 * 0083) — is the primary key, so a record sent twice is stored — and counted — once.
 *
 * Data use (`usage_type` `data`) books on a line's buckets: `used_mb`, and how it was rated
 * against the roaming cap. Every other use the charging system sends (calls, SMS, …) is kept for
 * the bill to itemise — its `quantity` in seconds or a count, the other party, the zone, the
 * charging system's amount — and moves no balance: its data columns stay 0. Such a record names
 * no line only when the Usage named no number (the TMF635 document's own example).
 */
export const usageRecords = pgTable(
  'usage_records',
  {
    recordId: text('record_id').primaryKey(),
    /** Null only for use that is not data and named no number. */
    lineId: uuid('line_id').references(() => phoneLines.id, { onDelete: 'cascade' }),
    msisdn: text('msisdn'),
    /** `data`, `voice`, `sms`, … as the charging system named it, lower case. */
    usageType: text('usage_type').notNull().default('data'),
    /** How much: MB for data (= `used_mb`), seconds for a call, a count for the rest. */
    quantity: integer('quantity').notNull(),
    unit: text('unit', { enum: USAGE_UNITS }).notNull(),
    /** The other party's number of a call or a message, as sent (masked wherever it is shown). */
    otherParty: text('other_party'),
    /** The Usage's own description (TMF635), as sent. */
    description: text('description'),
    /** What the charging system rated the record at, øre with VAT; null when it sent none. */
    ratedOere: integer('rated_oere'),
    usedMb: integer('used_mb').notNull(),
    kind: text('kind', { enum: USAGE_RECORD_ZONES }).notNull(),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
    // How the record was rated against the roaming cap when it was booked (ADR 0078).
    /** MB of it beyond the included allowance that were charged. */
    chargedMb: integer('charged_mb').notNull().default(0),
    /** What those MB cost, øre with VAT. */
    chargeOere: integer('charge_oere').notNull().default(0),
    /** MB beyond the allowance booked while roaming was stopped: not charged. */
    writtenOffMb: integer('written_off_mb').notNull().default(0),
  },
  (t) => [
    index('usage_records_line_id_occurred_at_idx').on(t.lineId, t.occurredAt),
    check('usage_records_used_mb', sql`${t.usedMb} >= 0`),
    check(
      'usage_records_roaming',
      sql`${t.chargedMb} >= 0 and ${t.chargeOere} >= 0 and ${t.writtenOffMb} >= 0 and ${t.chargedMb} + ${t.writtenOffMb} <= ${t.usedMb}`,
    ),
    check(
      'usage_records_kind',
      sql`${t.kind} in ('domestic', 'eu') or (${t.kind} = 'world' and ${t.usageType} <> 'data')`,
    ),
    check('usage_records_type', sql`${t.usageType} ~ '^[a-z0-9][a-z0-9 _./-]{0,31}$'`),
    check(
      'usage_records_quantity',
      sql`${t.quantity} >= 0 and ${t.unit} in ('MB', 's', 'count') and (${t.unit} = 'MB') = (${t.usageType} = 'data')`,
    ),
    // Data is on a line and its quantity is what it booked; other use books nothing.
    check(
      'usage_records_data',
      sql`(${t.lineId} is null) = (${t.msisdn} is null) and case when ${t.usageType} = 'data' then ${t.lineId} is not null and ${t.quantity} = ${t.usedMb} else ${t.usedMb} = 0 and ${t.chargedMb} = 0 and ${t.chargeOere} = 0 and ${t.writtenOffMb} = 0 end`,
    ),
    check('usage_records_rated', sql`${t.ratedOere} is null or ${t.ratedOere} >= 0`),
  ],
);

/**
 * Data use per line per Faroese calendar day (ADR 0066), added to in the transaction that books
 * the records of the usage feed — so the usage history reads these rows and never the raw
 * records. Split by where it was used (`kind` of the records).
 */
export const usageDaily = pgTable(
  'usage_daily',
  {
    lineId: uuid('line_id')
      .notNull()
      .references(() => phoneLines.id, { onDelete: 'cascade' }),
    /** The Faroese calendar day the use happened (`occurred_at` in Atlantic/Faroe). */
    day: date('day', { mode: 'string' }).notNull(),
    domesticMb: integer('domestic_mb').notNull().default(0),
    euMb: integer('eu_mb').notNull().default(0),
    /** Roaming charges of the day's records, øre with VAT (ADR 0078). */
    roamingChargedOere: integer('roaming_charged_oere').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.lineId, t.day] }),
    check(
      'usage_daily_amounts',
      sql`${t.domesticMb} >= 0 and ${t.euMb} >= 0 and ${t.roamingChargedOere} >= 0`,
    ),
  ],
);

export const USAGE_ALERT_THRESHOLDS = [80, 100] as const;

/**
 * The usage alerts raised (ADR 0066): one row per line, Faroese month, bucket and threshold, so
 * each threshold is told once a month however the records arrive (retries, two feeds at once).
 */
export const usageAlerts = pgTable(
  'usage_alerts',
  {
    lineId: uuid('line_id')
      .notNull()
      .references(() => phoneLines.id, { onDelete: 'cascade' }),
    /** Faroese calendar month, `yyyy-mm`. */
    month: text('month').notNull(),
    kind: text('kind', { enum: USAGE_KINDS }).notNull(),
    threshold: integer('threshold').notNull(),
    raisedAt: timestamp('raised_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.lineId, t.month, t.kind, t.threshold] }),
    check('usage_alerts_month', sql`${t.month} ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'`),
    check('usage_alerts_kind', sql`${t.kind} in ('domestic', 'eu')`),
    check('usage_alerts_threshold', sql`${t.threshold} in (80, 100)`),
  ],
);

/**
 * The roaming cap notifications told (ADR 0078): one row per line, Faroese month, cap and
 * threshold, so each threshold of a cap is told once a month however the records arrive; a
 * raised cap has thresholds of its own.
 */
export const roamingCapAlerts = pgTable(
  'roaming_cap_alerts',
  {
    lineId: uuid('line_id')
      .notNull()
      .references(() => phoneLines.id, { onDelete: 'cascade' }),
    /** Faroese calendar month, `yyyy-mm`. */
    month: text('month').notNull(),
    capOere: integer('cap_oere').notNull(),
    threshold: integer('threshold').notNull(),
    raisedAt: timestamp('raised_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.lineId, t.month, t.capOere, t.threshold] }),
    check('roaming_cap_alerts_month', sql`${t.month} ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'`),
    check('roaming_cap_alerts_threshold', sql`${t.threshold} in (80, 100)`),
  ],
);

/**
 * A line's roaming charges of one Faroese month, owed (issue 33 §2, ADR 0078 "Billing"): written
 * by month end from the balance's month totals in the transaction that starts them over, so what
 * is billed is what the cap counted and home showed. Charged with the next monthly payment of the
 * account the line was on (`charged_order_id`, set in that payment's transaction) like an easy
 * number's one-off price (`number_fees`), and listed on its receipt as a line of its own.
 */
export const roamingCharges = pgTable(
  'roaming_charges',
  {
    lineId: uuid('line_id')
      .notNull()
      .references(() => phoneLines.id, { onDelete: 'cascade' }),
    /** The Faroese month the charges are for, `yyyy-mm` (the balance's month). */
    month: text('month').notNull(),
    /** The account the line was on at the month's end: its owner pays. */
    accountId: uuid('account_id').references(() => accounts.id, { onDelete: 'set null' }),
    msisdn: text('msisdn').notNull(),
    /** The month's charges, øre with VAT, and the MB they are for. */
    chargeOere: integer('charge_oere').notNull(),
    chargedMb: integer('charged_mb').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    /** The `subscription_payment` order that charged it; null until then. */
    chargedOrderId: uuid('charged_order_id').references(() => orders.id, { onDelete: 'set null' }),
    chargedAt: timestamp('charged_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.lineId, t.month] }),
    index('roaming_charges_account_id_idx').on(t.accountId),
    check('roaming_charges_month', sql`${t.month} ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'`),
    check('roaming_charges_amounts', sql`${t.chargeOere} > 0 and ${t.chargedMb} >= 0`),
  ],
);

export type LineBalanceRow = typeof lineBalances.$inferSelect;
export type NewLineBalanceRow = typeof lineBalances.$inferInsert;
export type GivenDataCounterRow = typeof givenDataCounters.$inferSelect;
export type PrepaidBalanceRow = typeof prepaidBalances.$inferSelect;
export type UsageRecordRow = typeof usageRecords.$inferSelect;
export type NewUsageRecordRow = typeof usageRecords.$inferInsert;
export type RoamingChargeRow = typeof roamingCharges.$inferSelect;
