import type { Db } from '../../db/client';
import { actions, type NewActionRow } from '../../db/schema/actions';

// The activity log's public write: other modules add entries in the transaction of the change they log.

/** Appends entries to customers' activity logs (SPEC §1 "view the activity log"). */
export async function insertActions(db: Db, rows: NewActionRow[]): Promise<void> {
  if (rows.length > 0) await db.insert(actions).values(rows);
}
