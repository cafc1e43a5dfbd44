import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { extraPackages, type ExtraPackageRow } from '../../db/schema/catalog';

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
