import { sql } from 'drizzle-orm';
import { USAGE_ALERT_DEFAULTS } from '@alda/contract/schemas/auth';
import { QUIET_HOURS_DEFAULT } from '@alda/contract/schemas/push';
import {
  boolean,
  check,
  date,
  index,
  pgTable,
  smallint,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { folded } from '../fold';

/**
 * Customers who can sign in. E-mail is stored lower-cased so the unique constraint is also
 * case-insensitive; phone numbers are the 6 national digits (the 298 prefix is added only at the
 * edge, ARCHITECTURE "Conventions").
 */
export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    firstname: text('firstname').notNull(),
    lastname: text('lastname').notNull(),
    email: text('email').notNull().unique(),
    phoneNumber: text('phone_number').unique(),
    birthDate: date('birth_date', { mode: 'string' }),
    address: text('address'),
    postCode: text('post_code'),
    city: text('city'),
    locale: text('locale', { enum: ['fo', 'en'] })
      .notNull()
      .default('fo'),
    /** Null for customers who only sign in with a phone code (SPEC §7 request-pin/enter-pin). */
    passwordHash: text('password_hash'),
    /** Phone-book listing (SPEC §1); off by default, the customer opts in (privacy by default). */
    showInPhoneBook: boolean('show_in_phone_book').notNull().default(false),
    /**
     * Usage alerts (ADR 0066): a notification when a line the customer uses or owns passes 80 %
     * and 100 % of its month's data; each threshold on unless turned off in the profile, and
     * also by e-mail only when the customer chose it.
     */
    usageAlert80: boolean('usage_alert_80').notNull().default(USAGE_ALERT_DEFAULTS.at80),
    usageAlert100: boolean('usage_alert_100').notNull().default(USAGE_ALERT_DEFAULTS.at100),
    usageAlertEmail: boolean('usage_alert_email').notNull().default(USAGE_ALERT_DEFAULTS.email),
    /**
     * Quiet hours (ADR 0096): non-urgent pushes wait from `quiet_from` to `quiet_to`, minutes
     * after midnight Faroe time (`from > to` spans midnight).
     */
    quietHoursOn: boolean('quiet_hours_on').notNull().default(QUIET_HOURS_DEFAULT.on),
    quietFrom: smallint('quiet_from').notNull().default(QUIET_HOURS_DEFAULT.from),
    quietTo: smallint('quiet_to').notNull().default(QUIET_HOURS_DEFAULT.to),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('users_email_lower', sql`${t.email} = lower(${t.email})`),
    check('users_phone_number_6_digits', sql`${t.phoneNumber} ~ '^[0-9]{6}$'`),
    check('users_post_code_3_digits', sql`${t.postCode} ~ '^[0-9]{3}$'`),
    check('users_locale', sql`${t.locale} in ('fo', 'en')`),
    check(
      'users_quiet_hours',
      sql`${t.quietFrom} between 0 and 1439 and ${t.quietTo} between 0 and 1439 and ${t.quietFrom} <> ${t.quietTo}`,
    ),
    // The console's search by part of a name or an e-mail address (pg_trgm, ADR 0093).
    index('users_name_folded_trgm_idx').using(
      'gin',
      sql`${folded(sql`${t.firstname} || ' ' || ${t.lastname}`)} gin_trgm_ops`,
    ),
    index('users_email_trgm_idx').using('gin', sql`${t.email} gin_trgm_ops`),
  ],
);

export type UserRow = typeof users.$inferSelect;
export type NewUserRow = typeof users.$inferInsert;
