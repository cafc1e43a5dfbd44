import {
  and,
  asc,
  desc,
  eq,
  gte,
  ilike,
  inArray,
  like,
  lte,
  ne,
  or,
  sql,
  type SQL,
} from 'drizzle-orm';
import type { Db } from '../../db/client';
import { firstUsersWhere, foldedNameOfU } from '../../db/fold';
import { escapeLike } from '../../db/like';
import { accounts, type AccountRow } from '../../db/schema/accounts';
import { portOutRequests, type PortOutRequestRow } from '../../db/schema/number-protection';
import { orders, type OrderRow } from '../../db/schema/orders';
import { outboxMessages, type OutboxMessageRow } from '../../db/schema/outbox';
import {
  paymentRefunds,
  payments,
  type PaymentRefundRow,
  type PaymentRow,
} from '../../db/schema/payments';
import { phoneLines, type PhoneLineRow } from '../../db/schema/phone-lines';
import { sessions, type SessionRow } from '../../db/schema/sessions';
import { users } from '../../db/schema/users';

/*
 * The staff console's reads for the customers area (docs/decisions/0075-staff-console.md):
 * search keys, the parts of the customer view the customer-facing services do not answer for
 * someone else (lines with their accounts, orders, payments, sessions, outbox messages), and the
 * access grant (the `customer.open` audit entry of the staff session). Reads only: every change
 * goes through the owning module's service.
 */

/** The most rows of a kind the customer view shows (the newest). */
export const VIEW_LIMIT = 50;

/** A line's customer: its own user, and the owner of the account it is on. */
async function customersOfLines(db: Db, where: SQL | undefined): Promise<string[]> {
  const rows = await db
    .select({ userId: phoneLines.userId, ownerId: accounts.ownerUserId })
    .from(phoneLines)
    .leftJoin(accounts, eq(accounts.id, phoneLines.accountId))
    .where(where)
    .limit(100);
  return [...new Set(rows.flatMap((r) => [r.userId, r.ownerId].filter((id) => id !== null)))];
}

/** Customers with this sign-in number, or a live line with it (the user and the payer). */
export async function customersByPhone(db: Db, msisdn: string): Promise<string[]> {
  const [own, lines] = await Promise.all([
    db.select({ id: users.id }).from(users).where(eq(users.phoneNumber, msisdn)),
    customersOfLines(db, and(eq(phoneLines.msisdn, msisdn), ne(phoneLines.status, 'cancelled'))),
  ]);
  return [...new Set([...own.map((r) => r.id), ...lines])];
}

/**
 * Customers with a number that starts with `digits` (2–5 digits typed). Numbers are six digits,
 * so the prefix is the range of six-digit numbers it begins (the number indexes serve it, in any
 * collation: digits sort alike in all).
 */
export async function customersByPhonePrefix(db: Db, digits: string): Promise<string[]> {
  const from = digits.padEnd(6, '0');
  const to = digits.padEnd(6, '9');
  const [own, lines] = await Promise.all([
    db
      .select({ id: users.id })
      .from(users)
      .where(and(gte(users.phoneNumber, from), lte(users.phoneNumber, to)))
      .limit(100),
    customersOfLines(
      db,
      and(
        gte(phoneLines.msisdn, from),
        lte(phoneLines.msisdn, to),
        ne(phoneLines.status, 'cancelled'),
      ),
    ),
  ]);
  return [...new Set([...own.map((r) => r.id), ...lines])];
}

/**
 * Customers whose e-mail address contains `fragment` (lower case, as addresses are stored): the
 * trigram index users_email_trgm_idx serves it (ADR 0093).
 */
export async function customersByEmail(db: Db, fragment: string): Promise<string[]> {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(like(users.email, `%${escapeLike(fragment)}%`))
    .orderBy(asc(users.email))
    .limit(100);
  return rows.map((r) => r.id);
}

/** The most customers a search reads of one kind (the desk shows the first 20, in order). */
const SEARCH_READ_LIMIT = 100;

/**
 * Customers whose first or last name holds every word (each already folded to ASCII lower case),
 * e.g. ["gudrun", "poul"] finds Guðrun Poulsen; by name.
 *
 * Served by the trigram index on the same expression (users_name_folded_trgm_idx, ADR 0093) and
 * read without an ORDER BY: a common name matches thousands at a million lines, and sorting all
 * of them to show 20 cost 355 ms (p95) at 100,000 lines (ADR 0095). The first
 * SEARCH_READ_LIMIT the index gives (`firstUsersWhere`) are sorted here; when there are more,
 * the desk is told to narrow the search (`truncated`), as for every kind.
 */
