import { and, asc, desc, eq, or, sql, type SQL } from 'drizzle-orm';
import { fromWireNumber } from '@alda/contract/rules/phone';
import { paymentMethodsResponse } from '@alda/contract/schemas/orders';
import type { Db } from '../../db/client';
import { firstUsersWhere, folded, foldedNameOfU } from '../../db/fold';
import { knownAnchor, olderThan } from '../../db/keyset';
import { escapeLike } from '../../db/like';
import { orders } from '../../db/schema/orders';
import {
  paymentRefunds,
  paymentWebhookEvents,
  payments,
  receipts,
  type PaymentState,
} from '../../db/schema/payments';
import { users } from '../../db/schema/users';
import { isUuid } from '../../uuid';

/*
 * The staff console's reads of payments (docs/decisions/0075-staff-console.md): the list with
 * search, and the parts of one payment. Reads only; every change of a payment goes through the
 * payments service (refunds: `requestRefund`).
 */

/**
 * A payment's refunds: paid back, and asked for but not paid back yet. Correlated per row
 * (payment_refunds_payment_id_idx), so a page reads the refunds of its own payments only.
 */
const refunded = (state: 'refunded' | 'pending') =>
  sql<number>`(select coalesce(sum(r.amount_oere), 0)::int from ${paymentRefunds} r where r.payment_id = ${payments.id} and r.state = ${state})`;

/** `+298 21 44 55`, `298214455`, `21 44 55` → `214455`; null when it is not a phone number. */
function phoneDigits(q: string): string | null {
  return fromWireNumber(q.replace(/[\s\-()]/g, '').replace(/^\+/, ''));
}

/** At most this many customers a name, number or e-mail stands for in a search. */
const SEARCH_CUSTOMERS = 100;

/**
 * What `q` finds: a payment or order by id (a uuid), a customer by phone number (theirs, or the
 * number the order was for) or e-mail (from its start), the provider's payment id, or a name
 * (part of it, case and Faroese letters folded). Each kind is the payments' ids found on an index
 * (`payments.id in (…)`, a semi-join), never an OR across the joined tables, which no index
 * serves; the provider's id with each provider's name (payments_provider_payment_id_uq). A name or an e-mail start stands for at most SEARCH_CUSTOMERS customers.
 */
function searchCondition(q: string): SQL | undefined {
  if (isUuid(q)) return or(eq(payments.id, q), eq(payments.orderId, q));
  const phone = phoneDigits(q);
  if (phone)
    return sql`${payments.id} in (
      select p.id from ${payments} p join ${users} u on u.id = p.user_id where u.phone_number = ${phone}
      union
      select p.id from ${payments} p join ${orders} o on o.id = p.order_id where o.msisdn = ${phone})`;
  if (q.includes('@'))
    return sql`${payments.userId} in ${firstUsersWhere(
      sql`u.email ilike ${`${escapeLike(q.toLowerCase())}%`}`,
      SEARCH_CUSTOMERS,
    )}`;
  return sql`${payments.id} in (
    select p.id from ${payments} p
     where p.provider in (${sql.join(
       paymentMethodsResponse.shape.provider.options.map((name) => sql`${name}`),
       sql`, `,
     )}) and p.provider_payment_id = ${q}
    union
    select p.id from ${payments} p where p.user_id in ${firstUsersWhere(
      sql`${foldedNameOfU} like ${folded(sql`${`%${escapeLike(q)}%`}`)}`,
      SEARCH_CUSTOMERS,
    )})`;
}

const paymentColumns = {
  id: payments.id,
  orderId: payments.orderId,
  orderKind: orders.kind,
  createdAt: payments.createdAt,
  updatedAt: payments.updatedAt,
  userId: payments.userId,
  firstname: users.firstname,
  lastname: users.lastname,
  amountOere: payments.amountOere,
  method: payments.method,
  state: payments.state,
  provider: payments.provider,
  providerPaymentId: payments.providerPaymentId,
  cardBrand: payments.cardBrand,
  cardLast4: payments.cardLast4,
  failureReason: payments.failureReason,
};

export type StaffPaymentRecord = Awaited<ReturnType<typeof listPayments>>[number];

/** Payments with their customer, order and refund totals: the staff list's rows and one payment. */
function selectPaymentRecords(db: Db) {
  return db
    .select({
      ...paymentColumns,
      refundedOere: refunded('refunded'),
      refundingOere: refunded('pending'),
    })
    .from(payments)
    .innerJoin(users, eq(users.id, payments.userId))
    .innerJoin(orders, eq(orders.id, payments.orderId))
    .$dynamic();
}

/**
 * Payments, newest first, matching `q` and `state`: at most `limit` rows, older than the payment
 * `before` when given (`olderThan`, db/keyset.ts). A `before` that is no payment is left out (the
 * newest rows), as the audit log does.
 */
export async function listPayments(
  db: Db,
  filter: {
    q?: string | undefined;
    state?: PaymentState | undefined;
    before?: string | undefined;
    limit: number;
  },
) {
  const where: SQL[] = [];
  if (filter.q) {
    const condition = searchCondition(filter.q);
    if (condition) where.push(condition);
  }
  if (filter.state) where.push(eq(payments.state, filter.state));
  // Served by payments_created_at_id_idx / payments_state_created_at_id_idx.
  const before = await knownAnchor(db, payments.id, filter.before);
  if (before) where.push(olderThan(payments.createdAt, payments.id, before));
  return selectPaymentRecords(db)
    .where(where.length > 0 ? and(...where) : undefined)
    .orderBy(desc(payments.createdAt), desc(payments.id))
    .limit(filter.limit);
}

/** One payment with its customer, order and refund totals. */
export async function findPaymentRecord(
  db: Db,
  id: string,
): Promise<StaffPaymentRecord | undefined> {
  const [row] = await selectPaymentRecords(db).where(eq(payments.id, id));
  return row;
}

/** The provider's webhooks about a payment, in the order they arrived. */
export async function eventsOfPayment(db: Db, paymentId: string) {
  return db
    .select({
      eventId: paymentWebhookEvents.eventId,
      type: paymentWebhookEvents.type,
      receivedAt: paymentWebhookEvents.receivedAt,
    })
    .from(paymentWebhookEvents)
    .where(eq(paymentWebhookEvents.paymentId, paymentId))
    .orderBy(
      asc(paymentWebhookEvents.receivedAt),
      // Events of the same instant in the order of a payment's life: pending before the outcome.
      sql`case ${paymentWebhookEvents.type} when 'payment.pending' then 0 else 1 end`,
      asc(paymentWebhookEvents.eventId),
    );
}

export async function refundsOfPayment(db: Db, paymentId: string) {
  return db
    .select()
    .from(paymentRefunds)
    .where(eq(paymentRefunds.paymentId, paymentId))
    .orderBy(asc(paymentRefunds.createdAt), asc(paymentRefunds.id));
}

export async function receiptOfPayment(db: Db, paymentId: string) {
  const [row] = await db
    .select({
      id: receipts.id,
      number: receipts.number,
      issuedAt: receipts.issuedAt,
      grossOere: receipts.grossOere,
    })
    .from(receipts)
    .where(eq(receipts.paymentId, paymentId));
  return row;
}
