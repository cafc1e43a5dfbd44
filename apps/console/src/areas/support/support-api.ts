import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Locale } from '@alda/contract/locale';
import {
  staffSupportContext,
  staffSupportConversation,
  staffSupportDesk,
  staffSupportList,
  supportSavedReply,
  supportSavedReplyList,
  type StaffSupportConversation,
  type StaffSupportWriteRequest,
  type SupportQueue,
  type SupportSavedReplyRequest,
} from '@alda/contract/schemas/staff-support';
import { ApiError } from '@/shared/api';
import { localeOf } from '@/shared/i18n';
import type { SessionStore } from '@/shared/session';
import { useApi, useServices } from '@/shared/services';

/*
 * The support desk's calls (`/api/staff/support/*`, issue 46, ADR 0088). The queues and the open
 * thread refresh every 10 s while the tab is shown (TanStack pauses the interval in a hidden tab):
 * that is how the desk sees new conversations and answers "live" — staff have no hub connection.
 * The client sends If-None-Match, so an unchanged answer is a 304 without a body.
 *
 * The customer context beside a thread is fetched once each time a thread is opened, never on a
 * timer: every read of it is a `customer.view` entry in the audit log (the conversation is the
 * reason). Images are fetched once each, with the staff token, for the same reason.
 */

/** How often the queues and the open thread ask again (ADR 0088 "Live"). */
export const SUPPORT_REFRESH_MS = 10_000;

const BASE = '/api/staff/support';
const conversationPath = (id: string) => `${BASE}/conversations/${encodeURIComponent(id)}`;
const savedReplyPath = (id: string) => `${BASE}/saved-replies/${encodeURIComponent(id)}`;

export const supportKeys = {
  all: ['staff', 'support'] as const,
  queues: ['staff', 'support', 'queue'] as const,
  queue: (queue: SupportQueue) => ['staff', 'support', 'queue', queue] as const,
  one: (id: string) => ['staff', 'support', 'conversation', id] as const,
  context: (id: string) => ['staff', 'support', 'context', id] as const,
  desk: ['staff', 'support', 'desk'] as const,
  savedReplies: ['staff', 'support', 'saved-replies'] as const,
  attachment: (id: string) => ['staff', 'support', 'attachment', id] as const,
};

export function useSupportQueue(queue: SupportQueue) {
  const api = useApi();
  return useQuery({
    queryKey: supportKeys.queue(queue),
    queryFn: ({ signal }) =>
      api.get(`${BASE}/conversations`, { query: { queue }, schema: staffSupportList, signal }),
    refetchInterval: SUPPORT_REFRESH_MS,
  });
}

export function useSupportConversation(id: string) {
  const api = useApi();
  return useQuery({
    queryKey: supportKeys.one(id),
    queryFn: ({ signal }) =>
      api.get(conversationPath(id), { schema: staffSupportConversation, signal }),
    refetchInterval: SUPPORT_REFRESH_MS,
    staleTime: 0,
  });
}

/**
 * The customer beside the thread. Asked once per opening of the thread (each read is audited);
 * `refetch()` asks again when the desk wants the latest (an order that moved on).
 */
export function useSupportContext(id: string) {
  const api = useApi();
  return useQuery({
    queryKey: supportKeys.context(id),
    queryFn: ({ signal }) =>
      api.get(`${conversationPath(id)}/context`, { schema: staffSupportContext, signal }),
    staleTime: Infinity,
    refetchOnMount: 'always',
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
}

/** The support and admin members a conversation can be assigned to. */
export function useSupportDesk() {
  const api = useApi();
  return useQuery({
    queryKey: supportKeys.desk,
    queryFn: ({ signal }) => api.get(`${BASE}/desk`, { schema: staffSupportDesk, signal }),
    staleTime: 5 * 60_000,
  });
}

export function useSavedReplies() {
  const api = useApi();
  return useQuery({
    queryKey: supportKeys.savedReplies,
    queryFn: ({ signal }) =>
      api.get(`${BASE}/saved-replies`, { schema: supportSavedReplyList, signal }),
    staleTime: 60_000,
  });
}

/** After a change to a thread: its answer is the thread; the queues it moves between refresh. */
function useThreadChanged(id: string) {
  const queryClient = useQueryClient();
  return {
    onSuccess: (thread: StaffSupportConversation) => {
      queryClient.setQueryData(supportKeys.one(id), thread);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: supportKeys.queues }),
  };
}

/** An answer to the customer, or an internal note (`internal: true`). */
export function useWriteSupport(id: string) {
  const api = useApi();
  return useMutation({
    mutationFn: (body: StaffSupportWriteRequest) =>
      api.post(`${conversationPath(id)}/messages`, body, { schema: staffSupportConversation }),
    ...useThreadChanged(id),
  });
}

export function useAssignSupport(id: string) {
  const api = useApi();
  return useMutation({
    mutationFn: (staffUserId: string) =>
      api.post(
        `${conversationPath(id)}/assign`,
        { staffUserId },
        { schema: staffSupportConversation },
      ),
    ...useThreadChanged(id),
  });
}

export function useCloseSupport(id: string) {
  const api = useApi();
  return useMutation({
    mutationFn: () =>
      api.post(`${conversationPath(id)}/close`, undefined, { schema: staffSupportConversation }),
    ...useThreadChanged(id),
  });
}

/** Creates a saved reply (`id` null) or changes one (content role). */
export function useSaveReply() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string | null; body: SupportSavedReplyRequest }) =>
      id
        ? api.put(savedReplyPath(id), body, { schema: supportSavedReply })
        : api.post(`${BASE}/saved-replies`, body, { schema: supportSavedReply }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: supportKeys.savedReplies }),
  });
}

export function useDeleteReply() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete<undefined>(savedReplyPath(id)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: supportKeys.savedReplies }),
  });
}

/**
 * The bytes of an image sent in a conversation, with the staff token. An image is not JSON, so
 * not a call of the API client: the token lives in a header (not a cookie), so a plain `<img src>`
 * could not fetch it either. A refused call throws an {@link ApiError}; a 401 ends the session,
 * as the API client does.
 */
export async function fetchAttachment(
  id: string,
  { session, locale, signal }: { session: SessionStore; locale: Locale; signal?: AbortSignal },
): Promise<Blob> {
  const token = session.token();
  let response: Response;
  try {
    response = await fetch(`${BASE}/attachments/${encodeURIComponent(id)}`, {
      headers: {
        accept: 'image/jpeg, image/png',
        'accept-language': locale,
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      credentials: 'omit',
      signal,
    });
  } catch (cause) {
    if (signal?.aborted) throw cause;
    throw new ApiError('NETWORK', 0, '');
  }
  if (!response.ok) {
    if (response.status === 401 && token && session.token() === token) session.end('expired');
    throw new ApiError(
      response.status === 404 ? 'NOT_FOUND' : 'INVALID_RESPONSE',
      response.status,
      '',
    );
  }
  const blob = await response.blob();
  // Only the two types the server stores; anything else is not shown as an image.
  if (!/^image\/(jpeg|png)(;|$)/.test(blob.type))
    throw new ApiError('INVALID_RESPONSE', response.status, '');
  return blob;
}

/** An image of a message, fetched once (each read is in the audit log) and kept for the page. */
export function useAttachment(id: string) {
  const { session } = useServices();
  const { i18n } = useTranslation();
  return useQuery({
    queryKey: supportKeys.attachment(id),
    queryFn: ({ signal }) => fetchAttachment(id, { session, locale: localeOf(i18n), signal }),
    staleTime: Infinity,
    gcTime: 30 * 60_000,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
}
