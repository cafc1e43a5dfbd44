import { queryOptions } from '@tanstack/react-query';
import {
  supportAttachment,
  supportConversation,
  type SupportRatingRequest,
  type SupportStartRequest,
  type SupportWriteRequest,
} from '@alda/contract/schemas/support';
import { unwrap, type HttpClient } from '@/shared/api/http';
import { supportKeys } from '@/shared/support/support-queries';

const conversationPath = (id: string) => `/support/conversations/${encodeURIComponent(id)}`;

/** The customer's support calls (issue 46, ADR 0088), each a result-or-error pair. */
export const supportApi = {
  start: (http: HttpClient, body: SupportStartRequest) =>
    http.post('/support/conversations', body, supportConversation),
  write: (http: HttpClient, conversationId: string, body: SupportWriteRequest) =>
    http.post(`${conversationPath(conversationId)}/messages`, body, supportConversation),
  /** Marks the desk's answers read: the unread badge goes. */
  markRead: (http: HttpClient, conversationId: string) =>
    http.post(`${conversationPath(conversationId)}/read`, undefined, supportConversation),
  close: (http: HttpClient, conversationId: string) =>
    http.post(`${conversationPath(conversationId)}/close`, undefined, supportConversation),
  rate: (http: HttpClient, conversationId: string, body: SupportRatingRequest) =>
    http.post(`${conversationPath(conversationId)}/rating`, body, supportConversation),
  /**
   * One photo, the image itself as the body with its type as the Content-Type; the server reads
   * the type from the bytes, resizes it and strips its EXIF before keeping it.
   */
  upload: (http: HttpClient, photo: Blob) =>
    http.post('/support/attachments', photo, supportAttachment),
  /** A photo's bytes: only with the customer's token, so never a plain `<img src>` URL. */
  photo: (http: HttpClient, attachmentId: string, signal?: AbortSignal) =>
    http.getBlob(`/support/attachments/${encodeURIComponent(attachmentId)}`, {
      signal,
      headers: { Accept: 'image/*' },
    }),
};

/** GET /support/conversations/:id: one thread, its messages oldest first. */
export const threadQuery = (http: HttpClient, conversationId: string) =>
  queryOptions({
    queryKey: supportKeys.thread(conversationId),
    queryFn: async ({ signal }) =>
      unwrap(await http.get(conversationPath(conversationId), supportConversation, { signal })),
    // Always read again when opened: the desk may have answered since.
    staleTime: 0,
  });
