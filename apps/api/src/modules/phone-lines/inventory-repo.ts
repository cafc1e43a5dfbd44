import {
  and,
  asc,
  count,
  countDistinct,
  desc,
  eq,
  gt,
  isNotNull,
  like,
  max,
  ne,
  notExists,
  or,
  sql,
  type SQL,
} from 'drizzle-orm';
import { alias, union } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client';
import { escapeLike } from '../../db/like';
import { numberReservations, phoneLines } from '../../db/schema/phone-lines';
import { numberReleases, type NumberReleaseRow } from '../../db/schema/staff';
import { users } from '../../db/schema/users';
import { PROVIDER_NUMBER_PREFIXES } from './numbering';
import { restsInQuarantine } from './repo';

/*
 * The number inventory's queries (staff console, issue 31). A number is in one state, the first
 * that holds: in use (a live line) → quarantined ({@link restsInQuarantine}) → reserved (an
 * unexpired sign-up reservation) → free. The quarantine condition is the one of repo.ts, which
 * the customer's number search uses too.
 */

/** Paging and search of a list: numbers containing `q`, after `after`, at most `limit`. */
export interface InventoryPage {
  q?: string;
  after?: string;
  limit: number;
}

/** The numbers of the provider's number plan, as SQL (`^[2579][0-9]{5}$`). */
const PLAN_PATTERN = `^[${PROVIDER_NUMBER_PREFIXES.join('')}][0-9]{5}$`;

/** `column` contains the digits of `q` (none: every number). */
function containing(column: Parameters<typeof like>[0], q: string | undefined): SQL | undefined {
  return q ? like(column, `%${escapeLike(q)}%`) : undefined;
}

const live = alias(phoneLines, 'live');

type MsisdnColumn =
  typeof phoneLines.msisdn | typeof numberReservations.msisdn | typeof users.phoneNumber;

/** No live line has the number of `column`. */
function noLiveLine(column: MsisdnColumn, db: Db) {
  return notExists(
    db
      .select({ one: sql`1` })
      .from(live)
      .where(and(eq(live.msisdn, column), ne(live.status, 'cancelled'))),
  );
}

/** No line with the number of `column` rests in quarantine ({@link restsInQuarantine}). */
function notQuarantined(column: MsisdnColumn, since: Date, db: Db) {
  const resting = alias(phoneLines, 'resting');
  return notExists(
    db
      .select({ one: sql`1` })
      .from(resting)
      .where(and(eq(resting.msisdn, column), restsInQuarantine(since, resting))),
  );
}

/**
 * A customer's own number that no line of ours has (still with another operator) and that does
 * not rest in quarantine: taken for the number search ("customer"), so in use here too.
 */
function ownNumberWithoutLine(db: Db, since: Date, q: string | undefined) {
  return and(
    isNotNull(users.phoneNumber),
    noLiveLine(users.phoneNumber, db),
    notQuarantined(users.phoneNumber, since, db),
    containing(users.phoneNumber, q),
  );
}

/** A line with a number now (active or being set up) containing `q`. */
function liveLineContaining(q: string | undefined) {
  return and(ne(phoneLines.status, 'cancelled'), containing(phoneLines.msisdn, q));
}

/** A line of a number resting in quarantine ({@link restsInQuarantine}) and in no live line. */
function quarantinedLine(db: Db, since: Date, q: string | undefined) {
  return and(
    restsInQuarantine(since),
    noLiveLine(phoneLines.msisdn, db),
    containing(phoneLines.msisdn, q),
  );
}

/** An unexpired reservation of a number neither in use nor quarantined. */
function liveReservation(db: Db, now: Date, since: Date, q: string | undefined) {
  return and(
    gt(numberReservations.expiresAt, now),
    noLiveLine(numberReservations.msisdn, db),
    notQuarantined(numberReservations.msisdn, since, db),
    containing(numberReservations.msisdn, q),
  );
}

/**
 * Numbers in use, in number order: lines with a number now (active or being set up), and
 * customers' own numbers without a line of ours (status and since null).
 */
export async function listInUse(db: Db, since: Date, page: InventoryPage) {
  const lines = db
    .select({
      msisdn: phoneLines.msisdn,
      status: sql<string | null>`${phoneLines.status}`.as('status'),
      since: sql<string | null>`${phoneLines.statusChangedAt}`.as('since'),
    })
    .from(phoneLines)
    .where(
      and(liveLineContaining(page.q), page.after ? gt(phoneLines.msisdn, page.after) : undefined),
    );
  const owners = db
    .selectDistinct({
      msisdn: sql<string>`${users.phoneNumber}`.as('msisdn'),
      status: sql<string | null>`null::text`.as('status'),
      since: sql<string | null>`null::timestamptz`.as('since'),
    })
    .from(users)
    .where(
      and(
        ownNumberWithoutLine(db, since, page.q),
        page.after ? gt(users.phoneNumber, page.after) : undefined,
      ),
    );
  const rows = await union(lines, owners)
    .orderBy(sql`msisdn`)
    .limit(page.limit + 1);
  return rows.map((row) => ({
    msisdn: row.msisdn,
    status:
      row.status === 'active' || row.status === 'processing'
        ? (row.status as 'active' | 'processing')
        : null,
    since: row.since === null ? null : new Date(row.since),
  }));
}

