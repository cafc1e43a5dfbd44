import { desc } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { operatorActions, type OperatorActionRow } from '../../db/schema/provisioning';

export interface NewOperatorAction {
  operator: string;
  verb: string;
  target: string | null;
  reason: string | null;
  at: Date;
}

/** Records one operator command; called in the transaction of the change it records. */
export async function insertOperatorAction(
  db: Db,
  action: NewOperatorAction,
): Promise<OperatorActionRow> {
  const [row] = await db.insert(operatorActions).values(action).returning();
  if (!row) throw new Error('operator_actions insert returned no row');
  return row;
}

/** The newest `limit` operator commands, newest first. */
export async function findOperatorActions(db: Db, limit: number): Promise<OperatorActionRow[]> {
  return db
    .select()
    .from(operatorActions)
    .orderBy(desc(operatorActions.at), desc(operatorActions.id))
    .limit(limit);
}
