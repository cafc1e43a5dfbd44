import { sql } from 'drizzle-orm';
import {
  bigserial,
  check,
  customType,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { SUPPORT_STATES, SUPPORT_SUBJECT_TYPES } from '@alda/contract/schemas/support';
import { staffUsers } from './staff';
import { users } from './users';

/** Bytes kept in the row (an attachment, at most a few hundred KB once resized). */
const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({
  dataType: () => 'bytea',
});

/**
 * A support conversation between one customer and the desk (issue 46, ADR 0088). `user_id` is
 * null once the customer was deleted: the desk keeps the conversation, anonymised, for the
 * retention period of the privacy text. The state follows the last message a customer can see
 * (`open`: the desk's turn; `waiting`: the customer's), or `closed`.
 */
export const supportConversations = pgTable(
  'support_conversations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    subjectType: text('subject_type', { enum: SUPPORT_SUBJECT_TYPES }).notNull(),
    /** The item's id (order, payment, receipt) or the line's number; null for general. */
    subjectId: text('subject_id'),
    /** What the item is known by, kept as it was: an order's or line's number, a receipt's. */
    subjectReference: text('subject_reference'),
    state: text('state', { enum: SUPPORT_STATES }).notNull().default('open'),
    assigneeStaffId: uuid('assignee_staff_id').references(() => staffUsers.id, {
      onDelete: 'set null',
    }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    /** When the first answer is due: SUPPORT_FIRST_REPLY_H working hours after `created_at`. */
    firstReplyDueAt: timestamp('first_reply_due_at', { withTimezone: true }).notNull(),
    firstReplyAt: timestamp('first_reply_at', { withTimezone: true }),
    /** The last message the customer can see (answers and the customer's own; not notes). */
    lastMessageAt: timestamp('last_message_at', { withTimezone: true }).notNull(),
    /** Until when the customer has read the desk's answers. */
    customerReadAt: timestamp('customer_read_at', { withTimezone: true }),
    /**
     * When the customer was last told by e-mail or SMS that an answer is waiting (issue 46:
     * only when the app did not show it; see jobs/support.ts).
     */
    answerNoticedAt: timestamp('answer_noticed_at', { withTimezone: true }),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    /** `customer` or `staff:<email>`. */
    closedBy: text('closed_by'),
    ratingScore: integer('rating_score'),
    ratingComment: text('rating_comment'),
  },
  (t) => [
    index('support_conversations_user_idx').on(t.userId, t.lastMessageAt),
    index('support_conversations_state_idx').on(t.state, t.lastMessageAt),
    check(
      'support_conversations_rating',
      sql`${t.ratingScore} is null or ${t.ratingScore} between 1 and 5`,
    ),
  ],
);

/**
 * The messages of a conversation: the customer's, the desk's answers, and the desk's internal
 * notes (`note`), which no customer route ever reads. `client_id` is the customer app's id of
 * a message, so one sent again after a dropped connection is kept once.
 */
export const supportMessages = pgTable(
  'support_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The order of writing, for messages written in the same millisecond. */
    seq: bigserial('seq', { mode: 'number' }).notNull(),
    conversationId: uuid('conversation_id')
      .notNull()
      .references(() => supportConversations.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['customer', 'staff', 'note'] }).notNull(),
    staffUserId: uuid('staff_user_id').references(() => staffUsers.id, { onDelete: 'set null' }),
    /** The desk member's name as it was, shown to the customer with an answer. */
    authorName: text('author_name'),
    body: text('body').notNull(),
    clientId: uuid('client_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('support_messages_conversation_idx').on(t.conversationId, t.createdAt),
    uniqueIndex('support_messages_client_uq').on(t.conversationId, t.clientId),
    check('support_messages_kind', sql`${t.kind} in ('customer', 'staff', 'note')`),
  ],
);

/**
 * Images attached to a message: resized, without EXIF, re-encoded by the server (images.ts),
 * kept in the row (a few hundred KB each) so a backup and a data export carry them.
 */
export const supportAttachments = pgTable(
  'support_attachments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Who sent it: a customer uploads first, then names it in a message (null: anonymised). */
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** Set when a message names it; an image never sent is removed after a day. */
    conversationId: uuid('conversation_id').references(() => supportConversations.id, {
      onDelete: 'cascade',
    }),
    messageId: uuid('message_id').references(() => supportMessages.id, { onDelete: 'cascade' }),
    contentType: text('content_type').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    bytes: bytea('bytes').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('support_attachments_message_idx').on(t.messageId),
    index('support_attachments_conversation_idx').on(t.conversationId),
    index('support_attachments_unsent_idx')
      .on(t.createdAt)
      .where(sql`${t.messageId} is null`),
    check('support_attachments_type', sql`${t.contentType} in ('image/jpeg', 'image/png')`),
  ],
);

/** The desk's saved replies in both languages, managed by the content role. */
export const supportSavedReplies = pgTable('support_saved_replies', {
  id: uuid('id').primaryKey().defaultRandom(),
  titleFo: text('title_fo').notNull(),
  titleEn: text('title_en').notNull(),
  bodyFo: text('body_fo').notNull(),
  bodyEn: text('body_en').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});

export type SupportConversationRow = typeof supportConversations.$inferSelect;
export type SupportMessageRow = typeof supportMessages.$inferSelect;
export type SupportAttachmentRow = typeof supportAttachments.$inferSelect;
export type SupportSavedReplyRow = typeof supportSavedReplies.$inferSelect;
