import { sql } from 'drizzle-orm';
import {
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './users';

/**
 * The one-time SMS codes of phone login (SPEC §7 request-pin / enter-pin), one row per number
 * and purpose: a new code replaces the old one, so only the latest code can ever work. Only an
 * HMAC of the code is kept. A code is single use (`consumed_at`), valid until `expires_at` and
 * dead after `attempts` reaches 5 (docs/decisions/0023-phone-login-codes.md).
 */
export const phoneLoginCodes = pgTable(
  'phone_login_codes',
  {
    msisdn: text('msisdn').notNull(),
    /**
     * What the code is for: `sign_in` (phone login) or `confirm` (a signed-in customer without a
     * password confirms signing other devices out, ADR 0059). A code works only for its purpose.
     */
    purpose: text('purpose', { enum: ['sign_in', 'confirm'] })
      .notNull()
      .default('sign_in'),
    /** The user the code signs in; the code is bound to this number and this user. */
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Hex HMAC-SHA256 of number and code under a key derived from JWT_SECRET. */
    codeHash: text('code_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ name: 'phone_login_codes_pkey', columns: [t.msisdn, t.purpose] }),
    check('phone_login_codes_purpose', sql`${t.purpose} in ('sign_in', 'confirm')`),
    check('phone_login_codes_msisdn_6_digits', sql`${t.msisdn} ~ '^[0-9]{6}$'`),
    check('phone_login_codes_attempts', sql`${t.attempts} >= 0`),
  ],
);

/**
 * Password reset links (SPEC §7 forgot-password / reset-password): 256-bit random tokens, kept
 * only as SHA-256, single use, valid one hour.
 */
export const passwordResetTokens = pgTable(
  'password_reset_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('password_reset_tokens_user_id_idx').on(t.userId)],
);

export type PhoneLoginCodeRow = typeof phoneLoginCodes.$inferSelect;
export type PasswordResetTokenRow = typeof passwordResetTokens.$inferSelect;
