import { z } from 'zod/mini';
import { staffReason } from './staff';

/*
 * The staff console's number inventory (issue 31, docs/decisions/0075-staff-console.md): the
 * numbers of the provider's number plan by state, and the early release of a number from its
 * quarantine. What makes a number taken is the phone-lines rule the customer's number search
 * uses (apps/api/src/modules/phone-lines/repo.ts), releases included.
 */

/**
 * Where a number of the number plan stands:
 * - `in-use`: a line has it (active, or being set up), or it is a customer's own (registered)
 *   number without a line of ours;
 * - `quarantined`: its line was cancelled less than NUMBER_QUARANTINE_DAYS ago and no staff
 *   member has released it since (ADR 0056): not offered yet;
 * - `reserved`: held by a customer's sign-up until the reservation expires (ADR 0024);
 * - `free`: none of those: the number search offers it.
 */
export const NUMBER_STATES = ['free', 'reserved', 'quarantined', 'in-use'] as const;
export const numberState = z.enum(NUMBER_STATES);
export type NumberState = z.infer<typeof numberState>;

const sixDigits = /^\d{6}$/;

/** GET /api/staff/numbers?state=&q=&after=&limit= */
export const staffNumbersQuery = z.object({
  state: z._default(numberState, 'quarantined'),
  /**
   * Digits the number contains (a prefix is a special case); spaces and a leading +298 or 00298
   * (the country code) are left out.
   */
  q: z.optional(
    z.pipe(
      z.pipe(
        z.string().check(z.trim(), z.maxLength(20)),
        z.transform((text) => text.replace(/\s+/g, '').replace(/^(\+298|00298(?=\d))/, '')),
      ),
      z.string().check(z.regex(/^\d{0,6}$/, 'digits')),
    ),
  ),
  /** Paging: numbers after this one (the answer's `nextAfter`). */
  after: z.optional(z.string().check(z.regex(sixDigits))),
  limit: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(200)), 50),
});
export type StaffNumbersQuery = z.infer<typeof staffNumbersQuery>;
export type StaffNumbersQueryInput = z.input<typeof staffNumbersQuery>;

const at = z.iso.datetime({ offset: true });

export const freeNumber = z.object({ state: z.literal('free'), msisdn: z.string() });

/** The customer's name is personal data: only their id (to open them in Customers). */
export const reservedNumber = z.object({
  state: z.literal('reserved'),
  msisdn: z.string(),
  reservedUntil: at,
  customerId: z.uuid(),
});

export const quarantinedNumber = z.object({
  state: z.literal('quarantined'),
  msisdn: z.string(),
  /** When its (latest) line was cancelled. */
  cancelledAt: at,
  /** When the number search offers it again, unless released before. */
  quarantineEndsAt: at,
  /**
   * It is also a customer's own (registered) number: the number search does not offer it even
   * after its quarantine, so it cannot be released (409 STAFF_ACTION_NOT_ALLOWED).
   */
  customerNumber: z.boolean(),
});

export const inUseNumber = z.object({
  state: z.literal('in-use'),
  msisdn: z.string(),
  /**
   * The status of the line that has the number; null for a customer's own (registered) number
   * that no line of ours has — with another operator, or its line ended: the number search
   * answers it as `customer`.
   */
  lineStatus: z.nullable(z.enum(['active', 'processing'])),
  /** Since when the line has that status (null without a line). */
  since: z.nullable(at),
});

export const staffNumber = z.discriminatedUnion('state', [
  freeNumber,
  reservedNumber,
  quarantinedNumber,
  inUseNumber,
]);
export type StaffNumber = z.infer<typeof staffNumber>;

/** How many numbers are in each state (matching `q`). */
export const staffNumberCounts = z.object({
  free: z.int().check(z.nonnegative()),
  reserved: z.int().check(z.nonnegative()),
  quarantined: z.int().check(z.nonnegative()),
  'in-use': z.int().check(z.nonnegative()),
});
export type StaffNumberCounts = z.infer<typeof staffNumberCounts>;

export const staffNumbersPage = z.object({
  state: numberState,
  /** In number order. */
  items: z.array(staffNumber),
  /** Pass as `after` for the next page; null on the last page. */
  nextAfter: z.nullable(z.string()),
  counts: staffNumberCounts,
  /** NUMBER_QUARANTINE_DAYS of the server. */
  quarantineDays: z.int().check(z.nonnegative()),
});
export type StaffNumbersPage = z.infer<typeof staffNumbersPage>;

/** POST /api/staff/numbers/:msisdn/release */
export const staffNumberParams = z.object({
  msisdn: z.string().check(z.regex(sixDigits, 'msisdn')),
});
export const staffNumberReleaseRequest = z.object({ reason: staffReason });
export type StaffNumberReleaseRequest = z.infer<typeof staffNumberReleaseRequest>;

export const staffNumberRelease = z.object({
  id: z.uuid(),
  msisdn: z.string(),
  releasedAt: at,
  releasedBy: z.string(),
  reason: z.string(),
  /** The cancellation whose quarantine the release ended. */
  cancelledAt: at,
});
export type StaffNumberRelease = z.infer<typeof staffNumberRelease>;
