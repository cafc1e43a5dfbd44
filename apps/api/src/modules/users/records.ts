import { eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { users, type NewUserRow, type UserRow } from '../../db/schema/users';

// Public to other modules: user records as sign-in and registration (modules/auth) read and write them.

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

/** The users of these ids (each once; unknown ids are left out), in no particular order. */
export async function findUsersByIds(db: Db, ids: readonly string[]): Promise<UserRow[]> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return [];
  return db.select().from(users).where(inArray(users.id, unique));
}

/** The user whose own (contact) number this is: 6 digits. */
export async function findUserByPhoneNumber(
  db: Db,
  phoneNumber: string,
): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.phoneNumber, phoneNumber));
  return row;
}

export async function insertUser(db: Db, row: NewUserRow): Promise<UserRow> {
  const [inserted] = await db.insert(users).values(row).returning();
  if (!inserted) throw new Error('insert into users returned no row');
  return inserted;
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
    | 'usageAlert80'
    | 'usageAlert100'
    | 'usageAlertEmail'
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
