import type {
  SupportConversation,
  SupportConversationList,
  SupportMessage,
  SupportRatingRequest,
  SupportStartRequest,
  SupportSubject,
  SupportWriteRequest,
} from '@alda/contract/schemas/support';
import type {
  StaffSupportConversation,
  StaffSupportList,
  StaffSupportSummary,
  StaffSupportWriteRequest,
  SupportQueue,
  SupportSavedReply,
  SupportSavedReplyRequest,
} from '@alda/contract/schemas/staff-support';
import { SUPPORT_REOPEN_DAYS } from '@alda/contract/schemas/support';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { SupportConversationRow, SupportMessageRow } from '../../db/schema/support';
import { AppError } from '../../errors';
import { isUuid } from '../../uuid';
import type { StaffCaller } from '../../plugins/staff-auth';
import { hasEntryInSession, recordAudit } from '../operator/audit';
import { POLICIES } from '../rate-limits/policies';
import type { RateLimiter } from '../rate-limits/service';
import { bumpUserVersions } from '../versions/change-versions';
import type { SupportAttachment } from '@alda/contract/schemas/support';
import type { StaffSupportContext, StaffSupportDesk } from '@alda/contract/schemas/staff-support';
import { supportContext } from './context';
import {
  claimAttachments,
  claimUnreadAnswers,
  deleteUnsentAttachments,
  findAttachment,
  insertAttachment,
  listAttachmentsOf,
  listDesk,
  findAssignableStaff,
  findConversation,
  findConversationByClientId,
  findForDesk,
  findMessageByClientId,
  insertConversation,
  insertMessage,
  listMessages,
  listOwnConversations,
  listQueue,
  listSavedReplies,
  resolveSubject,
  supportSavedReplies,
  updateConversation,
} from './repo';
import { notifySupportUpdated } from './events';
import { insertNotifications } from '../notifications/notify';
import { supportThreadPath } from '@alda/contract/app-paths';
import { addWorkingHours } from './working-hours';

/*
 * Support conversations (issue 46, ADR 0088): the one home of their rules. A customer reaches
 * only their own conversations (every read is keyed on the caller); internal notes never leave
 * the desk's routes; every desk action is in the audit log, in the transaction of the change.
 */

const DAY_MS = 86_400_000;
/** How many conversations a list shows. */
export const SUPPORT_LIST_LIMIT = 100;
/** Answer-waiting messages one round sends at most (the rest go in the next round). */
const ANSWER_NOTICES_PER_ROUND = 200;
/** The longest preview of a last message in a list. */
const PREVIEW_LENGTH = 140;

export interface SupportServiceDeps {
  db: Db;
  now: () => Date;
  limiter: Pick<RateLimiter, 'consume'>;
  /** Working hours within which the first answer is due (SUPPORT_FIRST_REPLY_H). */
  firstReplyHours: number;
  /** Seconds an answer may stay unread before the customer is told (SUPPORT_ANSWER_NOTICE_AFTER_S). */
  answerNoticeAfterS: number;
  /** Tells a customer an answer is waiting: e-mail, or SMS without one (after the commit). */
  tellAnswerWaiting: (userId: string, conversationId: string) => Promise<void>;
}

const notFound = (detail: string) => new AppError('NOT_FOUND', { detail });

function preview(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > PREVIEW_LENGTH ? `${flat.slice(0, PREVIEW_LENGTH - 1)}…` : flat;
}

function subjectOf(row: SupportConversationRow): SupportSubject {
  return { type: row.subjectType, id: row.subjectId, reference: row.subjectReference };
}

type AttachmentsByMessage = Map<string, SupportAttachment[]>;

async function attachmentsByMessage(db: Db, conversationId: string): Promise<AttachmentsByMessage> {
  const byMessage: AttachmentsByMessage = new Map();
  for (const a of await listAttachmentsOf(db, conversationId)) {
    if (!a.messageId) continue;
    const list = byMessage.get(a.messageId) ?? [];
    list.push({
      id: a.id,
      contentType: a.contentType === 'image/png' ? 'image/png' : 'image/jpeg',
      width: a.width,
      height: a.height,
    });
    byMessage.set(a.messageId, list);
  }
  return byMessage;
}

