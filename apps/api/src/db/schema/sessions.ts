import { sql } from 'drizzle-orm';
import {
  check,
  index,
  pgTable,
  text,
  timestamp,
  uuid,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { users } from './users';

/**
 * One row per sign-in: the "family" of refresh tokens that descend from one login. Its id is the
 * `sid` claim of every access token issued in it, so revoking the row ends the access tokens too
 * (docs/decisions/0012-token-sessions.md).
 */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    /**
     * Why the session ended: `logout`, `reuse` (a rotated refresh token was presented again),
     * `password_reset` or `password_change` (a new password ends the other sessions),
     * `signed_out` (the customer signed it out from another device, ADR 0059).
     */
    revokedReason: text('revoked_reason', {
      enum: ['logout', 'reuse', 'password_reset', 'password_change', 'signed_out'],
    }),
    userAgent: text('user_agent'),
    /**
     * Which device signed in, for "is this a new device?" (ADR 0059): the SHA-256 of the app's
     * installation id, or, when the sign-in sent none, of platform, model and user agent.
     */
    deviceKey: text('device_key'),
    /** The device meta the sign-in sent (SPEC §3), shown in the list of signed-in devices. */
    deviceName: text('device_name'),
    devicePlatform: text('device_platform', { enum: ['ios', 'android', 'web'] }),
    deviceModel: text('device_model'),
    deviceOsVersion: text('device_os_version'),
    /**
     * The country of the sign-in's IP address (ISO 3166-1 alpha-2) as the edge named it in
     * CLIENT_COUNTRY_HEADER; null when unknown (ADR 0059).
     */
    country: text('country'),
  },
  (t) => [
    check('sessions_country_iso', sql`${t.country} ~ '^[A-Z]{2}$'`),
    index('sessions_user_id_idx').on(t.userId),
    index('sessions_user_id_device_key_idx').on(t.userId, t.deviceKey),
  ],
);

/**
 * Opaque refresh tokens, stored only as their SHA-256. Each refresh marks the presented token
 * used and issues a child; seeing a used token again means it was stolen or replayed, and the
 * whole session is revoked.
 */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    /** Hex SHA-256 of the token; a 256-bit random token needs no salt or slow hash. */
    tokenHash: text('token_hash').notNull().unique(),
    parentId: uuid('parent_id').references((): AnyPgColumn => refreshTokens.id, {
      onDelete: 'set null',
    }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [index('refresh_tokens_session_id_idx').on(t.sessionId)],
);

export type SessionRow = typeof sessions.$inferSelect;
export type RefreshTokenRow = typeof refreshTokens.$inferSelect;
