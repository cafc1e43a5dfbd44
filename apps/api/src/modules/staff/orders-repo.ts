import { and, between, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { firstUsersWhere, folded, foldedNameOfU } from '../../db/fold';
import { knownAnchor } from '../../db/keyset';
import { escapeLike } from '../../db/like';
import { orders } from '../../db/schema/orders';
import { phoneLines, type PhoneLineStatus } from '../../db/schema/phone-lines';

/* The staff orders area's own reads (the rules are the operator and provisioning services'). */

/** An order's line as the order view shows it: its number and status. */
export async function findLineOfOrder(
  db: Db,
  lineId: string,
): Promise<{ id: string; msisdn: string; status: PhoneLineStatus } | undefined> {
  const [row] = await db
    .select({ id: phoneLines.id, msisdn: phoneLines.msisdn, status: phoneLines.status })
    .from(phoneLines)
    .where(eq(phoneLines.id, lineId));
  return row;
}

/** A page's `before` when it is an order, else undefined (the newest page). */
export const orderAnchor = (db: Db, before: string | undefined) =>
  knownAnchor(db, orders.id, before);

/** The shape of an order id: an id or its start (8 characters or more) is matched on it. */
const UUID_TEMPLATE = '00000000-0000-0000-0000-000000000000';

/** `q` as the start of an order id (lower case), or null when it is not one. */
function idStart(q: string): string | null {
  if (q.length < 8 || q.length > UUID_TEMPLATE.length) return null;
  for (let i = 0; i < q.length; i += 1) {
    const dash = UUID_TEMPLATE[i] === '-';
    if (dash ? q[i] !== '-' : !/[0-9a-f]/.test(q[i] ?? '')) return null;
  }
  return q;
}

/**
 * What the queue's `q` finds, as a condition on the order (so it runs over every order of the
 * filter, page by page), each kind on an index:
 * - a number, 6 digits (spaces, +298 or 00298 before allowed), or its start (1–5 digits):
 *   orders_msisdn_created_at_idx;
 * - an order id, or its start (8 characters or more): the primary key, as a range;
 * - else part of the customer's name (case and Faroese letters folded: "gudrun" and "GUÐRUN" find
 *   Guðrun) or e-mail: the trigram indexes on users, at most 100 customers, then
 *   orders_user_id_created_at_idx.
 * Undefined for an empty `q`.
 */
export function orderSearch(q: string): SQL | undefined {
  const text = q.trim().toLowerCase();
  if (!text) return undefined;
  const digits = text.replace(/[\s+]/g, '').replace(/^(00)?298(?=\d{6}$)/, '');
  if (/^\d{6}$/.test(digits)) return eq(orders.msisdn, digits);
  if (/^\d{1,5}$/.test(digits)) {
    // Numbers are digits only: those starting with `digits` sort between it and the next
    // prefix in any collation.
    const next = String(Number(digits) + 1).padStart(digits.length, '0');
    return and(
      gte(orders.msisdn, digits),
      digits === '9'.repeat(digits.length) ? undefined : lt(orders.msisdn, next),
    );
  }
  const start = idStart(text);
  if (start) {
    const rest = UUID_TEMPLATE.slice(start.length);
    return between(orders.id, start + rest, start + rest.replace(/0/g, 'f'));
  }
  const pattern = `%${escapeLike(text)}%`;
  // At most 100 customers (a common family name matches thousands): their orders are read on
  // orders_user_id_created_at_idx, not by a scan of every order.
  return sql`${orders.userId} in ${firstUsersWhere(
    sql`${foldedNameOfU} like ${folded(sql`${pattern}`)} or u.email ilike ${pattern}`,
    100,
  )}`;
}