function customerMessage(
  row: SupportMessageRow,
  attachments: AttachmentsByMessage,
): SupportMessage {
  return {
    attachments: attachments.get(row.id) ?? [],
    id: row.id,
    author: row.kind === 'staff' ? 'staff' : 'customer',
    // The desk member's first name only: the customer needs a person, not a full name.
    authorName: row.kind === 'staff' ? (row.authorName?.split(' ')[0] ?? null) : null,
    body: row.body,
    createdAt: row.createdAt.toISOString(),
  };
}

/** Until when writing again opens a closed conversation. */
function reopenUntil(row: SupportConversationRow): Date | null {
  return row.closedAt ? new Date(row.closedAt.getTime() + SUPPORT_REOPEN_DAYS * DAY_MS) : null;
}

export function createSupportService(deps: SupportServiceDeps) {
  const { db, now } = deps;
  /** The version bump of the customer's answers and the hub's notice, in the change's transaction. */
  async function touched(tx: Db, userId: string | null, conversationId: string) {
    if (!userId) return;
    await bumpUserVersions(tx, [userId]);
    await notifySupportUpdated(tx, { userId, conversationId });
  }

  /** A desk read, recorded once per staff session and thing (`details.sessionId`). */
  async function auditOncePerSession(
    staff: StaffCaller,
    action: string,
    conversationId: string,
    details: Record<string, unknown>,
  ) {
    const entry = {
      action,
      target: conversationId,
      staffUserId: staff.id,
      sessionId: staff.sessionId,
    };
    if (await hasEntryInSession(db, entry)) return;
    await recordAudit(db, {
      actor: staff.actor,
      staffUserId: staff.id,
      kind: 'read',
      action,
      targetType: 'conversation',
      targetId: conversationId,
      details: { ...details, sessionId: staff.sessionId },
      at: now(),
    });
  }

  async function customerThread(row: SupportConversationRow): Promise<SupportConversation> {
    const messages = await listMessages(db, row.id, false);
    const attachments = await attachmentsByMessage(db, row.id);
    const until = reopenUntil(row);
    return {
      id: row.id,
      subject: subjectOf(row),
      state: row.state,
      createdAt: row.createdAt.toISOString(),
      closedAt: row.closedAt?.toISOString() ?? null,
      reopenUntil: row.state === 'closed' ? (until?.toISOString() ?? null) : null,
      canRate: row.state === 'closed' && row.ratingScore === null,
      rating:
        row.ratingScore === null ? null : { score: row.ratingScore, comment: row.ratingComment },
      messages: messages.map((m) => customerMessage(m, attachments)),
    };
  }

  /** The per-customer limits of issue 46: messages a minute, and new conversations a day. */
  async function consumeWriteLimits(userId: string, starting: boolean) {
    return deps.limiter.consume([
      { policy: POLICIES.supportMessageUser, subject: [userId] },
      ...(starting ? [{ policy: POLICIES.supportConversationUser, subject: [userId] }] : []),
    ]);
  }

  function deskSummary(row: {
    conversation: SupportConversationRow;
    lastMessage: string;
    firstName: string | null;
    lastName: string | null;
    assigneeName: string | null;
  }): StaffSupportSummary {
    const c = row.conversation;
    return {
      id: c.id,
      subject: subjectOf(c),
      state: c.state,
      customerName: row.firstName === null ? null : `${row.firstName} ${row.lastName ?? ''}`.trim(),
      assignee:
        c.assigneeStaffId && row.assigneeName
          ? { id: c.assigneeStaffId, name: row.assigneeName }
          : null,
      lastMessage: preview(row.lastMessage),
      lastMessageAt: c.lastMessageAt.toISOString(),
      createdAt: c.createdAt.toISOString(),
      firstReplyDueAt: c.firstReplyDueAt.toISOString(),
      firstReplyAt: c.firstReplyAt?.toISOString() ?? null,
      late: c.firstReplyAt === null && c.state !== 'closed' && now() > c.firstReplyDueAt,
    };
  }

  async function deskThread(id: string): Promise<StaffSupportConversation> {
    const row = await findForDesk(db, id);
    if (!row) throw notFound('support conversation');
    const messages = await listMessages(db, id, true);
    const attachments = await attachmentsByMessage(db, id);
    const c = row.conversation;
    return {
      ...deskSummary(row),
      customerId: c.userId,
      closedAt: c.closedAt?.toISOString() ?? null,
      rating: c.ratingScore === null ? null : { score: c.ratingScore, comment: c.ratingComment },
      messages: messages.map((m) => ({
        id: m.id,
        kind: m.kind,
        // The desk member's name as it was when they wrote (kept with the message).
        author: m.kind === 'customer' ? null : m.authorName,
        body: m.body,
        attachments: attachments.get(m.id) ?? [],
        createdAt: m.createdAt.toISOString(),
      })),
    };
  }

  /** Names the caller's unsent images in a message; any other id is refused, nothing written. */
  async function attach(
    tx: Db,
    userId: string,
    ids: readonly string[] | undefined,
    target: { conversationId: string; messageId: string },
  ) {
    const wanted = [...new Set(ids ?? [])];
    const taken = await claimAttachments(tx, userId, wanted, target);
    if (taken !== wanted.length)
      throw new AppError('NOT_FOUND', {
        field: 'attachmentIds',
        detail: "attachment not the caller's, sent already, or gone",
      });
  }

  return {
    /* ---- The customer ---- */

    /**
     * Starts a conversation about `subject` with its first message. The subject must be the
     * caller's (404 SUPPORT_SUBJECT_NOT_FOUND otherwise, the same for unknown and foreign ids).
     * The same `clientId` sent again answers the conversation it started, once.
     */
    async start(userId: string, body: SupportStartRequest): Promise<SupportConversation> {
      const again = await findConversationByClientId(db, userId, body.clientId);
      if (again) return customerThread(again);
      const subject = await resolveSubject(db, userId, body.subject.type, body.subject.id);
      if (!subject) throw new AppError('SUPPORT_SUBJECT_NOT_FOUND', { field: 'subject' });
      await consumeWriteLimits(userId, true);
      const at = now();
      const row = await db.transaction(async (tx) => {
        const conversation = await insertConversation(tx, {
          userId,
          subjectType: body.subject.type,
          subjectId: subject.id,
          subjectReference: subject.reference,
          state: 'open',
          createdAt: at,
          firstReplyDueAt: addWorkingHours(at, deps.firstReplyHours),
          lastMessageAt: at,
          customerReadAt: at,
        });
        const message = await insertMessage(tx, {
          conversationId: conversation.id,
          kind: 'customer',
          body: body.body,
          clientId: body.clientId,
          createdAt: at,
        });
        await attach(tx, userId, body.attachmentIds, {
          conversationId: conversation.id,
          messageId: message.id,
        });
        await touched(tx, userId, conversation.id);
        return conversation;
      });
      return customerThread(row);
    },

    async list(userId: string): Promise<SupportConversationList> {
      const rows = await listOwnConversations(db, userId, SUPPORT_LIST_LIMIT);
      const items = rows.map(({ conversation: c, lastMessage, unread }) => ({
        id: c.id,
        subject: subjectOf(c),
        state: c.state,
        lastMessage: preview(lastMessage),
        lastMessageAt: c.lastMessageAt.toISOString(),
        unread,
        createdAt: c.createdAt.toISOString(),
      }));
      return { items, unread: items.reduce((sum, item) => sum + item.unread, 0) };
    },

    async get(userId: string, id: string): Promise<SupportConversation> {
      const row = await findConversation(db, id, { ownerId: userId });
      if (!row) throw notFound('support conversation of another customer, or none');
      return customerThread(row);
    },

    /** The customer has read the thread up to now (the unread badge goes). */
    async markRead(userId: string, id: string): Promise<SupportConversation> {
      const row = await findConversation(db, id, { ownerId: userId });
      if (!row) throw notFound('support conversation of another customer, or none');
      const updated = await db.transaction(async (tx) => {
        const next = await updateConversation(tx, row.id, { customerReadAt: now() });
        await touched(tx, userId, row.id);
        return next;
      });
      return customerThread(updated);
    },

    /**
     * The customer writes. A closed conversation opens again within 14 days of closing; after
     * that it stays closed (409 SUPPORT_CONVERSATION_CLOSED: start a new one). A message sent
     * again with the same `clientId` is kept once.
     */
    async write(
      userId: string,
      id: string,
      body: SupportWriteRequest,
    ): Promise<SupportConversation> {
      const existing = await findConversation(db, id, { ownerId: userId });
      if (!existing) throw notFound('support conversation of another customer, or none');
      if (await findMessageByClientId(db, existing.id, body.clientId))
        return customerThread(existing);
      const until = reopenUntil(existing);
      if (existing.state === 'closed' && until && now() > until)
        throw new AppError('SUPPORT_CONVERSATION_CLOSED');
      await consumeWriteLimits(userId, false);
      const at = now();
      const row = await db.transaction(async (tx) => {
        const locked = await findConversation(tx, id, { ownerId: userId, forUpdate: true });
        if (!locked) throw notFound('support conversation gone');
        const message = await insertMessage(tx, {
          conversationId: locked.id,
          kind: 'customer',
          body: body.body,
          clientId: body.clientId,
          createdAt: at,
        });
        await attach(tx, userId, body.attachmentIds, {
          conversationId: locked.id,
          messageId: message.id,
        });
        const next = await updateConversation(tx, locked.id, {
          state: 'open',
          lastMessageAt: at,
          customerReadAt: at,
          closedAt: null,
          closedBy: null,
        });
        await touched(tx, userId, locked.id);
        return next;
      });
      return customerThread(row);
    },

    async close(userId: string, id: string): Promise<SupportConversation> {
      const existing = await findConversation(db, id, { ownerId: userId });
      if (!existing) throw notFound('support conversation of another customer, or none');
      if (existing.state === 'closed') return customerThread(existing);
      const row = await db.transaction(async (tx) => {
        const next = await updateConversation(tx, existing.id, {
          state: 'closed',
          closedAt: now(),
          closedBy: 'customer',
        });
        await touched(tx, userId, existing.id);
        return next;
      });
      return customerThread(row);
    },

    /** Rates a closed conversation once, 1–5 with an optional comment. */
    async rate(userId: string, id: string, body: SupportRatingRequest) {
      const existing = await findConversation(db, id, { ownerId: userId });
      if (!existing) throw notFound('support conversation of another customer, or none');
      if (existing.state !== 'closed' || existing.ratingScore !== null)
        throw new AppError('SUPPORT_RATING_NOT_ALLOWED');
      const comment = body.comment?.trim() ? body.comment.trim() : null;
      const row = await db.transaction(async (tx) => {
        const next = await updateConversation(tx, existing.id, {
          ratingScore: body.score,
          ratingComment: comment,
        });
        await touched(tx, userId, existing.id);
        return next;
      });
      return customerThread(row);
    },

    /* ---- The desk ---- */

    async queue(queue: SupportQueue, staff: StaffCaller): Promise<StaffSupportList> {
      const rows = await listQueue(db, queue, staff.id, SUPPORT_LIST_LIMIT);
      return { items: rows.map(deskSummary) };
    },

    /** One thread with its internal notes; the read is audited (`support.view`). */
    async view(id: string, staff: StaffCaller): Promise<StaffSupportConversation> {
      const thread = await deskThread(id);
      // Once per staff session and conversation: the console refreshes an open thread every
      // 10 s, and a live view is not a new read (ADR 0075).
      await auditOncePerSession(staff, 'support.view', id, { customerId: thread.customerId });
      return thread;
    },

    /** Assigns the conversation to an active support or admin member (oneself or a colleague). */
    async assign(id: string, staffUserId: string, staff: StaffCaller) {
      const assignee = await findAssignableStaff(db, staffUserId);
      if (!assignee) throw new AppError('SUPPORT_ASSIGNEE_INVALID', { field: 'staffUserId' });
      await db.transaction(async (tx) => {
        const row = await findConversation(tx, id, { forUpdate: true });
        if (!row) throw notFound('support conversation');
        await updateConversation(tx, id, { assigneeStaffId: assignee.id });
        await recordAudit(tx, {
          actor: staff.actor,
          staffUserId: staff.id,
          kind: 'change',
          action: 'support.assign',
          targetType: 'conversation',
          targetId: id,
          details: { assignee: assignee.email, previous: row.assigneeStaffId },
          at: now(),
        });
      });
      return deskThread(id);
    },

    /**
     * An answer to the customer, or an internal note (`internal`), which no customer route
     * reads. An answer hands the turn to the customer (`waiting`), counts as the first reply,
     * and assigns an unassigned conversation to whoever answered.
     */
    async reply(id: string, body: StaffSupportWriteRequest, staff: StaffCaller) {
      const at = now();
      await db.transaction(async (tx) => {
        const row = await findConversation(tx, id, { forUpdate: true });
        if (!row) throw notFound('support conversation');
        await insertMessage(tx, {
          conversationId: id,
          kind: body.internal ? 'note' : 'staff',
          staffUserId: staff.id,
          authorName: staff.name,
          body: body.body,
          createdAt: at,
        });
        if (!body.internal) {
          await updateConversation(tx, id, {
            state: 'waiting',
            lastMessageAt: at,
            firstReplyAt: row.firstReplyAt ?? at,
            assigneeStaffId: row.assigneeStaffId ?? staff.id,
            closedAt: null,
            closedBy: null,
          });
          await touched(tx, row.userId, id);
          if (row.userId)
            await insertNotifications(tx, [
              {
                userId: row.userId,
                type: 'support_answer',
                params: {},
                link: supportThreadPath(id),
                createdAt: at,
              },
            ]);
        }
        await recordAudit(tx, {
          actor: staff.actor,
          staffUserId: staff.id,
          kind: 'change',
          action: body.internal ? 'support.note' : 'support.reply',
          targetType: 'conversation',
          targetId: id,
          at,
        });
      });
      return deskThread(id);
    },

    async closeByStaff(id: string, staff: StaffCaller) {
      const at = now();
      await db.transaction(async (tx) => {
        const row = await findConversation(tx, id, { forUpdate: true });
        if (!row) throw notFound('support conversation');
        if (row.state !== 'closed') {
          await updateConversation(tx, id, {
            state: 'closed',
            closedAt: at,
            closedBy: staff.actor,
          });
          await touched(tx, row.userId, id);
          await recordAudit(tx, {
            actor: staff.actor,
            staffUserId: staff.id,
            kind: 'change',
            action: 'support.close',
            targetType: 'conversation',
            targetId: id,
            at,
          });
        }
      });
      return deskThread(id);
    },

    /**
     * The customer beside the thread; the read is recorded as `customer.view` with the
     * conversation as the reason (no reason to type: the conversation is it).
     */
    async context(id: string, staff: StaffCaller): Promise<StaffSupportContext> {
      const row = await findConversation(db, id);
      if (!row) throw notFound('support conversation');
      const context = await supportContext(db, row);
      await recordAudit(db, {
        actor: staff.actor,
        staffUserId: staff.id,
        kind: 'read',
        action: 'customer.view',
        targetType: 'customer',
        targetId: row.userId,
        reason: `support conversation ${id}`,
        details: { conversationId: id, sessionId: staff.sessionId },
        at: now(),
      });
      return context;
    },

    async desk(): Promise<StaffSupportDesk> {
      const rows = await listDesk(db);
      return { items: rows.map((r) => ({ id: r.id, name: r.name, role: r.role })) };
    },

    /* ---- Attachments ---- */

    /**
     * Keeps an image the customer is about to send: checked by its bytes, resized and stripped
     * of EXIF by `process` (images.ts). Unsent images go after a day (`removeUnsent`).
     */
    async upload(
      userId: string,
      bytes: Uint8Array,
      process: (bytes: Uint8Array) => Promise<{
        bytes: Uint8Array;
        contentType: 'image/jpeg' | 'image/png';
        width: number;
        height: number;
      }>,
    ): Promise<SupportAttachment> {
      await deps.limiter.consume([{ policy: POLICIES.supportUploadUser, subject: [userId] }]);
      const image = await process(bytes);
      const row = await insertAttachment(db, {
        userId,
        contentType: image.contentType,
        width: image.width,
        height: image.height,
        bytes: image.bytes,
        createdAt: now(),
      });
      return { id: row.id, contentType: image.contentType, width: row.width, height: row.height };
    },

    /** The customer's own image (sent or not); anyone else's is 404, as an unknown id. */
    async customerAttachment(userId: string, id: string) {
      const found = await findAttachment(db, id);
      const owner = found?.attachment.conversationId ? found.ownerId : found?.attachment.userId;
      if (!found || owner !== userId) throw notFound('attachment of another customer, or none');
      return found.attachment;
    },

    /** An image sent in a conversation, for the desk; each read is in the audit log. */
    async deskAttachment(id: string, staff: StaffCaller) {
      const found = await findAttachment(db, id);
      const conversationId = found?.attachment.conversationId;
      if (!found || !conversationId) throw notFound('attachment');
      await auditOncePerSession(staff, 'support.attachment.view', conversationId, {
        attachmentId: id,
      });
      return found.attachment;
    },

    /**
     * One round of the support job: customers whose answer stayed unread are told it is
     * waiting (once per answer; the app open on the thread reads it first and nothing is sent),
     * and images uploaded but never sent for a day are removed.
     */
    async runRound(): Promise<{ noticed: number; removed: number }> {
      const at = now();
      const due = await claimUnreadAnswers(
        db,
        new Date(at.getTime() - deps.answerNoticeAfterS * 1000),
        at,
        ANSWER_NOTICES_PER_ROUND,
      );
      for (const { id, userId } of due) await deps.tellAnswerWaiting(userId, id);
      const removed = await deleteUnsentAttachments(db, new Date(at.getTime() - DAY_MS));
      return { noticed: due.length, removed };
    },

    /* ---- Saved replies (content writes; the desk reads) ---- */

    async savedReplies(): Promise<SupportSavedReply[]> {
      return (await listSavedReplies(db)).map((r) => ({
        id: r.id,
        titleFo: r.titleFo,
        titleEn: r.titleEn,
        bodyFo: r.bodyFo,
        bodyEn: r.bodyEn,
        updatedAt: r.updatedAt.toISOString(),
      }));
    },

    async saveReply(
      id: string | null,
      body: SupportSavedReplyRequest,
      staff: StaffCaller,
    ): Promise<SupportSavedReply> {
      if (id !== null && !isUuid(id)) throw notFound('saved reply');
      const at = now();
      const row = await db.transaction(async (tx) => {
        const values = { ...body, updatedAt: at };
        const [saved] = id
          ? await tx
              .update(supportSavedReplies)
              .set(values)
              .where(eq(supportSavedReplies.id, id))
              .returning()
          : await tx.insert(supportSavedReplies).values(values).returning();
        if (!saved) throw notFound('saved reply');
        await recordAudit(tx, {
          actor: staff.actor,
          staffUserId: staff.id,
          kind: 'change',
          action: id ? 'support.saved-reply.update' : 'support.saved-reply.create',
          targetType: 'content',
          targetId: saved.id,
          details: { titleEn: saved.titleEn },
          at,
        });
        return saved;
      });
      return { ...row, updatedAt: row.updatedAt.toISOString() };
    },

    async deleteReply(id: string, staff: StaffCaller): Promise<void> {
      if (!isUuid(id)) throw notFound('saved reply');
      await db.transaction(async (tx) => {
        const [gone] = await tx
          .delete(supportSavedReplies)
          .where(eq(supportSavedReplies.id, id))
          .returning();
        if (!gone) throw notFound('saved reply');
        await recordAudit(tx, {
          actor: staff.actor,
          staffUserId: staff.id,
          kind: 'change',
          action: 'support.saved-reply.delete',
          targetType: 'content',
          targetId: id,
          details: { titleEn: gone.titleEn },
          at: now(),
        });
      });
    },
  };
}

export type SupportService = ReturnType<typeof createSupportService>;
