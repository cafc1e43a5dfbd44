import { z } from 'zod/mini';
import { isoDateTime } from './common';
import { staffRole } from './staff';
import {
  supportAttachment,
  supportMessageText,
  supportRating,
  supportState,
  supportSubject,
} from './support';

/*
 * The support desk in the console (issue 46, ADR 0088): the inbox's queues, a thread with its
 * internal notes, the customer beside it, assigning, and the saved replies. The customer's side
 * of the same conversations is in support.ts.
 */

/** The console's queues: new (nobody answered yet), mine, waiting on the customer, closed. */
export const SUPPORT_QUEUES = ['new', 'mine', 'waiting', 'closed'] as const;
export const supportQueue = z.enum(SUPPORT_QUEUES);
export type SupportQueue = z.infer<typeof supportQueue>;

export const staffSupportQueueQuery = z.object({ queue: supportQueue });

const staffRef = z.nullable(z.object({ id: z.uuid(), name: z.string() }));

export const staffSupportSummary = z.object({
  id: z.uuid(),
  subject: supportSubject,
  state: supportState,
  /** The customer's name; null once the customer was deleted (anonymised). */
  customerName: z.nullable(z.string()),
  assignee: staffRef,
  lastMessage: z.string(),
  lastMessageAt: isoDateTime,
  createdAt: isoDateTime,
  /** When the first answer is due (SUPPORT_FIRST_REPLY_H working hours after it was opened). */
  firstReplyDueAt: isoDateTime,
  firstReplyAt: z.nullable(isoDateTime),
  /** Not answered and past its due time. */
  late: z.boolean(),
});
export type StaffSupportSummary = z.infer<typeof staffSupportSummary>;

export const staffSupportList = z.object({ items: z.array(staffSupportSummary) });
export type StaffSupportList = z.infer<typeof staffSupportList>;

export const staffSupportMessage = z.object({
  id: z.uuid(),
  /** `note`: an internal note, never shown to the customer. */
  kind: z.enum(['customer', 'staff', 'note']),
  author: z.nullable(z.string()),
  body: z.string(),
  attachments: z.array(supportAttachment),
  createdAt: isoDateTime,
});
export type StaffSupportMessage = z.infer<typeof staffSupportMessage>;

export const staffSupportConversation = z.object({
  ...staffSupportSummary.shape,
  customerId: z.nullable(z.uuid()),
  closedAt: z.nullable(isoDateTime),
  rating: z.nullable(supportRating),
  messages: z.array(staffSupportMessage),
});
export type StaffSupportConversation = z.infer<typeof staffSupportConversation>;

/** POST /api/staff/support/conversations/:id/messages: an answer, or an internal note. */
export const staffSupportWriteRequest = z.object({
  body: supportMessageText,
  internal: z._default(z.boolean(), false),
});
export type StaffSupportWriteRequest = z.infer<typeof staffSupportWriteRequest>;

/** POST /api/staff/support/conversations/:id/assign: to a support or admin member (self or other). */
export const staffSupportAssignRequest = z.object({ staffUserId: z.uuid() });

/** A saved reply in both languages, managed by the content role. */
export const supportSavedReply = z.object({
  id: z.uuid(),
  titleFo: z.string(),
  titleEn: z.string(),
  bodyFo: z.string(),
  bodyEn: z.string(),
  updatedAt: isoDateTime,
});
export type SupportSavedReply = z.infer<typeof supportSavedReply>;

export const supportSavedReplyList = z.object({ items: z.array(supportSavedReply) });

const replyTitle = z
  .string({ error: 'REQUIRED' })
  .check(z.trim(), z.minLength(1, 'REQUIRED'), z.maxLength(120, 'TOO_LONG'));

export const supportSavedReplyRequest = z.object({
  titleFo: replyTitle,
  titleEn: replyTitle,
  bodyFo: supportMessageText,
  bodyEn: supportMessageText,
});
export type SupportSavedReplyRequest = z.infer<typeof supportSavedReplyRequest>;

/**
 * GET /api/staff/support/conversations/:id/context: the customer beside the thread — lines, open
 * orders, recent payments, and the item the conversation is about. Opening it is recorded in the
 * audit log (`customer.view`, the conversation as the reason); null `customer` once anonymised.
 */
export const staffSupportContext = z.object({
  customer: z.nullable(
    z.object({
      id: z.uuid(),
      name: z.string(),
      email: z.string(),
      phoneNumber: z.nullable(z.string()),
      locale: z.enum(['fo', 'en']),
    }),
  ),
  lines: z.array(
    z.object({ msisdn: z.string(), status: z.string(), planName: z.nullable(z.string()) }),
  ),
  openOrders: z.array(
    z.object({
      id: z.uuid(),
      kind: z.string(),
      msisdn: z.nullable(z.string()),
      /** The order's latest provisioning step (e.g. `port_rejected`), or its status. */
      status: z.string(),
      createdAt: isoDateTime,
    }),
  ),
  payments: z.array(
    z.object({
      id: z.uuid(),
      amountOere: z.int(),
      method: z.string(),
      state: z.string(),
      createdAt: isoDateTime,
    }),
  ),
  /** The subject's own record as the desk sees it, when it is an order or payment. */
  subject: supportSubject,
});
export type StaffSupportContext = z.infer<typeof staffSupportContext>;

/** GET /api/staff/support/desk: the active support and admin members a conversation can go to. */
export const staffSupportDesk = z.object({
  /** `role` is `support` or `admin`: the roles that work the inbox. */
  items: z.array(z.object({ id: z.uuid(), name: z.string(), role: staffRole })),
});
export type StaffSupportDesk = z.infer<typeof staffSupportDesk>;