/**
 * Numbers resting in quarantine, with their latest unreleased cancellation and whether the number
 * is also a customer's own (registered) number, in number order.
 */
export async function listQuarantined(db: Db, since: Date, page: InventoryPage) {
  const cancelledAt = max(phoneLines.statusChangedAt);
  const customerNumber = sql<boolean>`exists (select 1 from ${users} where ${users.phoneNumber} = ${phoneLines.msisdn})`;
  const rows = await db
    .select({ msisdn: phoneLines.msisdn, cancelledAt, customerNumber })
    .from(phoneLines)
    .where(
      and(
        quarantinedLine(db, since, page.q),
        page.after ? gt(phoneLines.msisdn, page.after) : undefined,
      ),
    )
    .groupBy(phoneLines.msisdn)
    .orderBy(asc(phoneLines.msisdn))
    .limit(page.limit + 1);
  return rows.flatMap((row) =>
    row.cancelledAt
      ? [
          {
            msisdn: row.msisdn,
            cancelledAt: new Date(row.cancelledAt),
            customerNumber: Boolean(row.customerNumber),
          },
        ]
      : [],
  );
}

/** The number's line resting in quarantine now (its latest cancellation), locked for a release. */
export async function lockQuarantiningLine(db: Db, msisdn: string, since: Date) {
  const [row] = await db
    .select({ id: phoneLines.id, cancelledAt: phoneLines.statusChangedAt })
    .from(phoneLines)
    .where(and(eq(phoneLines.msisdn, msisdn), restsInQuarantine(since)))
    .orderBy(desc(phoneLines.statusChangedAt))
    .limit(1)
    .for('update');
  return row;
}

/** Unexpired reservations of numbers neither in use nor quarantined, in number order. */
export async function listReserved(db: Db, now: Date, since: Date, page: InventoryPage) {
  return db
    .select({
      msisdn: numberReservations.msisdn,
      expiresAt: numberReservations.expiresAt,
      userId: numberReservations.userId,
    })
    .from(numberReservations)
    .where(
      and(
        liveReservation(db, now, since, page.q),
        page.after ? gt(numberReservations.msisdn, page.after) : undefined,
      ),
    )
    .orderBy(asc(numberReservations.msisdn))
    .limit(page.limit + 1);
}

/**
 * How many numbers containing `q` are in use, quarantined and reserved, and how many of the
 * number plan are taken.
 */
export async function countStates(db: Db, now: Date, since: Date, q: string | undefined) {
  const [lines, owners, quarantined, reserved, taken] = await Promise.all([
    db.select({ n: count() }).from(phoneLines).where(liveLineContaining(q)),
    db
      .select({ n: countDistinct(users.phoneNumber) })
      .from(users)
      .where(ownNumberWithoutLine(db, since, q)),
    db
      .select({ n: countDistinct(phoneLines.msisdn) })
      .from(phoneLines)
      .where(quarantinedLine(db, since, q)),
    db
      .select({ n: count() })
      .from(numberReservations)
      .where(liveReservation(db, now, since, q)),
    countTakenInPlan(db, now, since, q),
  ]);
  return {
    inUse: Number(lines[0]?.n ?? 0) + Number(owners[0]?.n ?? 0),
    quarantined: Number(quarantined[0]?.n ?? 0),
    reserved: Number(reserved[0]?.n ?? 0),
    takenInPlan: taken,
  };
}

/**
 * How many numbers of the number plan containing `q` are taken by the rule of `takenNumbers`
 * (repo.ts): a live or resting line, an unexpired reservation, or a customer's own number.
 */
async function countTakenInPlan(db: Db, now: Date, since: Date, q: string | undefined) {
  const taken = union(
    db
      .select({ msisdn: phoneLines.msisdn })
      .from(phoneLines)
      .where(or(ne(phoneLines.status, 'cancelled'), restsInQuarantine(since))),
    db
      .select({ msisdn: numberReservations.msisdn })
      .from(numberReservations)
      .where(gt(numberReservations.expiresAt, now)),
    db
      .select({ msisdn: sql<string>`${users.phoneNumber}`.as('msisdn') })
      .from(users)
      .where(isNotNull(users.phoneNumber)),
  ).as('taken');
  const [row] = await db
    .select({ n: count() })
    .from(taken)
    .where(and(sql`${taken.msisdn} ~ ${PLAN_PATTERN}`, containing(taken.msisdn, q)));
  return Number(row?.n ?? 0);
}

export async function insertRelease(
  db: Db,
  values: { msisdn: string; releasedAt: Date; releasedBy: string; reason: string },
): Promise<NumberReleaseRow> {
  const [row] = await db.insert(numberReleases).values(values).returning();
  if (!row) throw new Error('number_releases insert returned no row');
  return row;
}
