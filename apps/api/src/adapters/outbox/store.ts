import { desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import {
  outboxMessages,
  type NewOutboxMessageRow,
  type OutboxMessageRow,
} from '../../db/schema/outbox';

export async function insertOutboxMessage(
  db: Db,
  row: NewOutboxMessageRow,
): Promise<OutboxMessageRow> {
  const [inserted] = await db.insert(outboxMessages).values(row).returning();
  if (!inserted) throw new Error('insert into outbox_messages returned no row');
  return inserted;
}

/** Newest first; only those to `recipient` when given. */
export async function listOutboxMessages(
  db: Db,
  options: { recipient?: string | undefined; limit: number },
): Promise<OutboxMessageRow[]> {
  const query = db.select().from(outboxMessages);
  const filtered = options.recipient
    ? query.where(eq(outboxMessages.recipient, options.recipient))
    : query;
  return filtered
    .orderBy(desc(outboxMessages.createdAt), desc(outboxMessages.id))
    .limit(options.limit);
}
