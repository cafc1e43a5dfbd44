import { z } from 'zod/mini';
import { roamingCap } from './roaming';
import { USAGE_RECORDS_MAX } from '../constants';
import { fromWireNumber, phoneNumber } from '../rules/phone';
import { isoDateTime, mb, oere } from './common';

/**
 * The usage feed: how data use reaches the self-care system. A charging system (or the demo
 * simulator) POSTs rated usage records to /api/usage/records with its service token. Not called
 * by the app.
 */

/** Where the data was used: at home, or roaming in the EU/EEA (drawn from the EU package first). */
export const usageKind = z.enum(['domestic', 'eu']);
export type UsageKind = z.infer<typeof usageKind>;

/**
 * A number as a charging system writes it: 6 digits, or with the country code (298…, +298…,
 * 00298…). Stored as the 6 digits.
 */
export const chargingNumber = z.pipe(
  z.pipe(
    z.string().check(z.trim()),
    z.transform((value) => fromWireNumber(value) ?? value),
  ),
  phoneNumber,
);

/** One rated usage record. `recordId` is the charging system's id: sending it again is a no-op. */
export const usageRecord = z.object({
  recordId: z.string().check(z.minLength(1), z.maxLength(128), z.regex(/^[\w.:-]+$/, 'INVALID')),
  phoneNumber: chargingNumber,
  /** Data used, whole MB (1 GB = 1024 MB). */
  usedMb: mb.check(z.lte(1_024_000)),
  kind: usageKind,
  /** When the use happened (the record's end), ISO 8601. */
  occurredAt: isoDateTime,
});
export type UsageRecord = z.output<typeof usageRecord>;

/** POST /api/usage/records. */
export const usageRecordsRequest = z.object({
  records: z.array(usageRecord).check(z.minLength(1), z.maxLength(USAGE_RECORDS_MAX)),
});
export type UsageRecordsRequest = z.output<typeof usageRecordsRequest>;

/** Why a record was not taken; the sender may retry it later (e.g. once the number is live). */
export const usageRejection = z.enum(['UNKNOWN_NUMBER']);

/** Answer of POST /api/usage/records. */
export const usageRecordsResponse = z.object({
  /** Records applied to a balance now. */
  accepted: z.int().check(z.nonnegative()),
  /** Records already received before (same recordId): ignored. */
  duplicates: z.int().check(z.nonnegative()),
  rejected: z.array(z.object({ recordId: z.string(), reason: usageRejection })),
});
export type UsageRecordsResponse = z.infer<typeof usageRecordsResponse>;

const dayOfYear = z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/));
const yearMonth = z.string().check(z.regex(/^\d{4}-(0[1-9]|1[0-2])$/));

/** One Faroese calendar day's data use of a line (ADR 0066), MB, by where it was used. */
export const usageDay = z.object({
  /** `yyyy-mm-dd`, a Faroese calendar day. */
  date: dayOfYear,
  domesticMb: mb,
  euMb: mb,
});
export type UsageDay = z.infer<typeof usageDay>;

/** One Faroese calendar month's data use of a line, MB. */
export const usageMonth = z.object({
  /** `yyyy-mm`. */
  month: yearMonth,
  domesticMb: mb,
  euMb: mb,
  /**
   * Charged for data abroad beyond what is included, øre with VAT (issue 33 §2, ADR 0078);
   * absent from answers older than it.
   */
  roamingChargedOere: z.optional(oere),
});
export type UsageMonth = z.infer<typeof usageMonth>;

/**
 * GET /api/subscriptions/{id}/usage-history (ADR 0066): a line's data use from the daily
 * aggregates the usage feed keeps — every day of the current Faroese month up to today (days
 * without use as 0) and the last 6 months, the current one included, oldest first — with the
 * plan's monthly data to draw in.
 */
export const usageHistoryResponse = z.object({
  /** The number, 6 digits. */
  phoneNumber: z.string(),
  /** The current Faroese month, `yyyy-mm`. */
  month: yearMonth,
  /** The plan's monthly data, MB; null without a plan (talutíð) or on an unlimited plan. */
  allowanceMb: z.nullable(mb),
  /** The EU package's monthly allowance, MB; null without one. */
  euAllowanceMb: z.nullable(mb),
  days: z.array(usageDay),
  months: z.array(usageMonth),
  /** When use was last booked on the line (the balance's `updatedAt`); null when never. */
  updatedAt: z.nullable(isoDateTime),
  /** This month's roaming charges and the cap (ADR 0078); absent from older answers. */
  roaming: z.optional(roamingCap),
});
export type UsageHistoryResponse = z.infer<typeof usageHistoryResponse>;
