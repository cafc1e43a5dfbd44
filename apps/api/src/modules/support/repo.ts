import { and, asc, desc, eq, inArray, isNull, ne, sql, type SQL } from 'drizzle-orm';
import type { SupportSubjectType } from '@alda/contract/schemas/support';
import type { SupportQueue } from '@alda/contract/schemas/staff-support';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { isUuid } from '../../uuid';
import { lineCustomerId } from '../../db/line-facts';
import { accounts } from '../../db/schema/accounts';
import { orders } from '../../db/schema/orders';
import { payments, receipts } from '../../db/schema/payments';
import { phoneLines } from '../../db/schema/phone-lines';
import { staffUsers } from '../../db/schema/staff';
import {
  supportAttachments,
  supportConversations,
  supportMessages,
  supportSavedReplies,
  type SupportConversationRow,
  type SupportMessageRow,
} from '../../db/schema/support';
import { users } from '../../db/schema/users';

/*
 * The support conversations' queries (issue 46, ADR 0088). Every customer read is keyed on the
 * customer's id as well as the conversation's, so another customer's id reads as not found.
 */

/** An item a conversation can be about, when it is the customer's: its id and reference. */
export interface ResolvedSubject {
  id: string | null;
  reference: string | null;
}

/**
 * The item `id` of kind `type` if it belongs to `userId`, else undefined. Orders, payments and
 * receipts by their id; a line (and its roaming cap) by its number, when the customer holds it
 * or owns its account.
 */
export async function resolveSubject(
  db: Db,
  userId: string,
  type: SupportSubjectType,
  id: string | undefined,
): Promise<ResolvedSubject | undefined> {
  if (type === 'general') return { id: null, reference: null };
  if (!id) return undefined;
  if (type === 'line' || type === 'roaming_cap') {
    if (!/^\d{6}$/.test(id)) return undefined;
    const [line] = await db
      .select({ msisdn: phoneLines.msisdn })
      .from(phoneLines)
      .leftJoin(accounts, eq(accounts.id, phoneLines.accountId))
      .where(
        and(
          eq(phoneLines.msisdn, id),
          ne(phoneLines.status, 'cancelled'),
          sql`${lineCustomerId()} = ${userId}`,
        ),
      )
      .limit(1);
    return line ? { id: line.msisdn, reference: line.msisdn } : undefined;
  }
  if (!isUuid(id)) return undefined;
  if (type === 'order') {
    const [order] = await db
      .select({ id: orders.id, msisdn: orders.msisdn })
      .from(orders)
      .where(and(eq(orders.id, id), eq(orders.userId, userId)));
    return order ? { id: order.id, reference: order.msisdn } : undefined;
  }
  if (type === 'payment') {
    const [payment] = await db
      .select({ id: payments.id, msisdn: orders.msisdn })
      .from(payments)
      .innerJoin(orders, eq(orders.id, payments.orderId))
      .where(and(eq(payments.id, id), eq(payments.userId, userId)));
    return payment ? { id: payment.id, reference: payment.msisdn } : undefined;
  }
  const [receipt] = await db
    .select({ id: receipts.id, number: receipts.number })
    .from(receipts)
    .where(and(eq(receipts.id, id), eq(receipts.userId, userId)));
  return receipt ? { id: receipt.id, reference: receipt.number } : undefined;
}

export async function insertConversation(
  db: Db,
  row: typeof supportConversations.$inferInsert,
): Promise<SupportConversationRow> {
  const [inserted] = await db.insert(supportConversations).values(row).returning();
  if (!inserted) throw new Error('support_conversations insert returned no row');
  return inserted;
}

export async function insertMessage(
  db: Db,
  row: typeof supportMessages.$inferInsert,
): Promise<SupportMessageRow> {
  const [inserted] = await db.insert(supportMessages).values(row).returning();
  if (!inserted) throw new Error('support_messages insert returned no row');
  return inserted;
}

/** The customer's conversation whose message has this client id (a start sent again). */
export async function findConversationByClientId(
  db: Db,
  userId: string,
  clientId: string,
): Promise<SupportConversationRow | undefined> {
  const [row] = await db
    .select({ conversation: supportConversations })
    .from(supportMessages)
    .innerJoin(supportConversations, eq(supportConversations.id, supportMessages.conversationId))
    .where(and(eq(supportMessages.clientId, clientId), eq(supportConversations.userId, userId)))
    .limit(1);
  return row?.conversation;
}

export async function findMessageByClientId(
  db: Db,
  conversationId: string,
  clientId: string,
): Promise<SupportMessageRow | undefined> {
  const [row] = await db
    .select()
    .from(supportMessages)
    .where(
      and(
        eq(supportMessages.conversationId, conversationId),
        eq(supportMessages.clientId, clientId),
      ),
    );
  return row;
}

