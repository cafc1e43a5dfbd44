import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Attempt counters of the security limits (login, one-time codes, reset e-mails), shared by
 * every API instance through the database. One row per key and fixed window; the limiter reads
 * the current and the previous window to approximate a sliding window
 * (docs/decisions/0021-rate-limits-and-lockout.md). Keys hold no personal data in clear: the
 * parts after the scope are hashed.
 */
export const rateLimitCounters = pgTable(
  'rate_limit_counters',
  {
    key: text('key').notNull(),
    windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
    count: integer('count').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.key, t.windowStart] }),
    index('rate_limit_counters_window_start_idx').on(t.windowStart),
    check('rate_limit_counters_count', sql`${t.count} >= 0`),
  ],
);

export type RateLimitCounterRow = typeof rateLimitCounters.$inferSelect;
