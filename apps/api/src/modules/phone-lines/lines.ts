import { and, asc, eq, ne } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { phoneLines, type PhoneLineRow } from '../../db/schema/phone-lines';

// Public to other modules: the line that has a number now (login by phone, registration).

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
