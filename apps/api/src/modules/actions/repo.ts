import { count, desc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { actions, type ActionRow } from '../../db/schema/actions';
import { phoneLines } from '../../db/schema/phone-lines';
import { users } from '../../db/schema/users';

export interface ActionWithRefs {
  action: ActionRow;
  msisdn: string | null;
  actor: { id: string; firstname: string; lastname: string } | null;
}

/** The newest entries of a customer's log with the number and the actor, newest first. */
export async function findActionsOfUser(
  db: Db,
  userId: string,
  limit: number,
  offset = 0,
): Promise<ActionWithRefs[]> {
  const rows = await db
    .select({ action: actions, msisdn: phoneLines.msisdn })
    .from(actions)
    .leftJoin(phoneLines, eq(actions.lineId, phoneLines.id))
    .where(eq(actions.userId, userId))
    .orderBy(desc(actions.createdAt), desc(actions.id))
    .limit(limit)
    .offset(offset);
  const actorIds = [
    ...new Set(rows.flatMap((r) => (r.action.actorUserId ? [r.action.actorUserId] : []))),
  ];
  const actors =
    actorIds.length === 0
      ? []
      : await db
          .select({ id: users.id, firstname: users.firstname, lastname: users.lastname })
          .from(users)
          .where(inArray(users.id, actorIds));
  const byId = new Map(actors.map((a) => [a.id, a]));
  return rows.map((r) => ({
    action: r.action,
    msisdn: r.msisdn,
    actor: r.action.actorUserId ? (byId.get(r.action.actorUserId) ?? null) : null,
  }));
}

/** How many entries a customer's log has. */
export async function countActionsOfUser(db: Db, userId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(actions).where(eq(actions.userId, userId));
  return Number(row?.n ?? 0);
}
