import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { PackageRequestStatus } from '@alda/contract/schemas/controls';
import { extraPackages } from './catalog';
import { phoneLines } from './phone-lines';
import { users } from './users';

export const PACKAGE_REQUEST_STATUSES = [
  'pending',
  'approved',
  'declined',
  'withdrawn',
] as const satisfies readonly PackageRequestStatus[];

/** The unique index that lets one member ask for one package once at a time. */
export const ONE_PENDING_PACKAGE_REQUEST = 'package_requests_one_pending_uq';

/**
 * A member's request that the account owner buy an extra package for the member's number
 * (issue 16.3, docs/decisions/0068-owner-controls.md): made instead of a purchase when the owner
 * requires approval on the number. Pending until the owner's payment for it is paid (approved,
 * in the fulfilment transaction), the owner declines it or the member withdraws it. The owner's
 * orders for it point here (`orders.package_request_id`). The approver is copied from the
 * account when the row is made, so "requests for me" is one indexed lookup.
 */
export const packageRequests = pgTable(
  'package_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    lineId: uuid('line_id')
      .notNull()
      .references(() => phoneLines.id, { onDelete: 'cascade' }),
    packageId: text('package_id')
      .notNull()
      .references(() => extraPackages.id),
    requesterUserId: uuid('requester_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    approverUserId: uuid('approver_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: text('status', { enum: PACKAGE_REQUEST_STATUSES }).notNull().default('pending'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    /** The member's `Idempotency-Key`: a retried POST answers the first request. */
    idempotencyKey: text('idempotency_key'),
  },
  (t) => [
    uniqueIndex('package_requests_idempotency_uq')
      .on(t.requesterUserId, t.idempotencyKey)
      .where(sql`${t.idempotencyKey} is not null`),
    uniqueIndex(ONE_PENDING_PACKAGE_REQUEST)
      .on(t.lineId, t.packageId)
      .where(sql`${t.status} = 'pending'`),
    index('package_requests_approver_pending_idx')
      .on(t.approverUserId, t.createdAt)
      .where(sql`${t.status} = 'pending'`),
    index('package_requests_requester_pending_idx')
      .on(t.requesterUserId, t.createdAt)
      .where(sql`${t.status} = 'pending'`),
    check(
      'package_requests_status',
      sql`${t.status} in ('pending', 'approved', 'declined', 'withdrawn')`,
    ),
    check('package_requests_decided', sql`(${t.status} = 'pending') = (${t.decidedAt} is null)`),
  ],
);

export type PackageRequestRow = typeof packageRequests.$inferSelect;
export type NewPackageRequestRow = typeof packageRequests.$inferInsert;
