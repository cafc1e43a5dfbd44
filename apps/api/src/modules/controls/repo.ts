import { and, asc, desc, eq, inArray, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { extraPackages, type ExtraPackageRow } from '../../db/schema/catalog';
import {
  packageRequests,
  type NewPackageRequestRow,
  type PackageRequestRow,
} from '../../db/schema/controls';
import { orders, type OrderRow } from '../../db/schema/orders';
import { phoneLines, type PhoneLineRow } from '../../db/schema/phone-lines';
import { users } from '../../db/schema/users';

export async function updateLineControls(
  db: Db,
  lineId: string,
  patch: Partial<Pick<PhoneLineRow, 'dataPausedAt' | 'purchaseApproval'>>,
): Promise<PhoneLineRow> {
  const [row] = await db.update(phoneLines).set(patch).where(eq(phoneLines.id, lineId)).returning();
  if (!row) throw new Error(`line ${lineId} vanished under its lock`);
  return row;
}

export async function insertPackageRequest(
  db: Db,
  row: NewPackageRequestRow,
): Promise<PackageRequestRow> {
  const [inserted] = await db.insert(packageRequests).values(row).returning();
  if (!inserted) throw new Error('package request insert returned nothing');
  return inserted;
}

export async function findPackageRequest(
  db: Db,
  id: string,
): Promise<PackageRequestRow | undefined> {
  const [row] = await db.select().from(packageRequests).where(eq(packageRequests.id, id));
  return row;
}

export async function lockPackageRequest(
  db: Db,
  id: string,
): Promise<PackageRequestRow | undefined> {
  const [row] = await db
    .select()
    .from(packageRequests)
    .where(eq(packageRequests.id, id))
    .for('update');
  return row;
}

export async function findPackageRequestByKey(
  db: Db,
  requesterUserId: string,
  key: string,
): Promise<PackageRequestRow | undefined> {
  const [row] = await db
    .select()
    .from(packageRequests)
    .where(
      and(
        eq(packageRequests.requesterUserId, requesterUserId),
        eq(packageRequests.idempotencyKey, key),
      ),
    );
  return row;
}

/** The pending request for this package on this line, if any. */
export async function findPendingPackageRequest(
  db: Db,
  lineId: string,
  packageId: string,
): Promise<PackageRequestRow | undefined> {
  const [row] = await db
    .select()
    .from(packageRequests)
    .where(
      and(
        eq(packageRequests.lineId, lineId),
        eq(packageRequests.packageId, packageId),
        eq(packageRequests.status, 'pending'),
      ),
    );
  return row;
}

/** Pending requests the user made or decides, oldest first. */
export async function findPendingPackageRequestsOf(
  db: Db,
  userId: string,
): Promise<PackageRequestRow[]> {
  return db
    .select()
    .from(packageRequests)
    .where(
      and(
        eq(packageRequests.status, 'pending'),
        or(eq(packageRequests.requesterUserId, userId), eq(packageRequests.approverUserId, userId)),
      ),
    )
    .orderBy(asc(packageRequests.createdAt), asc(packageRequests.id));
}

export async function decidePackageRequest(
  db: Db,
  id: string,
  status: 'approved' | 'declined' | 'withdrawn',
  at: Date,
): Promise<PackageRequestRow> {
  const [row] = await db
    .update(packageRequests)
    .set({ status, decidedAt: at })
    .where(eq(packageRequests.id, id))
    .returning();
  if (!row) throw new Error(`package request ${id} vanished under its lock`);
  return row;
}

/** What a request's DTO shows besides the row: the line, the member's name, the package. */
export interface RequestFacts {
  lineId: string;
  msisdn: string;
  firstname: string;
  lastname: string;
  pkg: ExtraPackageRow;
}

export async function findRequestFacts(
  db: Db,
  rows: readonly PackageRequestRow[],
): Promise<Map<string, RequestFacts>> {
  if (rows.length === 0) return new Map();
  const found = await db
    .select({
      requestId: packageRequests.id,
      lineId: phoneLines.id,
      msisdn: phoneLines.msisdn,
      firstname: users.firstname,
      lastname: users.lastname,
      pkg: extraPackages,
    })
    .from(packageRequests)
    .innerJoin(phoneLines, eq(phoneLines.id, packageRequests.lineId))
    .innerJoin(users, eq(users.id, packageRequests.requesterUserId))
    .innerJoin(extraPackages, eq(extraPackages.id, packageRequests.packageId))
    .where(
      inArray(
        packageRequests.id,
        rows.map((r) => r.id),
      ),
    );
  return new Map(found.map(({ requestId, ...facts }) => [requestId, facts]));
}

/** The newest order placed for each request (the owner's payment of it), by request id. */
export async function findOrdersOfRequests(
  db: Db,
  ids: readonly string[],
): Promise<Map<string, OrderRow>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select()
    .from(orders)
    .where(inArray(orders.packageRequestId, [...ids]))
    .orderBy(desc(orders.createdAt));
  const out = new Map<string, OrderRow>();
  for (const row of rows)
    if (row.packageRequestId && !out.has(row.packageRequestId)) out.set(row.packageRequestId, row);
  return out;
}

/** The request's order whose payment is still open (pending, not cancelled), if any. */
export async function findOpenOrderOfRequest(
  db: Db,
  requestId: string,
): Promise<OrderRow | undefined> {
  const [row] = await db
    .select()
    .from(orders)
    .where(
      and(
        eq(orders.packageRequestId, requestId),
        eq(orders.paymentStatus, 'pending'),
        sql`not ${orders.isCancelled}`,
      ),
    );
  return row;
}