/**
 * A conversation by id; with `ownerId`, only that customer's (undefined for anyone else's, as
 * for an unknown id, so a customer cannot tell them apart).
 */
export async function findConversation(
  db: Db,
  id: string,
  { ownerId, forUpdate = false }: { ownerId?: string; forUpdate?: boolean } = {},
): Promise<SupportConversationRow | undefined> {
  if (!isUuid(id)) return undefined;
  const query = db
    .select()
    .from(supportConversations)
    .where(
      and(
        eq(supportConversations.id, id),
        ownerId === undefined ? undefined : eq(supportConversations.userId, ownerId),
      ),
    );
  const [row] = forUpdate ? await query.for('update') : await query;
  return row;
}

export async function updateConversation(
  db: Db,
  id: string,
  set: Partial<typeof supportConversations.$inferInsert>,
): Promise<SupportConversationRow> {
  const [row] = await db
    .update(supportConversations)
    .set(set)
    .where(eq(supportConversations.id, id))
    .returning();
  if (!row) throw new Error('support_conversations update returned no row');
  return row;
}

/** The customer's conversations, latest activity first, with their last visible message. */
export async function listOwnConversations(db: Db, userId: string, limit: number) {
  return db
    .select({
      conversation: supportConversations,
      lastMessage: lastVisibleMessage(),
      unread: unreadAnswers(),
    })
    .from(supportConversations)
    .where(eq(supportConversations.userId, userId))
    .orderBy(desc(supportConversations.lastMessageAt))
    .limit(limit);
}

/*
 * Correlated subqueries name the outer table in plain SQL: drizzle writes a column of the
 * selected table without its table name, which inside the subquery would mean the inner row's.
 */

/** The text of the last message a customer can see (not an internal note). */
const lastVisibleMessage = () =>
  sql<string>`coalesce((select m.body from support_messages m where m.conversation_id = support_conversations.id and m.kind <> 'note' order by m.created_at desc, m.seq desc limit 1), '')`;

/** The desk's answers after the customer last read the thread. */
const unreadAnswers = () =>
  sql<number>`(select count(*)::int from support_messages m where m.conversation_id = support_conversations.id and m.kind = 'staff' and (support_conversations.customer_read_at is null or m.created_at > support_conversations.customer_read_at))`;

/** A thread's messages, oldest first; without internal notes unless `withNotes`. */
export async function listMessages(
  db: Db,
  conversationId: string,
  withNotes: boolean,
): Promise<SupportMessageRow[]> {
  return db
    .select()
    .from(supportMessages)
    .where(
      and(
        eq(supportMessages.conversationId, conversationId),
        withNotes ? undefined : ne(supportMessages.kind, 'note'),
      ),
    )
    .orderBy(asc(supportMessages.createdAt), asc(supportMessages.seq));
}

/** The attachments of a thread's messages, without their bytes. */
export async function listAttachmentsOf(db: Db, conversationId: string) {
  return db
    .select({
      id: supportAttachments.id,
      messageId: supportAttachments.messageId,
      contentType: supportAttachments.contentType,
      width: supportAttachments.width,
      height: supportAttachments.height,
    })
    .from(supportAttachments)
    .where(eq(supportAttachments.conversationId, conversationId))
    .orderBy(asc(supportAttachments.createdAt), asc(supportAttachments.id));
}

/** One of a conversation's queues for the desk, as `staffId` sees it. */
export async function listQueue(db: Db, queue: SupportQueue, staffId: string, limit: number) {
  const where: Record<SupportQueue, SQL | undefined> = {
    new: and(eq(supportConversations.state, 'open'), isNull(supportConversations.assigneeStaffId)),
    mine: and(
      eq(supportConversations.assigneeStaffId, staffId),
      ne(supportConversations.state, 'closed'),
    ),
    waiting: eq(supportConversations.state, 'waiting'),
    closed: eq(supportConversations.state, 'closed'),
  };
  const order =
    queue === 'closed'
      ? [desc(supportConversations.closedAt)]
      : queue === 'new'
        ? [asc(supportConversations.firstReplyDueAt)]
        : [asc(supportConversations.lastMessageAt)];
  return db
    .select({
      conversation: supportConversations,
      lastMessage: lastVisibleMessage(),
      firstName: users.firstname,
      lastName: users.lastname,
      assigneeName: staffUsers.name,
    })
    .from(supportConversations)
    .leftJoin(users, eq(users.id, supportConversations.userId))
    .leftJoin(staffUsers, eq(staffUsers.id, supportConversations.assigneeStaffId))
    .where(where[queue])
    .orderBy(...order)
    .limit(limit);
}

