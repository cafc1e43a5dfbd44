import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { STAFF_ROLES, type StaffRole } from '@alda/contract/schemas/staff';

/*
 * The staff side (docs/decisions/0075-staff-console.md): staff accounts with password + TOTP,
 * their sessions, recovery codes; content versions and number releases that staff make.
 * The audit log is `operator_actions` (provisioning.ts), shared with the operator command.
 */

export const staffUsers = pgTable(
  'staff_users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Lower case, as typed at sign-in after trimming and lower-casing. */
    email: text('email').notNull(),
    name: text('name').notNull(),
    role: text('role', { enum: STAFF_ROLES as unknown as [StaffRole, ...StaffRole[]] }).notNull(),
    passwordHash: text('password_hash').notNull(),
    /** The TOTP secret (base32), encrypted with AES-256-GCM under a key derived from JWT_SECRET. */
    totpSecretEnc: text('totp_secret_enc').notNull(),
    /** The last RFC 6238 time step accepted: a code of that step or an earlier one is refused. */
    totpLastStep: bigint('totp_last_step', { mode: 'number' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
    /**
     * The command line's break-glass (ADR 0097): until then, a TOTP code signs this member in
     * even though their role requires passkeys, so they can enrol a new one. Null: no exception.
     */
    totpAllowedUntil: timestamp('totp_allowed_until', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('staff_users_email_uq').on(t.email),
    check('staff_users_role', sql`${t.role} in ('support', 'provisioning', 'content', 'admin')`),
    check('staff_users_email_lower', sql`${t.email} = lower(${t.email})`),
  ],
);

/** Ten single-use codes per enrolment, stored as SHA-256 (they are random, 50 bits each). */
export const staffRecoveryCodes = pgTable(
  'staff_recovery_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    staffUserId: uuid('staff_user_id')
      .notNull()
      .references(() => staffUsers.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('staff_recovery_codes_uq').on(t.staffUserId, t.codeHash)],
);

/**
 * A signed-in staff member: an opaque token (SHA-256 stored), 15 minutes idle, 8 hours at most.
 * Revoked at sign-out, sign-out everywhere, or when the account is disabled or its role changes.
 */
export const staffSessions = pgTable(
  'staff_sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    staffUserId: uuid('staff_user_id')
      .notNull()
      .references(() => staffUsers.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    userAgent: text('user_agent'),
  },
  (t) => [
    uniqueIndex('staff_sessions_token_hash_uq').on(t.tokenHash),
    index('staff_sessions_staff_user_id_idx').on(t.staffUserId),
  ],
);

/**
 * Terms and privacy as versions (both languages in one version): written as drafts, published
 * by a `content` staff member; publishing copies the version into `content_pages`, which the app
 * reads. A published version is never edited again.
 */
export const contentVersions = pgTable(
  'content_versions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    slug: text('slug', { enum: ['terms', 'privacy'] }).notNull(),
    version: integer('version').notNull(),
    titleFo: text('title_fo').notNull(),
    titleEn: text('title_en').notNull(),
    markdownFo: text('markdown_fo').notNull(),
    markdownEn: text('markdown_en').notNull(),
    createdBy: text('created_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    publishedBy: text('published_by'),
    publishedAt: timestamp('published_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('content_versions_slug_version_uq').on(t.slug, t.version),
    check('content_versions_slug', sql`${t.slug} in ('terms', 'privacy')`),
  ],
);

/**
 * A number let out of quarantine early by staff (issue 31): the quarantine after a cancelled
 * line ends for it at `released_at` (the number can be offered again), with who and why.
 */
export const numberReleases = pgTable(
  'number_releases',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    msisdn: text('msisdn').notNull(),
    releasedAt: timestamp('released_at', { withTimezone: true }).notNull().defaultNow(),
    releasedBy: text('released_by').notNull(),
    reason: text('reason').notNull(),
  },
  (t) => [
    index('number_releases_msisdn_idx').on(t.msisdn, t.releasedAt),
    check('number_releases_msisdn_6_digits', sql`${t.msisdn} ~ '^[0-9]{6}$'`),
  ],
);

export type StaffUserRow = typeof staffUsers.$inferSelect;
export type StaffSessionRow = typeof staffSessions.$inferSelect;
export type ContentVersionRow = typeof contentVersions.$inferSelect;
export type NumberReleaseRow = typeof numberReleases.$inferSelect;
