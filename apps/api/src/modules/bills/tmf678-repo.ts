import { and, asc, count, eq, gt, gte, lt, lte, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { billItems, bills } from '../../db/schema/bills';
import type { Tmf678Bill, Tmf678Item, Tmf678ItemBill } from './tmf678';

/*
 * The reads of TMF678 (tmf678-routes.ts): bills and their items, oldest first — by `issued_at`,
 * then id (the index `bills_issued_at_idx`) — so that a page walk stays put while bills are
 * added behind it. Only the columns the answer carries are selected: never the customer's name,
 * address or e-mail, nor an item's holder.
 */

const billColumns = {
  id: bills.id,
  number: bills.number,
  customerNumber: bills.customerNumber,
  period: bills.period,
  issuedAt: bills.issuedAt,
  dueDate: bills.dueDate,
  locale: bills.locale,
  vatRate: bills.vatRate,
  netOere: bills.netOere,
  vatOere: bills.vatOere,
  grossOere: bills.grossOere,
  paidOere: bills.paidOere,
} satisfies Record<keyof Tmf678Bill, unknown>;

const itemColumns = {
  id: billItems.id,
  billId: billItems.billId,
  msisdn: billItems.msisdn,
  kind: billItems.kind,
  descriptionFo: billItems.descriptionFo,
  descriptionEn: billItems.descriptionEn,
  netOere: billItems.netOere,
  vatOere: billItems.vatOere,
  grossOere: billItems.grossOere,
  paidAt: billItems.paidAt,
} satisfies Record<keyof Tmf678Item, unknown>;

const itemBillColumns = {
  issuedAt: bills.issuedAt,
  locale: bills.locale,
  vatRate: bills.vatRate,
} satisfies Record<keyof Tmf678ItemBill, unknown>;

/** The filters of the bill list (TMF630's `attribute.operator=value`). */
export interface BillFilter {
  /** `billingAccount.id`: the customer number. */
  customerNumber?: string;
  /** `billDate.gt`, `.gte`, `.lt`, `.lte`: when the bill was issued. */
  issuedGt?: Date;
  issuedGte?: Date;
  issuedLt?: Date;
  issuedLte?: Date;
}

export interface Page<T> {
  rows: T[];
  /** How many match, over all pages. */
  total: number;
}

function billWhere(filter: BillFilter): SQL | undefined {
  return and(
    filter.customerNumber !== undefined
      ? eq(bills.customerNumber, filter.customerNumber)
      : undefined,
    filter.issuedGt ? gt(bills.issuedAt, filter.issuedGt) : undefined,
    filter.issuedGte ? gte(bills.issuedAt, filter.issuedGte) : undefined,
    filter.issuedLt ? lt(bills.issuedAt, filter.issuedLt) : undefined,
    filter.issuedLte ? lte(bills.issuedAt, filter.issuedLte) : undefined,
  );
}

/** One page of the bills matching `filter`, and how many match. */
export async function listTmfBills(
  db: Db,
  filter: BillFilter,
  offset: number,
  limit: number,
): Promise<Page<Tmf678Bill>> {
  const where = billWhere(filter);
  const [rows, [counted]] = await Promise.all([
    db
      .select(billColumns)
      .from(bills)
      .where(where)
      .orderBy(asc(bills.issuedAt), asc(bills.id))
      .offset(offset)
      .limit(limit),
    db.select({ total: count() }).from(bills).where(where),
  ]);
  return { rows, total: counted?.total ?? 0 };
}

/** A bill by its id (a UUID: the caller checks). */
export async function findTmfBill(db: Db, id: string): Promise<Tmf678Bill | null> {
  const [row] = await db.select(billColumns).from(bills).where(eq(bills.id, id));
  return row ?? null;
}

export interface TmfItemRow {
  item: Tmf678Item;
  bill: Tmf678ItemBill;
}

/**
 * One page of the bill items — of one bill when `billId` is given (a UUID: the caller checks) —
 * in their bills' order and then their own, and how many there are.
 */
export async function listTmfItems(
  db: Db,
  billId: string | undefined,
  offset: number,
  limit: number,
): Promise<Page<TmfItemRow>> {
  const where = billId !== undefined ? eq(billItems.billId, billId) : undefined;
  const [rows, [counted]] = await Promise.all([
    db
      .select({ item: itemColumns, bill: itemBillColumns })
      .from(billItems)
      .innerJoin(bills, eq(bills.id, billItems.billId))
      .where(where)
      .orderBy(asc(bills.issuedAt), asc(bills.id), asc(billItems.position))
      .offset(offset)
      .limit(limit),
    db.select({ total: count() }).from(billItems).where(where),
  ]);
  return { rows, total: counted?.total ?? 0 };
}

/** A bill item by its id (a UUID: the caller checks), with what its rate needs of its bill. */
export async function findTmfItem(db: Db, id: string): Promise<TmfItemRow | null> {
  const [row] = await db
    .select({ item: itemColumns, bill: itemBillColumns })
    .from(billItems)
    .innerJoin(bills, eq(bills.id, billItems.billId))
    .where(eq(billItems.id, id));
  return row ?? null;
}
