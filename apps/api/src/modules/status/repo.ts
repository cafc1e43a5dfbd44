import { and, asc, desc, eq, gt, isNull, or } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { recentWrites } from '../../db/recent-writes';
import { REFERENCE_WRITE_KEY } from '../../db/reference-memory';
import {
  statusMessages,
  type NewStatusMessageRow,
  type StatusMessageRow,
} from '../../db/schema/status-messages';

/**
 * Whether a message's window contains `now`: started (no start, or start ≤ now) and not yet
 * ended (no end, or now < end). The window is half-open so consecutive messages never overlap
 * (docs/decisions/0010-status-message-window.md).
 */
export function isInWindow(
  row: Pick<StatusMessageRow, 'activeFrom' | 'activeTo'>,
  now: Date,
): boolean {
  const t = now.getTime();
  return (
    (row.activeFrom === null || row.activeFrom.getTime() <= t) &&
    (row.activeTo === null || t < row.activeTo.getTime())
  );
}

/**
 * Messages not ended at `now` (no end, or now < end), also those still to start: a superset of
 * the messages in their window at any later time, until one changes. Newest first.
 */
export async function findOpenStatusMessages(db: Db, now: Date): Promise<StatusMessageRow[]> {
  return db
    .select()
    .from(statusMessages)
    .where(or(isNull(statusMessages.activeTo), gt(statusMessages.activeTo, now)))
    .orderBy(
      desc(statusMessages.activeFrom),
      asc(statusMessages.createdAt),
      asc(statusMessages.id),
    );
}

/** Every status message, newest first (the operator's `status list`). */
export async function findAllStatusMessages(db: Db, limit: number): Promise<StatusMessageRow[]> {
  return db
    .select()
    .from(statusMessages)
    .orderBy(desc(statusMessages.createdAt), desc(statusMessages.id))
    .limit(limit);
}

export async function insertStatusMessage(
  db: Db,
  row: NewStatusMessageRow,
): Promise<StatusMessageRow> {
  recentWrites.mark([REFERENCE_WRITE_KEY]);
  const [inserted] = await db.insert(statusMessages).values(row).returning();
  if (!inserted) throw new Error('status message insert returned no row');
  return inserted;
}

/** One message by id. */
export async function findStatusMessage(db: Db, id: string): Promise<StatusMessageRow | undefined> {
  const [row] = await db.select().from(statusMessages).where(eq(statusMessages.id, id));
  return row;
}

/**
 * Ends a message at `at` (its window closes: active_to = at) unless it has already ended by
 * then. Answers the updated row, or undefined when nothing changed (unknown id or ended).
 */
export async function endStatusMessageAt(
  db: Db,
  id: string,
  at: Date,
): Promise<StatusMessageRow | undefined> {
  recentWrites.mark([REFERENCE_WRITE_KEY]);
  const [row] = await db
    .update(statusMessages)
    .set({ activeTo: at })
    .where(
      and(
        eq(statusMessages.id, id),
        or(isNull(statusMessages.activeTo), gt(statusMessages.activeTo, at)),
      ),
    )
    .returning();
  return row;
}
