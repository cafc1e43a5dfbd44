import { count, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { orders } from '../../db/schema/orders';
import { receipts, type NewReceiptRow, type ReceiptRow } from '../../db/schema/payments';
import { users, type UserRow } from '../../db/schema/users';

/** The next number of the receipt sequence (shared by all instances, never reused). */
export async function nextReceiptSerial(db: Db): Promise<number> {
  const [first] = rowsOf(await db.execute(sql`select nextval('receipt_number_seq') as n`));
  if (!first) throw new Error('receipt_number_seq gave nothing');
  return Number(first.n);
}

export async function insertReceipt(db: Db, row: NewReceiptRow): Promise<ReceiptRow> {
  const [inserted] = await db.insert(receipts).values(row).returning();
  if (!inserted) throw new Error('receipt insert returned nothing');
  return inserted;
}

/** A receipt with the kind of the order it is for. */
export type ReceiptWithKind = ReceiptRow & { orderKind: (typeof orders.$inferSelect)['kind'] };

const withKind = { receipt: receipts, orderKind: orders.kind };

/** One page of a customer's receipts, newest first, and how many there are. */
export async function findReceiptsOfUser(
  db: Db,
  userId: string,
  page: number,
  perPage: number,
): Promise<{ items: ReceiptWithKind[]; total: number }> {
  const rows = await db
    .select(withKind)
    .from(receipts)
    .innerJoin(orders, eq(orders.id, receipts.orderId))
    .where(eq(receipts.userId, userId))
    .orderBy(desc(receipts.issuedAt), desc(receipts.number))
    .limit(perPage)
    .offset(page * perPage);
  const [counted] = await db
    .select({ n: count() })
    .from(receipts)
    .where(eq(receipts.userId, userId));
  return {
    items: rows.map((r) => ({ ...r.receipt, orderKind: r.orderKind })),
    total: counted?.n ?? 0,
  };
}

/** One receipt by id (the service checks whose it is). */
export async function findReceipt(db: Db, id: string): Promise<ReceiptWithKind | undefined> {
  const [row] = await db
    .select(withKind)
    .from(receipts)
    .innerJoin(orders, eq(orders.id, receipts.orderId))
    .where(eq(receipts.id, id));
  return row ? { ...row.receipt, orderKind: row.orderKind } : undefined;
}

/** The customer a receipt is made out to. */
export async function findUser(db: Db, id: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id));
  return row;
}