export async function customersByName(db: Db, words: readonly string[]): Promise<string[]> {
  if (words.length === 0) return [];
  const matches = firstUsersWhere(
    and(...words.map((word) => sql`${foldedNameOfU} like ${`%${escapeLike(word)}%`}`)) ??
      sql`false`,
    SEARCH_READ_LIMIT,
  );
  const rows = await db
    .select({ id: users.id, firstname: users.firstname, lastname: users.lastname })
    .from(users)
    .where(sql`${users.id} in ${matches}`);
  return rows
    .sort(
      (a, b) =>
        a.firstname.localeCompare(b.firstname, 'fo') ||
        a.lastname.localeCompare(b.lastname, 'fo') ||
        a.id.localeCompare(b.id),
    )
    .map((r) => r.id);
}

/**
 * Customers with a SIM card number starting with `digits` (the check digit may be left off): the
 * SIM of a line, or the card an order named (the customer's own card, the card at the provider a
 * number is ported from).
 */
export async function customersByIccid(db: Db, digits: string): Promise<string[]> {
  const pattern = `${escapeLike(digits)}%`;
  const [lines, placed] = await Promise.all([
    customersOfLines(db, ilike(phoneLines.iccid, pattern)),
    db
      .select({ id: orders.userId })
      .from(orders)
      .where(or(ilike(orders.simcardNumber, pattern), ilike(orders.portingSimcardNumber, pattern)))
      .limit(100),
  ]);
  return [...new Set([...lines, ...placed.map((r) => r.id)])];
}

/** The customer who placed an order. */
export async function customerOfOrder(db: Db, orderId: string): Promise<string | undefined> {
  const [row] = await db.select({ id: orders.userId }).from(orders).where(eq(orders.id, orderId));
  return row?.id;
}

/** The live numbers each customer uses or pays for, by customer id. */
export async function liveNumbersOf(
  db: Db,
  userIds: readonly string[],
): Promise<Map<string, string[]>> {
  const numbers = new Map<string, string[]>(userIds.map((id) => [id, []]));
  if (userIds.length === 0) return numbers;
  // Two reads on indexes — the lines they use, the lines on the accounts they own — instead
  // of one with an OR across the join, which no index serves (ADR 0093).
  const select = () =>
    db
      .select({
        msisdn: phoneLines.msisdn,
        userId: phoneLines.userId,
        ownerId: accounts.ownerUserId,
        createdAt: phoneLines.createdAt,
      })
      .from(phoneLines)
      .leftJoin(accounts, eq(accounts.id, phoneLines.accountId));
  const [used, owned] = await Promise.all([
    select().where(
      and(ne(phoneLines.status, 'cancelled'), inArray(phoneLines.userId, [...userIds])),
    ),
    select().where(
      and(ne(phoneLines.status, 'cancelled'), inArray(accounts.ownerUserId, [...userIds])),
    ),
  ]);
  const rows = [...used, ...owned].sort(
    (a, b) =>
      a.createdAt.getTime() - b.createdAt.getTime() ||
      (a.msisdn < b.msisdn ? -1 : a.msisdn > b.msisdn ? 1 : 0),
  );
  for (const row of rows) {
    for (const id of new Set([row.userId, row.ownerId])) {
      const list = id ? numbers.get(id) : undefined;
      if (list && !list.includes(row.msisdn)) list.push(row.msisdn);
    }
  }
  return numbers;
}

export interface LineWithAccount {
  line: PhoneLineRow;
  account: AccountRow | null;
}

/** Lines the customer uses or whose account they own (cancelled ones too), live ones first. */
export async function findLinesOfCustomer(db: Db, userId: string): Promise<LineWithAccount[]> {
  return db
    .select({ line: phoneLines, account: accounts })
    .from(phoneLines)
    .leftJoin(accounts, eq(accounts.id, phoneLines.accountId))
    .where(or(eq(phoneLines.userId, userId), eq(accounts.ownerUserId, userId)))
    .orderBy(
      sql`case when ${phoneLines.status} = 'cancelled' then 1 else 0 end`,
      asc(phoneLines.createdAt),
      asc(phoneLines.id),
    )
    .limit(VIEW_LIMIT);
}

export async function findAccount(db: Db, id: string): Promise<AccountRow | undefined> {
  const [row] = await db.select().from(accounts).where(eq(accounts.id, id));
  return row;
}

