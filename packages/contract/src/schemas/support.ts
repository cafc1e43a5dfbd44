import { z } from 'zod/mini';
import { isoDateTime } from './common';

/*
 * Support conversations between a customer and the desk (issue 46, ADR 0088): a customer writes
 * from where the problem is (an order, a payment, a receipt, a line, the roaming cap) or from
 * the menu, the desk answers in the console. Text only is ever stored and shown: the app and the
 * console render it as text, never as HTML.
 */

/** Longest message, in characters (issue 46). */
export const SUPPORT_MESSAGE_MAX_LENGTH = 2000;
/** Longest rating comment. */
export const SUPPORT_RATING_COMMENT_MAX_LENGTH = 1000;
/** A closed conversation opens again when its customer writes within this many days. */
export const SUPPORT_REOPEN_DAYS = 14;

/** What a conversation is about: the item it was opened from, or nothing (the menu). */
export const SUPPORT_SUBJECT_TYPES = [
  'general',
  'order',
  'payment',
  'receipt',
  'line',
  'roaming_cap',
] as const;
export const supportSubjectType = z.enum(SUPPORT_SUBJECT_TYPES);
export type SupportSubjectType = z.infer<typeof supportSubjectType>;

/**
 * The subject as a customer names it: the kind and the id of the item (an order's, payment's or
 * receipt's id; a line's number for `line` and `roaming_cap`). The server checks that the item
 * is the caller's and keeps a reference to show ("About order 55 78 13").
 */
export const supportSubjectInput = z.object({
  type: supportSubjectType,
  id: z.optional(z.string().check(z.minLength(1), z.maxLength(64))),
});
export type SupportSubjectInput = z.infer<typeof supportSubjectInput>;

/** A subject as answered: `reference` is what the item is known by (a number), null for general. */
export const supportSubject = z.object({
  type: supportSubjectType,
  id: z.nullable(z.string()),
  reference: z.nullable(z.string()),
});
export type SupportSubject = z.infer<typeof supportSubject>;

/**
 * Where a conversation stands:
 * - `open`: the customer waits on the desk (new or answered back);
 * - `waiting`: the desk answered last, the customer's turn;
 * - `closed`: closed by either side; writing again within 14 days opens it.
 */
export const SUPPORT_STATES = ['open', 'waiting', 'closed'] as const;
export const supportState = z.enum(SUPPORT_STATES);
export type SupportState = z.infer<typeof supportState>;

/** Who wrote a message a customer sees. Internal notes never reach the customer's answers. */
export const supportAuthor = z.enum(['customer', 'staff']);
export type SupportAuthor = z.infer<typeof supportAuthor>;

/** A message's text: trimmed, not empty, at most 2,000 characters (the desk's answers too). */
export const supportMessageText = z
  .string({ error: 'REQUIRED' })
  .check(z.trim(), z.minLength(1, 'REQUIRED'), z.maxLength(SUPPORT_MESSAGE_MAX_LENGTH, 'TOO_LONG'));

/** Images per message, and the largest image a customer may send (before it is resized). */
export const SUPPORT_ATTACHMENTS_MAX = 3;
export const SUPPORT_ATTACHMENT_MAX_BYTES = 5 * 1024 * 1024;
/** The types a phone's photo or screenshot comes in; the server checks the bytes, not the name. */
export const SUPPORT_ATTACHMENT_TYPES = [
  'image/jpeg',
  'image/png',
  'image/heic',
  'image/heif',
] as const;

/**
 * An image as stored: resized to fit 1600 px and re-encoded without EXIF (location included) by
 * the server, JPEG or PNG. Its bytes come from GET /api/support/attachments/:id with the
 * caller's token (the desk: /api/staff/support/attachments/:id).
 */
export const supportAttachment = z.object({
  id: z.uuid(),
  contentType: z.enum(['image/jpeg', 'image/png']),
  width: z.int(),
  height: z.int(),
});
export type SupportAttachment = z.infer<typeof supportAttachment>;

