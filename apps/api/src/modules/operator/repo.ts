import { desc } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { operatorActions, type OperatorActionRow } from '../../db/schema/provisioning';

/** The newest `limit` operator commands, newest first. */
export async function findOperatorActions(db: Db, limit: number): Promise<OperatorActionRow[]> {
  return db
    .select()
    .from(operatorActions)
    .orderBy(desc(operatorActions.at), desc(operatorActions.id))
    .limit(limit);
}