export type PortOutAttemptRow = Pick<
  PortOutRequestRow,
  'lineId' | 'provider' | 'outcome' | 'reason' | 'createdAt'
>;

/**
 * The newest `perLine` port-out requests of each line, newest first, in one query (ranked per
 * line). The numbers narrow it first, so the `(msisdn, created_at)` index serves it; the line ids
 * keep out a request for the same number on another line (a number given out again).
 */
export async function findPortOutAttemptsOfLines(
  db: Db,
  lines: ReadonlyArray<{ id: string; msisdn: string }>,
  perLine: number,
): Promise<PortOutAttemptRow[]> {
  if (lines.length === 0) return [];
  const ranked = db
    .select({
      lineId: portOutRequests.lineId,
      provider: portOutRequests.provider,
      outcome: portOutRequests.outcome,
      reason: portOutRequests.reason,
      createdAt: portOutRequests.createdAt,
      rank: sql<number>`row_number() over (partition by ${portOutRequests.lineId} order by ${portOutRequests.createdAt} desc, ${portOutRequests.id} desc)`.as(
        'rank',
      ),
    })
    .from(portOutRequests)
    .where(
      and(
        inArray(portOutRequests.msisdn, [...new Set(lines.map((l) => l.msisdn))]),
        inArray(
          portOutRequests.lineId,
          lines.map((l) => l.id),
        ),
      ),
    )
    .as('ranked');
  return db
    .select({
      lineId: ranked.lineId,
      provider: ranked.provider,
      outcome: ranked.outcome,
      reason: ranked.reason,
      createdAt: ranked.createdAt,
    })
    .from(ranked)
    .where(lte(ranked.rank, perLine))
    .orderBy(asc(ranked.lineId), asc(ranked.rank));
}

/** Orders the customer placed, or that concern a line they use; newest first. */
export async function findOrdersOfCustomer(
  db: Db,
  userId: string,
  lineIds: readonly string[],
): Promise<OrderRow[]> {
  const concerns =
    lineIds.length > 0
      ? or(eq(orders.userId, userId), inArray(orders.lineId, [...lineIds]))
      : eq(orders.userId, userId);
  return db
    .select()
    .from(orders)
    .where(concerns)
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(VIEW_LIMIT);
}

export interface PaymentWithKind {
  payment: PaymentRow;
  orderKind: OrderRow['kind'];
}

/** The customer's payments, newest first, with the kind of order each paid for. */
export async function findPaymentsOfCustomer(db: Db, userId: string): Promise<PaymentWithKind[]> {
  return db
    .select({ payment: payments, orderKind: orders.kind })
    .from(payments)
    .innerJoin(orders, eq(orders.id, payments.orderId))
    .where(eq(payments.userId, userId))
    .orderBy(desc(payments.createdAt), desc(payments.id))
    .limit(VIEW_LIMIT);
}

export async function findRefundsOfPayments(
  db: Db,
  paymentIds: readonly string[],
): Promise<PaymentRefundRow[]> {
  if (paymentIds.length === 0) return [];
  return db
    .select()
    .from(paymentRefunds)
    .where(inArray(paymentRefunds.paymentId, [...paymentIds]))
    .orderBy(asc(paymentRefunds.createdAt), asc(paymentRefunds.id));
}

/** Every session of the customer, live or ended, the most recently used first. */
export async function findSessionsOfCustomer(db: Db, userId: string): Promise<SessionRow[]> {
  return db
    .select()
    .from(sessions)
    .where(eq(sessions.userId, userId))
    .orderBy(desc(sessions.lastUsedAt), desc(sessions.createdAt))
    .limit(VIEW_LIMIT);
}

/** Outbox messages to any of `recipients` (as stored: lower-case address, `298` + number). */
export async function findOutboxMessagesTo(
  db: Db,
  recipients: readonly string[],
): Promise<OutboxMessageRow[]> {
  if (recipients.length === 0) return [];
  return db
    .select()
    .from(outboxMessages)
    .where(inArray(outboxMessages.recipient, [...recipients]))
    .orderBy(desc(outboxMessages.createdAt), desc(outboxMessages.id))
    .limit(VIEW_LIMIT);
}

export async function findOutboxMessage(db: Db, id: string): Promise<OutboxMessageRow | undefined> {
  const [row] = await db.select().from(outboxMessages).where(eq(outboxMessages.id, id));
  return row;
}
