import { and, asc, desc, gt, isNull, lte, or } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { statusMessages, type StatusMessageRow } from '../../db/schema/status-messages';

/**
 * Messages whose window contains `now`: started (no start, or start ≤ now) and not yet ended (no
 * end, or now < end). The window is half-open so consecutive messages never overlap
 * (docs/decisions/0010-status-message-window.md). Newest first.
 */
export async function findActiveStatusMessages(db: Db, now: Date): Promise<StatusMessageRow[]> {
  return db
    .select()
    .from(statusMessages)
    .where(
      and(
        or(isNull(statusMessages.activeFrom), lte(statusMessages.activeFrom, now)),
        or(isNull(statusMessages.activeTo), gt(statusMessages.activeTo, now)),
      ),
    )
    .orderBy(
      desc(statusMessages.activeFrom),
      asc(statusMessages.createdAt),
      asc(statusMessages.id),
    );
}
