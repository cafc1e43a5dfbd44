import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { STAFF_ROLES, type StaffRole } from '@alda/contract/schemas/staff';
import { sessions } from './sessions';
import { staffSessions, staffUsers } from './staff';
import { users } from './users';

/*
 * Passkeys (WebAuthn; docs/decisions/0097-passkeys.md): a customer's or a staff member's public
 * key credentials, the single-use challenges the options calls hand out, and the roles whose
 * admin requires passkeys instead of TOTP.
 */

/**
 * A public key credential: exactly one of `user_id` (a customer's) and `staff_user_id` (a staff
 * member's second factor). `credential_id` is unique across both: an authenticator's credential
 * is one account's. The counter and the backup flags are the authenticator's last answer, kept
 * and checked as @simplewebauthn/server does (a counter that does not rise is refused).
 */
export const passkeys = pgTable(
  'passkeys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    staffUserId: uuid('staff_user_id').references(() => staffUsers.id, { onDelete: 'cascade' }),
    /** The credential ID, base64url (WebAuthn L3 §6.5.1 credentialId). */
    credentialId: text('credential_id').notNull(),
    /** The COSE public key, base64url. */
    publicKey: text('public_key').notNull(),
    counter: bigint('counter', { mode: 'number' }).notNull().default(0),
    /** What the browser said the authenticator can be reached by (`internal`, `hybrid`, …). */
    transports: jsonb('transports').$type<string[]>().notNull().default([]),
    /** WebAuthn's BE flag: `multiDevice` credentials may be synced. */
    deviceType: text('device_type', { enum: ['singleDevice', 'multiDevice'] }).notNull(),
    /** WebAuthn's BS flag, updated at every use. */
    backedUp: boolean('backed_up').notNull(),
    aaguid: text('aaguid').notNull(),
    name: text('name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('passkeys_credential_id_uq').on(t.credentialId),
    index('passkeys_user_id_idx').on(t.userId),
    index('passkeys_staff_user_id_idx').on(t.staffUserId),
    check('passkeys_one_owner', sql`num_nonnulls(${t.userId}, ${t.staffUserId}) = 1`),
  ],
);

export type PasskeyRow = typeof passkeys.$inferSelect;

export const PASSKEY_PURPOSES = ['register', 'sign_in', 'staff_register', 'staff_sign_in'] as const;
export type PasskeyPurpose = (typeof PASSKEY_PURPOSES)[number];

/**
 * A challenge handed out by an options call, answered at most once (`used_at`) within five
 * minutes. A registration's is bound to the customer's session (or the staff session); a staff
 * sign-in's to the staff member whose password was right; a customer sign-in's to nobody (the
 * passkey names its user).
 */
export const passkeyChallenges = pgTable(
  'passkey_challenges',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    challenge: text('challenge').notNull(),
    purpose: text('purpose', { enum: PASSKEY_PURPOSES }).notNull(),
    sessionId: uuid('session_id').references(() => sessions.id, { onDelete: 'cascade' }),
    staffSessionId: uuid('staff_session_id').references(() => staffSessions.id, {
      onDelete: 'cascade',
    }),
    staffUserId: uuid('staff_user_id').references(() => staffUsers.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('passkey_challenges_challenge_uq').on(t.challenge),
    index('passkey_challenges_expires_at_idx').on(t.expiresAt),
    check(
      'passkey_challenges_purpose',
      sql`${t.purpose} in ('register', 'sign_in', 'staff_register', 'staff_sign_in')`,
    ),
  ],
);

export type PasskeyChallengeRow = typeof passkeyChallenges.$inferSelect;

/**
 * A role whose members must sign in with a passkey (ADR 0097): TOTP and recovery codes are
 * refused for it. No row: TOTP or a passkey, as the member likes.
 */
export const staffRolePolicies = pgTable(
  'staff_role_policies',
  {
    role: text('role', { enum: STAFF_ROLES as unknown as [StaffRole, ...StaffRole[]] }).primaryKey(),
    requirePasskey: boolean('require_passkey').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    check(
      'staff_role_policies_role',
      sql`${t.role} in ('support', 'provisioning', 'content', 'admin')`,
    ),
  ],
);