/** Ids of images uploaded by the caller (POST /api/support/attachments) and not yet sent. */
const attachmentIds = z.optional(
  z.array(z.uuid()).check(z.maxLength(SUPPORT_ATTACHMENTS_MAX, 'TOO_MANY')),
);

/** A client-made id of a message, so a message sent again after a dropped connection is kept once. */
const clientId = z.uuid();

export const supportMessage = z.object({
  id: z.uuid(),
  author: supportAuthor,
  /** The desk member's first name for staff answers; null for the customer's own. */
  authorName: z.nullable(z.string()),
  body: z.string(),
  attachments: z.array(supportAttachment),
  createdAt: isoDateTime,
});
export type SupportMessage = z.infer<typeof supportMessage>;

export const supportConversationSummary = z.object({
  id: z.uuid(),
  subject: supportSubject,
  state: supportState,
  /** The last message a customer can see, shortened. */
  lastMessage: z.string(),
  lastMessageAt: isoDateTime,
  /** Answers from the desk the customer has not opened yet. */
  unread: z.int().check(z.nonnegative()),
  createdAt: isoDateTime,
});
export type SupportConversationSummary = z.infer<typeof supportConversationSummary>;

/** GET /api/support/conversations: the caller's conversations, latest activity first. */
export const supportConversationList = z.object({
  items: z.array(supportConversationSummary),
  /** Unread answers over all conversations (the menu's badge). */
  unread: z.int().check(z.nonnegative()),
});
export type SupportConversationList = z.infer<typeof supportConversationList>;

export const supportRating = z.object({
  score: z.int().check(z.minimum(1), z.maximum(5)),
  comment: z.nullable(z.string()),
});

/** GET /api/support/conversations/:id: one thread, oldest message first. */
export const supportConversation = z.object({
  id: z.uuid(),
  subject: supportSubject,
  state: supportState,
  createdAt: isoDateTime,
  closedAt: z.nullable(isoDateTime),
  /** Until when writing opens it again (closed only). */
  reopenUntil: z.nullable(isoDateTime),
  /** Whether the customer may rate it now (closed and not rated yet). */
  canRate: z.boolean(),
  rating: z.nullable(supportRating),
  messages: z.array(supportMessage),
});
export type SupportConversation = z.infer<typeof supportConversation>;

/** POST /api/support/conversations: a new conversation with its first message. */
export const supportStartRequest = z.object({
  subject: supportSubjectInput,
  body: supportMessageText,
  clientId,
  attachmentIds,
});
export type SupportStartRequest = z.infer<typeof supportStartRequest>;

/** POST /api/support/conversations/:id/messages: the customer writes (again). */
export const supportWriteRequest = z.object({ body: supportMessageText, clientId, attachmentIds });
export type SupportWriteRequest = z.infer<typeof supportWriteRequest>;

/** POST /api/support/conversations/:id/rating: 1–5 with an optional comment, once, after closing. */
export const supportRatingRequest = z.object({
  score: z.int({ error: 'REQUIRED' }).check(z.minimum(1, 'INVALID'), z.maximum(5, 'INVALID')),
  comment: z.optional(
    z.nullable(
      z.string().check(z.trim(), z.maxLength(SUPPORT_RATING_COMMENT_MAX_LENGTH, 'TOO_LONG')),
    ),
  ),
});
export type SupportRatingRequest = z.infer<typeof supportRatingRequest>;

/**
 * The support hub (issue 46 "live"): an ASP.NET Core SignalR hub over WebSockets, with the same
 * negotiate, authentication (the access token) and reconnection as the payment hub. It has no
 * client methods: once connected, a customer gets `SupportUpdated` whenever one of their
 * conversations changes (an answer, closed by the desk), and refetches that thread.
 */
export const SUPPORT_HUB_PATH = '/api/hubs/support';
export const SUPPORT_UPDATED_TARGET = 'SupportUpdated';
export const supportUpdated = z.object({ conversationId: z.uuid() });
export type SupportUpdated = z.infer<typeof supportUpdated>;
