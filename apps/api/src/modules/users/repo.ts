import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { users, type NewUserRow, type UserRow } from '../../db/schema/users';

/** Looks a user up by the stored (lower-cased) e-mail address. */
export async function findUserByEmail(
  db: Db,
  normalizedEmail: string,
): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.email, normalizedEmail));
  return row;
}

export async function findUserById(db: Db, id: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id));
  return row;
}

/** Inserts users whose id or e-mail is not taken yet; returns how many were new. */
export async function insertMissingUsers(db: Db, rows: NewUserRow[]): Promise<number> {
  if (rows.length === 0) return 0;
  const inserted = await db
    .insert(users)
    .values(rows)
    .onConflictDoNothing()
    .returning({ id: users.id });
  return inserted.length;
}

export async function countUsers(db: Db): Promise<number> {
  return db.$count(users);
}
