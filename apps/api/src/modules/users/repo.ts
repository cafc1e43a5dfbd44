import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { phoneLines } from '../../db/schema/phone-lines';
import { users, type UserRow } from '../../db/schema/users';

/** The user row, locked until the transaction ends (delete and password changes). */
export async function lockUser(db: Db, id: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).for('update');
  return row;
}

/** Deletes the user; sessions, tokens, codes and reservations go with it (foreign keys). */
export async function deleteUser(db: Db, id: string): Promise<boolean> {
  const deleted = await db.delete(users).where(eq(users.id, id)).returning({ id: users.id });
  return deleted.length > 0;
}

/** Lines of the user that are active or still being set up (SPEC §6: delete only without these). */
export async function countLiveLinesOfUser(db: Db, userId: string): Promise<number> {
  return db.$count(
    phoneLines,
    and(eq(phoneLines.userId, userId), inArray(phoneLines.status, ['active', 'processing'])),
  );
}
