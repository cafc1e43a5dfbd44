import { and, count, desc, eq, gt, isNull, max } from 'drizzle-orm';
import type { Db } from '../../db/client';
import {
  partnerCalls,
  partnerClients,
  partnerTokens,
  type PartnerClientRow,
} from '../../db/schema/number-protection';

/* The partner clients, their tokens and the count of their calls (issue 32). */

export async function insertClient(
  db: Db,
  values: {
    clientId: string;
    name: string;
    secretHash: string;
    scopes: string[];
    createdBy: string;
    createdAt: Date;
  },
): Promise<PartnerClientRow> {
  const [row] = await db.insert(partnerClients).values(values).returning();
  if (!row) throw new Error('partner_clients insert returned no row');
  return row;
}

export async function clientByClientId(
  db: Db,
  clientId: string,
): Promise<PartnerClientRow | undefined> {
  const [row] = await db.select().from(partnerClients).where(eq(partnerClients.clientId, clientId));
  return row;
}

export interface ClientWithCalls {
  client: PartnerClientRow;
  lastCallAt: Date | null;
  callCount: number;
}

/**
 * Every client (or the one of `clientId`), newest first, with its latest call and number of
 * calls (one query).
 */
export async function listClients(db: Db, clientId?: string): Promise<ClientWithCalls[]> {
  const calls = db
    .select({
      partnerId: partnerCalls.partnerId,
      lastCallAt: max(partnerCalls.createdAt).as('last_call_at'),
      callCount: count().as('call_count'),
    })
    .from(partnerCalls)
    .groupBy(partnerCalls.partnerId)
    .as('calls');
  const rows = await db
    .select({ client: partnerClients, lastCallAt: calls.lastCallAt, callCount: calls.callCount })
    .from(partnerClients)
    .leftJoin(calls, eq(calls.partnerId, partnerClients.id))
    .where(clientId === undefined ? undefined : eq(partnerClients.clientId, clientId))
    .orderBy(desc(partnerClients.createdAt), desc(partnerClients.id));
  return rows.map((row) => ({
    client: row.client,
    lastCallAt: row.lastCallAt === null ? null : new Date(row.lastCallAt),
    callCount: Number(row.callCount ?? 0),
  }));
}

/** Sets disabled_at once. */
export async function disableClient(db: Db, clientId: string, at: Date): Promise<void> {
  await db
    .update(partnerClients)
    .set({ disabledAt: at })
    .where(and(eq(partnerClients.clientId, clientId), isNull(partnerClients.disabledAt)));
}

export async function insertToken(
  db: Db,
  values: {
    partnerId: string;
    tokenHash: string;
    scopes: string[];
    createdAt: Date;
    expiresAt: Date;
  },
): Promise<void> {
  await db.insert(partnerTokens).values(values);
}

/** A token that is not expired, of a client that is not disabled. */
export async function liveToken(db: Db, tokenHash: string, at: Date) {
  const [row] = await db
    .select({
      partnerId: partnerClients.id,
      clientId: partnerClients.clientId,
      name: partnerClients.name,
      scopes: partnerTokens.scopes,
    })
    .from(partnerTokens)
    .innerJoin(partnerClients, eq(partnerClients.id, partnerTokens.partnerId))
    .where(
      and(
        eq(partnerTokens.tokenHash, tokenHash),
        gt(partnerTokens.expiresAt, at),
        isNull(partnerClients.disabledAt),
      ),
    );
  return row;
}
