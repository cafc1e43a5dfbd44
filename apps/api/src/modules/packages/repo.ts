import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import {
  extraPackages,
  type ExtraPackageRow,
  type NewExtraPackageRow,
} from '../../db/schema/catalog';

/** Extra packages on offer, in catalogue order. */
export async function findOfferedPackages(db: Db): Promise<ExtraPackageRow[]> {
  return db
    .select()
    .from(extraPackages)
    .where(eq(extraPackages.isOffered, true))
    .orderBy(asc(extraPackages.sortOrder), asc(extraPackages.id));
}

/** One package on offer by id. */
export async function findOfferedPackage(db: Db, id: string): Promise<ExtraPackageRow | undefined> {
  const [row] = await db
    .select()
    .from(extraPackages)
    .where(and(eq(extraPackages.id, id), eq(extraPackages.isOffered, true)));
  return row;
}

/** Inserts packages whose id is new (demo seed). */
export async function insertMissingPackages(db: Db, rows: NewExtraPackageRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db.insert(extraPackages).values(rows).onConflictDoNothing();
}
