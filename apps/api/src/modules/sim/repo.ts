import { and, desc, eq, inArray, ne } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { accounts, type AccountRow } from '../../db/schema/accounts';
import { orders, type OrderRow } from '../../db/schema/orders';
import { phoneLines, type PhoneLineRow } from '../../db/schema/phone-lines';
import { users } from '../../db/schema/users';

/** Order kinds that set up a line's SIM through provisioning (ADR 0055). */
const PROVISIONED_KINDS = ['new_subscription', 'add_member', 'sim_change'] as const;

/** A line that is not cancelled, with its account (null when it is on none). */
export async function findLineWithAccount(
  db: Db,
  lineId: string,
): Promise<{ line: PhoneLineRow; account: AccountRow | null } | undefined> {
  const [row] = await db
    .select({ line: phoneLines, account: accounts })
    .from(phoneLines)
    .leftJoin(accounts, eq(accounts.id, phoneLines.accountId))
    .where(and(eq(phoneLines.id, lineId), ne(phoneLines.status, 'cancelled')));
  return row;
}

/** Whether the user has a line (not cancelled) on this account: a member of it. */
export async function isMemberOfAccount(
  db: Db,
  accountId: string,
  userId: string,
): Promise<boolean> {
  const [row] = await db
    .select({ id: phoneLines.id })
    .from(phoneLines)
    .where(
      and(
        eq(phoneLines.accountId, accountId),
        eq(phoneLines.userId, userId),
        ne(phoneLines.status, 'cancelled'),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** The user's own phone-book setting (the default of their numbers). */
export async function findShowInPhoneBook(db: Db, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ show: users.showInPhoneBook })
    .from(users)
    .where(eq(users.id, userId));
  return row?.show ?? false;
}

/**
 * The newest order that is setting up this line's SIM and is neither complete nor cancelled (a
 * new subscription, a member being added, a SIM change).
 */
export async function findProvisioningOrderOfLine(
  db: Db,
  lineId: string,
): Promise<OrderRow | undefined> {
  const [row] = await db
    .select()
    .from(orders)
    .where(
      and(
        eq(orders.lineId, lineId),
        inArray(orders.kind, [...PROVISIONED_KINDS]),
        eq(orders.isComplete, false),
        eq(orders.isCancelled, false),
      ),
    )
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(1);
  return row;
}

/** Sets the phone-book visibility of one number (null: follow the user's own setting). */
export async function updatePhoneBookVisible(
  db: Db,
  lineId: string,
  visible: boolean | null,
): Promise<void> {
  await db.update(phoneLines).set({ phoneBookVisible: visible }).where(eq(phoneLines.id, lineId));
}
