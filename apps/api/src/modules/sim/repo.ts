import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { orders, type OrderRow } from '../../db/schema/orders';
import { phoneLines } from '../../db/schema/phone-lines';
import { users } from '../../db/schema/users';

/** Order kinds that set up a line's SIM through provisioning (ADR 0055). */
const PROVISIONED_KINDS = ['new_subscription', 'add_member', 'sim_change'] as const;

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
