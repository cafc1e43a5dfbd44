import { and, asc, desc, eq, gte, inArray, lt, notInArray, or, sql, type SQL } from 'drizzle-orm';
import type { BillUsageType } from '@alda/contract/schemas/bills';
import type { Db } from '../../db/client';
import { billItems, bills, type BillItemRow, type BillRow } from '../../db/schema/bills';
import { usageRecords } from '../../db/schema/balances';

/** A bill with its items in their order. */
export interface BillWithItems {
  bill: BillRow;
  items: BillItemRow[];
}

/**
 * The bills a customer sees, newest first: those they pay, and those listing a number of theirs
 * (a family member's part of the owner's bill).
 */
export async function findBillsOfViewer(db: Db, userId: string): Promise<BillWithItems[]> {
  const rows = await db
    .select()
    .from(bills)
    .where(
      or(
        eq(bills.payerUserId, userId),
        sql`exists (select 1 from ${billItems} where ${billItems.billId} = ${bills.id} and ${billItems.lineUserId} = ${userId})`,
      ),
    )
    .orderBy(desc(bills.period), desc(bills.serial))
    .limit(120);
  return withItems(db, rows);
}

/** A customer's own bills (the staff console), newest first. */
export async function findBillsOfPayer(db: Db, userId: string): Promise<BillWithItems[]> {
  const rows = await db
    .select()
    .from(bills)
    .where(eq(bills.payerUserId, userId))
    .orderBy(desc(bills.period), desc(bills.serial))
    .limit(120);
  return withItems(db, rows);
}

export async function findBill(db: Db, id: string): Promise<BillWithItems | null> {
  const [bill] = await db.select().from(bills).where(eq(bills.id, id));
  if (!bill) return null;
  const [found] = await withItems(db, [bill]);
  return found ?? null;
}

async function withItems(db: Db, rows: BillRow[]): Promise<BillWithItems[]> {
  if (rows.length === 0) return [];
  const items = await db
    .select()
    .from(billItems)
    .where(
      inArray(
        billItems.billId,
        rows.map((b) => b.id),
      ),
    )
    .orderBy(asc(billItems.billId), asc(billItems.position));
  const byBill = new Map<string, BillItemRow[]>();
  for (const item of items) {
    const list = byBill.get(item.billId) ?? [];
    list.push(item);
    byBill.set(item.billId, list);
  }
  return rows.map((bill) => ({ bill, items: byBill.get(bill.id) ?? [] }));
}

const KNOWN_TYPES = ['voice', 'sms', 'data'] as const;

function typeFilter(type: BillUsageType | undefined): SQL | undefined {
  if (type === undefined) return undefined;
  if (type === 'other') return notInArray(usageRecords.usageType, [...KNOWN_TYPES]);
  return eq(usageRecords.usageType, type);
}

/** A line's use in [start, next), oldest first, one page, and how many there are in all. */
export async function findLineUsage(
  db: Db,
  args: {
    lineId: string;
    start: Date;
    next: Date;
    type: BillUsageType | undefined;
    offset: number;
    limit: number;
  },
) {
  const where = and(
    eq(usageRecords.lineId, args.lineId),
    gte(usageRecords.occurredAt, args.start),
    lt(usageRecords.occurredAt, args.next),
    typeFilter(args.type),
  );
  const [items, [count]] = await Promise.all([
    db
      .select({
        occurredAt: usageRecords.occurredAt,
        usageType: usageRecords.usageType,
        otherParty: usageRecords.otherParty,
        quantity: usageRecords.quantity,
        unit: usageRecords.unit,
        zone: usageRecords.kind,
        chargeOere: usageRecords.chargeOere,
      })
      .from(usageRecords)
      .where(where)
      .orderBy(asc(usageRecords.occurredAt), asc(usageRecords.recordId))
      .offset(args.offset)
      .limit(args.limit),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(usageRecords)
      .where(where),
  ]);
  return { items, total: count?.n ?? 0 };
}

/**
 * Takes the oldest bill whose customer is not told yet and no other instance is telling now: a
 * lease of `leaseMs`, written in its own short transaction (SKIP LOCKED), so the e-mail is sent
 * outside any transaction and two instances never send the same one at the same time.
 */
export async function leaseUnnotifiedBill(
  db: Db,
  now: Date,
  leaseMs: number,
): Promise<BillRow | null> {
  return db.transaction(async (tx) => {
    const [bill] = await tx
      .select()
      .from(bills)
      .where(
        and(
          sql`${bills.notifiedAt} is null`,
          sql`(${bills.notifyingUntil} is null or ${bills.notifyingUntil} <= ${now.toISOString()}::timestamptz)`,
        ),
      )
      .orderBy(asc(bills.issuedAt))
      .limit(1)
      .for('update', { skipLocked: true });
    if (!bill) return null;
    await tx
      .update(bills)
      .set({ notifyingUntil: new Date(now.getTime() + leaseMs) })
      .where(eq(bills.id, bill.id));
    return bill;
  });
}

export async function markNotified(db: Db, id: string, at: Date): Promise<void> {
  await db.update(bills).set({ notifiedAt: at, notifyingUntil: null }).where(eq(bills.id, id));
}
