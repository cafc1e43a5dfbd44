import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { dataEnvelope } from '@alda/contract/envelope';
import { idParams } from '@alda/contract/schemas/common';
import {
  SUPPORT_ATTACHMENT_MAX_BYTES,
  supportAttachment,
  supportConversation,
  supportConversationList,
  supportRatingRequest,
  supportStartRequest,
  supportWriteRequest,
} from '@alda/contract/schemas/support';
import {
  staffSupportContext,
  staffSupportDesk,
  staffSupportAssignRequest,
  staffSupportConversation,
  staffSupportList,
  staffSupportQueueQuery,
  staffSupportWriteRequest,
  supportSavedReply,
  supportSavedReplyList,
  supportSavedReplyRequest,
} from '@alda/contract/schemas/staff-support';
import { AppError } from '../../errors';
import { errorResponses } from '../../http';
import { requireUser } from '../../plugins/auth';
import { requireStaff } from '../../plugins/staff-auth';
import type { SupportService } from './service';

/*
 * Support conversations (issue 46, docs/decisions/0088-support-conversations.md): the customer's
 * routes under `/api/support`, the desk's under `/api/staff/support` (roles support and admin;
 * saved replies are written by content and admin). Text only: bodies are stored and answered as
 * the plain text they are, and both apps render them as text.
 */

const customer = [{ bearerAuth: [] }];
const desk = [{ staffBearer: [] }];
const TAG = 'support';

/** The types an upload may declare; the bytes decide (images.ts), a declared type never does. */
const UPLOAD_TYPES = [
  'image/jpeg',
  'image/png',
  'image/heic',
  'image/heif',
  'application/octet-stream',
];

/** An image's bytes as answered: never sniffed, never a document, kept private to the caller. */
function sendImage(
  reply: FastifyReply,
  attachment: { id: string; contentType: string; bytes: Uint8Array },
) {
  const ext = attachment.contentType === 'image/png' ? 'png' : 'jpg';
  return reply
    .header('content-type', attachment.contentType)
    .header('content-disposition', `inline; filename="alda-${attachment.id}.${ext}"`)
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'; sandbox")
    .header('cache-control', 'private, max-age=86400')
    .header('referrer-policy', 'no-referrer')
    .send(Buffer.from(attachment.bytes));
}

const imageResponse = z.instanceof(Buffer).describe('The image, image/jpeg or image/png');

