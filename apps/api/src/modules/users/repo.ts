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

/** The user whose own (contact) number this is: 6 digits. */
export async function findUserByPhoneNumber(
  db: Db,
  phoneNumber: string,
): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.phoneNumber, phoneNumber));
  return row;
}

/** The user row, locked until the transaction ends (delete and password changes). */
export async function lockUser(db: Db, id: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).for('update');
  return row;
}

export async function insertUser(db: Db, row: NewUserRow): Promise<UserRow> {
  const [inserted] = await db.insert(users).values(row).returning();
  if (!inserted) throw new Error('insert into users returned no row');
  return inserted;
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

export type UserChanges = Partial<
  Pick<
    UserRow,
    | 'firstname'
    | 'lastname'
    | 'email'
    | 'address'
    | 'postCode'
    | 'city'
    | 'locale'
    | 'showInPhoneBook'
    | 'passwordHash'
  >
>;

/** Applies the changes and returns the updated row (undefined when the user is gone). */
export async function updateUser(
  db: Db,
  id: string,
  changes: UserChanges,
): Promise<UserRow | undefined> {
  if (Object.keys(changes).length === 0) return findUserById(db, id);
  const [row] = await db.update(users).set(changes).where(eq(users.id, id)).returning();
  return row;
}

/** Deletes the user; sessions, tokens, codes and reservations go with it (foreign keys). */
export async function deleteUser(db: Db, id: string): Promise<boolean> {
  const deleted = await db.delete(users).where(eq(users.id, id)).returning({ id: users.id });
  return deleted.length > 0;
}

export async function countUsers(db: Db): Promise<number> {
  return db.$count(users);
}