/** A conversation with its customer's and assignee's names, for the desk. */
export async function findForDesk(db: Db, id: string) {
  if (!isUuid(id)) return undefined;
  const [row] = await db
    .select({
      conversation: supportConversations,
      lastMessage: lastVisibleMessage(),
      firstName: users.firstname,
      lastName: users.lastname,
      assigneeName: staffUsers.name,
    })
    .from(supportConversations)
    .leftJoin(users, eq(users.id, supportConversations.userId))
    .leftJoin(staffUsers, eq(staffUsers.id, supportConversations.assigneeStaffId))
    .where(eq(supportConversations.id, id));
  return row;
}

/** An active member of the desk (support or admin) who can be assigned a conversation. */
export async function findAssignableStaff(db: Db, id: string) {
  const [row] = await db
    .select({ id: staffUsers.id, name: staffUsers.name, email: staffUsers.email })
    .from(staffUsers)
    .where(
      and(
        eq(staffUsers.id, id),
        isNull(staffUsers.disabledAt),
        inArray(staffUsers.role, ['support', 'admin']),
      ),
    );
  return row;
}

export async function findCustomer(db: Db, id: string) {
  const [row] = await db.select().from(users).where(eq(users.id, id));
  return row;
}

export async function listSavedReplies(db: Db) {
  return db.select().from(supportSavedReplies).orderBy(asc(supportSavedReplies.titleFo));
}

export { supportSavedReplies };

/** Attaches the caller's unsent images to a message; answers how many it took. */
export async function claimAttachments(
  db: Db,
  userId: string,
  ids: readonly string[],
  target: { conversationId: string; messageId: string },
): Promise<number> {
  if (ids.length === 0) return 0;
  const taken = await db
    .update(supportAttachments)
    .set(target)
    .where(
      and(
        inArray(supportAttachments.id, [...ids]),
        eq(supportAttachments.userId, userId),
        isNull(supportAttachments.messageId),
      ),
    )
    .returning({ id: supportAttachments.id });
  return taken.length;
}

export async function insertAttachment(db: Db, row: typeof supportAttachments.$inferInsert) {
  const [inserted] = await db.insert(supportAttachments).values(row).returning({
    id: supportAttachments.id,
    contentType: supportAttachments.contentType,
    width: supportAttachments.width,
    height: supportAttachments.height,
  });
  if (!inserted) throw new Error('support_attachments insert returned no row');
  return inserted;
}

/** An attachment with its bytes, and whose conversation it is in (if sent). */
export async function findAttachment(db: Db, id: string) {
  if (!isUuid(id)) return undefined;
  const [row] = await db
    .select({ attachment: supportAttachments, ownerId: supportConversations.userId })
    .from(supportAttachments)
    .leftJoin(supportConversations, eq(supportConversations.id, supportAttachments.conversationId))
    .where(eq(supportAttachments.id, id));
  return row;
}

/** Removes images uploaded but never sent, older than `before`. */
export async function deleteUnsentAttachments(db: Db, before: Date): Promise<number> {
  const gone = await db
    .delete(supportAttachments)
    .where(
      and(
        isNull(supportAttachments.messageId),
        sql`${supportAttachments.createdAt} < ${before.toISOString()}::timestamptz`,
      ),
    )
    .returning({ id: supportAttachments.id });
  return gone.length;
}

/** The active support and admin members, by name. */
export async function listDesk(db: Db) {
  return db
    .select({ id: staffUsers.id, name: staffUsers.name, role: staffUsers.role })
    .from(staffUsers)
    .where(and(isNull(staffUsers.disabledAt), inArray(staffUsers.role, ['support', 'admin'])))
    .orderBy(asc(staffUsers.name));
}

/**
 * Claims the conversations whose newest desk answer has stayed unread since before `before` and
 * was not noticed yet, marking them noticed at `at` in the same statement (so two instances never
 * both send). Answers the customers to tell.
 */
export async function claimUnreadAnswers(db: Db, before: Date, at: Date, limit: number) {
  const result = await db.execute(sql`
    update support_conversations c set answer_noticed_at = ${at.toISOString()}::timestamptz
    where c.id in (
      select c2.id from support_conversations c2
      where c2.user_id is not null and c2.state = 'waiting'
        and exists (
          select 1 from support_messages m
          where m.conversation_id = c2.id and m.kind = 'staff'
            and m.created_at <= ${before.toISOString()}::timestamptz
            and (c2.customer_read_at is null or m.created_at > c2.customer_read_at)
            and (c2.answer_noticed_at is null or m.created_at > c2.answer_noticed_at)
        )
      order by c2.last_message_at
      limit ${limit}
      for update skip locked
    )
    returning c.id, c.user_id`);
  return rowsOf(result).flatMap(({ id, user_id: userId }) =>
    typeof id === 'string' && typeof userId === 'string' ? [{ id, userId }] : [],
  );
}