export const supportRoutes: FastifyPluginAsyncZod<{
  service: SupportService;
  /** Checks, resizes and strips an uploaded image (images.ts). */
  processImage: Parameters<SupportService['upload']>[2];
}> = async (app, { service, processImage }) => {
  // Uploads arrive as the image itself, not as a form: one image per request.
  for (const type of UPLOAD_TYPES)
    if (app.hasContentTypeParser(type)) app.removeContentTypeParser(type);
  app.addContentTypeParser(
    UPLOAD_TYPES,
    // A little over the 5 MB the service allows, so an image just over it gets its own message.
    { parseAs: 'buffer', bodyLimit: SUPPORT_ATTACHMENT_MAX_BYTES + 1024 * 1024 },
    (_request, body, done) => {
      done(null, body);
    },
  );

  app.post(
    '/api/support/attachments',
    {
      onRequest: app.authenticate,
      bodyLimit: SUPPORT_ATTACHMENT_MAX_BYTES + 1024 * 1024,
      schema: {
        tags: [TAG],
        summary: 'Uploads one image to send in a message (JPEG, PNG or HEIC, ≤ 5 MB)',
        description:
          'The body is the image itself (Content-Type image/jpeg, image/png, image/heic or image/heif). Its type is read from its bytes, never from the name or the declared type: anything else is 415 ATTACHMENT_TYPE_NOT_ALLOWED; over 5 MB 413 ATTACHMENT_TOO_LARGE; damaged or too many pixels 422 ATTACHMENT_UNREADABLE. The server resizes it to fit 1600 px and removes EXIF (location included) before it is kept. Name its id in `attachmentIds` of the next message (≤ 3); an image never sent is removed after a day. At most 15 uploads a minute.',
        security: customer,
        consumes: UPLOAD_TYPES,
        response: {
          201: dataEnvelope(supportAttachment),
          ...errorResponses(400, 401, 413, 415, 422),
        },
      },
    },
    async (request, reply) => {
      const body = request.body;
      if (!(body instanceof Buffer))
        throw new AppError('ATTACHMENT_TYPE_NOT_ALLOWED', { detail: 'no image body' });
      const data = await service.upload(
        requireUser(request).id,
        new Uint8Array(body),
        processImage,
      );
      return reply.status(201).send({ data });
    },
  );

  app.get(
    '/api/support/attachments/:id',
    {
      onRequest: app.authenticate,
      schema: {
        tags: [TAG],
        summary: "One of the caller's images (their own upload, or in their conversation)",
        description:
          "Another customer's image is 404 NOT_FOUND, as an unknown id. Answered with its own type (image/jpeg or image/png), `X-Content-Type-Options: nosniff` and a sandboxing CSP.",
        security: customer,
        params: idParams,
        produces: ['image/jpeg', 'image/png'],
        response: { 200: imageResponse, ...errorResponses(401, 404) },
      },
    },
    async (request, reply) =>
      sendImage(
        reply,
        await service.customerAttachment(requireUser(request).id, request.params.id),
      ),
  );

  app.get(
    '/api/support/conversations',
    {
      onRequest: app.authenticate,
      schema: {
        tags: [TAG],
        summary: "The caller's support conversations, latest activity first, with unread answers",
        security: customer,
        response: { 200: dataEnvelope(supportConversationList), ...errorResponses(401) },
      },
    },
    async (request) => ({ data: await service.list(requireUser(request).id) }),
  );

  app.post(
    '/api/support/conversations',
    {
      onRequest: app.authenticate,
      schema: {
        tags: [TAG],
        summary: 'Starts a conversation with the desk, about an item of the caller or in general',
        description:
          "`subject.type` is `general`, or the kind of item the customer writes from with its id: `order`, `payment`, `receipt` (their ids), `line` or `roaming_cap` (the line's 6-digit number). An item that is not the caller's is 404 SUPPORT_SUBJECT_NOT_FOUND, the same as an unknown one. The text is plain text of at most 2,000 characters. `clientId` is the app's id of the message: the same request sent again (a dropped connection) answers the conversation it started, and nothing is written twice. At most 10 messages a minute and 10 new conversations a day per customer (429 TOO_MANY_ATTEMPTS with retryAfter).",
        security: customer,
        body: supportStartRequest,
        response: {
          201: dataEnvelope(supportConversation),
          ...errorResponses(400, 401, 404),
        },
      },
    },
    async (request, reply) => {
      const data = await service.start(requireUser(request).id, request.body);
      return reply.status(201).send({ data });
    },
  );

  app.get(
    '/api/support/conversations/:id',
    {
      onRequest: app.authenticate,
      schema: {
        tags: [TAG],
        summary: "One of the caller's conversations, its messages oldest first",
        description:
          "Another customer's conversation answers 404 NOT_FOUND, as an unknown id does. The desk's internal notes are never part of it.",
        security: customer,
        params: idParams,
        response: { 200: dataEnvelope(supportConversation), ...errorResponses(401, 404) },
      },
    },
    async (request) => ({ data: await service.get(requireUser(request).id, request.params.id) }),
  );

  app.post(
    '/api/support/conversations/:id/read',
    {
      onRequest: app.authenticate,
      schema: {
        tags: [TAG],
        summary: 'Marks the answers of a conversation read (the unread badge goes)',
        security: customer,
        params: idParams,
        response: { 200: dataEnvelope(supportConversation), ...errorResponses(401, 404) },
      },
    },
    async (request) => ({
      data: await service.markRead(requireUser(request).id, request.params.id),
    }),
  );

  app.post(
    '/api/support/conversations/:id/messages',
    {
      onRequest: app.authenticate,
      schema: {
        tags: [TAG],
        summary: 'The customer writes in a conversation',
        description:
          'A closed conversation opens again when written in within 14 days of closing; later it is 409 SUPPORT_CONVERSATION_CLOSED (start a new one). A message sent again with the same `clientId` is kept once.',
        security: customer,
        params: idParams,
        body: supportWriteRequest,
        response: {
          200: dataEnvelope(supportConversation),
          ...errorResponses(400, 401, 404, 409),
        },
      },
    },
    async (request) => ({
      data: await service.write(requireUser(request).id, request.params.id, request.body),
    }),
  );

  app.post(
    '/api/support/conversations/:id/close',
    {
      onRequest: app.authenticate,
      schema: {
        tags: [TAG],
        summary: 'The customer closes a conversation (then may rate it)',
        security: customer,
        params: idParams,
        response: { 200: dataEnvelope(supportConversation), ...errorResponses(401, 404) },
      },
    },
    async (request) => ({
      data: await service.close(requireUser(request).id, request.params.id),
    }),
  );

  app.post(
    '/api/support/conversations/:id/rating',
    {
      onRequest: app.authenticate,
      schema: {
        tags: [TAG],
        summary: 'Rates a closed conversation 1–5, once, with an optional comment',
        description:
          'A conversation that is not closed, or was rated already, is 409 SUPPORT_RATING_NOT_ALLOWED.',
        security: customer,
        params: idParams,
        body: supportRatingRequest,
        response: {
          200: dataEnvelope(supportConversation),
          ...errorResponses(400, 401, 404, 409),
        },
      },
    },
    async (request) => ({
      data: await service.rate(requireUser(request).id, request.params.id, request.body),
    }),
  );

  /* ---- The desk ---- */

  app.get(
    '/api/staff/support/conversations',
    {
      onRequest: app.staffOnly('support'),
      schema: {
        tags: ['staff'],
        summary: 'A queue of the support inbox: new, mine, waiting, closed (support)',
        description:
          "`new`: not answered and not assigned, the first reply due first; `mine`: assigned to the caller and not closed; `waiting`: answered, the customer's turn; `closed`. Each with its first-reply due time (SUPPORT_FIRST_REPLY_H working hours) and whether it is late.",
        security: desk,
        querystring: staffSupportQueueQuery,
        response: { 200: dataEnvelope(staffSupportList), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => ({
      data: await service.queue(request.query.queue, requireStaff(request)),
    }),
  );

  app.get(
    '/api/staff/support/conversations/:id',
    {
      onRequest: app.staffOnly('support'),
      schema: {
        tags: ['staff'],
        summary: 'One conversation with its internal notes (support; audited support.view)',
        security: desk,
        params: idParams,
        response: {
          200: dataEnvelope(staffSupportConversation),
          ...errorResponses(401, 403, 404),
        },
      },
    },
    async (request) => ({ data: await service.view(request.params.id, requireStaff(request)) }),
  );

  app.post(
    '/api/staff/support/conversations/:id/assign',
    {
      onRequest: app.staffOnly('support'),
      schema: {
        tags: ['staff'],
        summary: 'Assigns a conversation to oneself or a colleague (support; audited)',
        description:
          'The assignee must be an active support or admin member (400 SUPPORT_ASSIGNEE_INVALID).',
        security: desk,
        params: idParams,
        body: staffSupportAssignRequest,
        response: {
          200: dataEnvelope(staffSupportConversation),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request) => ({
      data: await service.assign(
        request.params.id,
        request.body.staffUserId,
        requireStaff(request),
      ),
    }),
  );

  app.post(
    '/api/staff/support/conversations/:id/messages',
    {
      onRequest: app.staffOnly('support'),
      schema: {
        tags: ['staff'],
        summary: 'Answers the customer, or writes an internal note (support; audited)',
        description:
          '`internal: true` writes a note the customer never sees. An answer hands the turn to the customer (`waiting`) and assigns an unassigned conversation to the writer.',
        security: desk,
        params: idParams,
        body: staffSupportWriteRequest,
        response: {
          200: dataEnvelope(staffSupportConversation),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request) => ({
      data: await service.reply(request.params.id, request.body, requireStaff(request)),
    }),
  );

  app.post(
    '/api/staff/support/conversations/:id/close',
    {
      onRequest: app.staffOnly('support'),
      schema: {
        tags: ['staff'],
        summary: 'Closes a conversation (support; audited)',
        security: desk,
        params: idParams,
        response: {
          200: dataEnvelope(staffSupportConversation),
          ...errorResponses(401, 403, 404),
        },
      },
    },
    async (request) => ({
      data: await service.closeByStaff(request.params.id, requireStaff(request)),
    }),
  );

  app.get(
    '/api/staff/support/conversations/:id/context',
    {
      onRequest: app.staffOnly('support'),
      schema: {
        tags: ['staff'],
        summary: 'The customer beside the thread: lines, open orders, recent payments (support)',
        description:
          'Recorded in the audit log as `customer.view` with the conversation as the reason; no reason to type. `customer` is null once the customer was deleted.',
        security: desk,
        params: idParams,
        response: { 200: dataEnvelope(staffSupportContext), ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => ({ data: await service.context(request.params.id, requireStaff(request)) }),
  );

  app.get(
    '/api/staff/support/desk',
    {
      onRequest: app.staffOnly('support'),
      schema: {
        tags: ['staff'],
        summary: 'The active support and admin members a conversation can be assigned to',
        security: desk,
        response: { 200: dataEnvelope(staffSupportDesk), ...errorResponses(401, 403) },
      },
    },
    async () => ({ data: await service.desk() }),
  );

  app.get(
    '/api/staff/support/attachments/:id',
    {
      onRequest: app.staffOnly('support'),
      schema: {
        tags: ['staff'],
        summary: 'An image sent in a conversation (support; each read audited)',
        security: desk,
        params: idParams,
        produces: ['image/jpeg', 'image/png'],
        response: { 200: imageResponse, ...errorResponses(401, 403, 404) },
      },
    },
    async (request, reply) =>
      sendImage(reply, await service.deskAttachment(request.params.id, requireStaff(request))),
  );

  app.get(
    '/api/staff/support/saved-replies',
    {
      onRequest: app.staffOnly('support', 'content'),
      schema: {
        tags: ['staff'],
        summary: 'Saved replies in both languages (support reads, content writes)',
        security: desk,
        response: { 200: dataEnvelope(supportSavedReplyList), ...errorResponses(401, 403) },
      },
    },
    async () => ({ data: { items: await service.savedReplies() } }),
  );

  app.post(
    '/api/staff/support/saved-replies',
    {
      onRequest: app.staffOnly('content'),
      schema: {
        tags: ['staff'],
        summary: 'A new saved reply (content; audited)',
        security: desk,
        body: supportSavedReplyRequest,
        response: { 201: dataEnvelope(supportSavedReply), ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const data = await service.saveReply(null, request.body, requireStaff(request));
      return reply.status(201).send({ data });
    },
  );

  app.put(
    '/api/staff/support/saved-replies/:id',
    {
      onRequest: app.staffOnly('content'),
      schema: {
        tags: ['staff'],
        summary: 'Changes a saved reply (content; audited)',
        security: desk,
        params: idParams,
        body: supportSavedReplyRequest,
        response: { 200: dataEnvelope(supportSavedReply), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => ({
      data: await service.saveReply(request.params.id, request.body, requireStaff(request)),
    }),
  );

  app.delete(
    '/api/staff/support/saved-replies/:id',
    {
      onRequest: app.staffOnly('content'),
      schema: {
        tags: ['staff'],
        summary: 'Removes a saved reply (content; audited)',
        security: desk,
        params: idParams,
        response: { 204: z.null(), ...errorResponses(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await service.deleteReply(request.params.id, requireStaff(request));
      return reply.status(204).send(null);
    },
  );
};
