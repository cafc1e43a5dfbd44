import { and, asc, eq, gt, inArray, ne, or, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client';
import {
  numberReservations,
  phoneLines,
  type NumberReservationRow,
} from '../../db/schema/phone-lines';
import { numberReleases } from '../../db/schema/staff';
import { users } from '../../db/schema/users';

/** The unexpired reservation of a number, if any. */
export async function findActiveReservation(
  db: Db,
  msisdn: string,
  now: Date,
): Promise<NumberReservationRow | undefined> {
  const [row] = await db
    .select()
    .from(numberReservations)
    .where(and(eq(numberReservations.msisdn, msisdn), gt(numberReservations.expiresAt, now)));
  return row;
}

/**
 * Reserves the number for the user until `expiresAt`, atomically: a new row, the user's own
 * reservation renewed (same id), or an expired one of someone else taken over (new id). Returns
 * undefined when another user holds an unexpired reservation — also when two callers race.
 */
export async function reserveNumber(
  db: Db,
  values: {
    msisdn: string;
    userId: string;
    now: Date;
    expiresAt: Date;
    /** The number's one-off price now (ADR 0077); a renewal keeps the price it was held at. */
    oneOff?: { numberClass: string; priceOere: number } | null;
  },
): Promise<NumberReservationRow | undefined> {
  const [row] = await db
    .insert(numberReservations)
    .values({
      msisdn: values.msisdn,
      userId: values.userId,
      createdAt: values.now,
      expiresAt: values.expiresAt,
      numberClass: values.oneOff?.numberClass ?? null,
      oneOffPriceOere: values.oneOff?.priceOere ?? null,
    })
    .onConflictDoUpdate({
      target: numberReservations.msisdn,
      set: {
        // Renewal keeps the id the client may already hold; a take-over gets a fresh one.
        id: sql`case when ${numberReservations.userId} = excluded.user_id then ${numberReservations.id} else excluded.id end`,
        createdAt: sql`case when ${numberReservations.userId} = excluded.user_id then ${numberReservations.createdAt} else excluded.created_at end`,
        numberClass: sql`case when ${numberReservations.userId} = excluded.user_id then ${numberReservations.numberClass} else excluded.number_class end`,
        oneOffPriceOere: sql`case when ${numberReservations.userId} = excluded.user_id then ${numberReservations.oneOffPriceOere} else excluded.one_off_price_oere end`,
        userId: sql`excluded.user_id`,
        expiresAt: sql`excluded.expires_at`,
      },
      setWhere: sql`${numberReservations.userId} = excluded.user_id or ${numberReservations.expiresAt} <= ${values.now.toISOString()}::timestamptz`,
    })
    .returning();
  return row;
}

/** Ends the user's unexpired reservations beyond the newest `keep`. */
export async function releaseOlderReservations(
  db: Db,
  userId: string,
  keep: number,
  now: Date,
): Promise<void> {
  const active = await db
    .select({ id: numberReservations.id })
    .from(numberReservations)
    .where(and(eq(numberReservations.userId, userId), gt(numberReservations.expiresAt, now)))
    .orderBy(asc(numberReservations.createdAt), asc(numberReservations.expiresAt));
  const surplus = active.slice(0, Math.max(0, active.length - keep)).map((r) => r.id);
  if (surplus.length > 0)
    await db.delete(numberReservations).where(inArray(numberReservations.id, surplus));
}

/**
 * THE quarantine rule, for a row of `phone_lines` (ADR 0056, issue 31): the line was cancelled
 * after `since` (now minus NUMBER_QUARANTINE_DAYS) and no staff member has released its number
 * since that cancellation (`number_releases`, a release at or after `status_changed_at`). Every
 * question "does this number rest?" — the number search, reservations, the staff inventory and
 * its release — asks it through this condition.
 */
export function restsInQuarantine(
  since: Date,
  /** `phone_lines`, or an alias of it in a subquery. */
  lines: { msisdn: AnyPgColumn; status: AnyPgColumn; statusChangedAt: AnyPgColumn } = phoneLines,
): SQL {
  return sql`(${lines.status} = 'cancelled' and ${gt(lines.statusChangedAt, since)} and not exists (select 1 from ${numberReleases} where ${numberReleases.msisdn} = ${lines.msisdn} and ${numberReleases.releasedAt} >= ${lines.statusChangedAt}))`;
}

/**
 * Whether the number rests in quarantine: a line with it was cancelled after `since` (now minus
 * NUMBER_QUARANTINE_DAYS, ADR 0056) and not released early by staff, so it is not given out yet.
 */
export async function isQuarantined(db: Db, msisdn: string, since: Date): Promise<boolean> {
  const [row] = await db
    .select({ id: phoneLines.id })
    .from(phoneLines)
    .where(and(eq(phoneLines.msisdn, msisdn), restsInQuarantine(since)))
    .limit(1);
  return row !== undefined;
}

/**
 * Which of the numbers are taken: a live line, a line cancelled after `quarantineSince` and not
 * released since (the number rests, {@link restsInQuarantine}), an unexpired reservation, or a
 * user's own number. Used to offer free numbers.
 */
export async function takenNumbers(
  db: Db,
  msisdns: string[],
  now: Date,
  quarantineSince: Date = now,
): Promise<Set<string>> {
  if (msisdns.length === 0) return new Set();
  const [lines, reservations, owners] = await Promise.all([
    db
      .select({ msisdn: phoneLines.msisdn })
      .from(phoneLines)
      .where(
        and(
          inArray(phoneLines.msisdn, msisdns),
          or(ne(phoneLines.status, 'cancelled'), restsInQuarantine(quarantineSince)),
        ),
      ),
    db
      .select({ msisdn: numberReservations.msisdn })
      .from(numberReservations)
      .where(
        and(inArray(numberReservations.msisdn, msisdns), gt(numberReservations.expiresAt, now)),
      ),
    db.select({ msisdn: users.phoneNumber }).from(users).where(inArray(users.phoneNumber, msisdns)),
  ]);
  return new Set(
    [...lines, ...reservations, ...owners].flatMap((r) => (r.msisdn ? [r.msisdn] : [])),
  );
}
