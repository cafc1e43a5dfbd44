import { and, asc, eq, ne } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { accounts } from '../../db/schema/accounts';
import { phoneLines, type PhoneLineRow } from '../../db/schema/phone-lines';

// Public to other modules: the line that has a number now (login by phone, registration), and a
// line locked with its account's owner for an owner's change (controls, the roaming cap).

/** The line that has this number now (any status but cancelled); at most one exists. */
export async function findLiveLine(db: Db, msisdn: string): Promise<PhoneLineRow | undefined> {
  const [row] = await db
    .select()
    .from(phoneLines)
    .where(and(eq(phoneLines.msisdn, msisdn), ne(phoneLines.status, 'cancelled')));
  return row;
}

/**
 * An active line of the user (the lowest number when there are several): the number a user
 * without a contact number of their own signs in with by phone.
 */
export async function findActiveLineOfUser(
  db: Db,
  userId: string,
): Promise<PhoneLineRow | undefined> {
  const [row] = await db
    .select()
    .from(phoneLines)
    .where(and(eq(phoneLines.userId, userId), eq(phoneLines.status, 'active')))
    .orderBy(asc(phoneLines.msisdn))
    .limit(1);
  return row;
}

/** A line locked for an owner's change, with its account's owner. */
export interface LineWithOwnerRow {
  line: PhoneLineRow;
  ownerUserId: string;
}

/**
 * Locks the line (`FOR UPDATE`) and reads its account's owner; undefined without an account. The
 * owner's changes of a member's number (owner controls, ADR 0068; the roaming cap, ADR 0078)
 * take this lock first, so two changes of one line run one after the other.
 */
export async function lockLineWithOwner(
  db: Db,
  lineId: string,
): Promise<LineWithOwnerRow | undefined> {
  const [row] = await db
    .select({ line: phoneLines, ownerUserId: accounts.ownerUserId })
    .from(phoneLines)
    .innerJoin(accounts, eq(phoneLines.accountId, accounts.id))
    .where(eq(phoneLines.id, lineId))
    .for('update', { of: phoneLines });
  return row;
}
