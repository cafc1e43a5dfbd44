import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { userVersions } from '../../db/schema/data-transfers';

/**
 * Bumps the change version of these customers (docs/decisions/0041-polling-etag.md). Call it in
 * the transaction of the write; users are taken in id order so that two transactions bumping
 * the same customers never wait for each other in a circle.
 */
export async function bumpUserVersions(db: Db, userIds: readonly string[]): Promise<void> {
  const sorted = [...new Set(userIds)].sort();
  for (const userId of sorted) {
    await db
      .insert(userVersions)
      .values({ userId, version: 2 })
      .onConflictDoUpdate({
        target: userVersions.userId,
        set: { version: sql`${userVersions.version} + 1` },
      });
  }
}

/** The customer's change version; 1 before anything was written for them. */
export async function readUserVersion(db: Db, userId: string): Promise<number> {
  const [row] = await db
    .select({ version: userVersions.version })
    .from(userVersions)
    .where(eq(userVersions.userId, userId));
  return row?.version ?? 1;
}
