import { queryOptions, useQuery } from '@tanstack/react-query';
import { supportConversationList } from '@alda/contract/schemas/support';
import { accountKeys } from '@/shared/api/account-data';
import { unwrap, type HttpClient } from '@/shared/api/http';
import { useAppServices, useSession } from '@/shared/services/app-services';

/**
 * Keys of the support conversations (issue 46). Under the account's keys on purpose: when the
 * notifications poll sees something new (an answer from the desk is one) it invalidates the
 * account's queries, and the menu's unread badge follows without a poll of its own.
 */
export const supportKeys = {
  all: [...accountKeys.all, 'supportConversations'] as const,
  list: [...accountKeys.all, 'supportConversations', 'list'] as const,
  thread: (conversationId: string) =>
    [...accountKeys.all, 'supportConversations', 'thread', conversationId] as const,
};

/** GET /support/conversations: the customer's conversations and their unread answers. */
export const supportListQuery = (http: HttpClient) =>
  queryOptions({
    queryKey: supportKeys.list,
    queryFn: async ({ signal }) =>
      unwrap(await http.get('/support/conversations', supportConversationList, { signal })),
  });

/**
 * Unread answers over all the customer's conversations (the menu's badge): 0 until the list has
 * been read. Shares the list screen's query, so opening a thread (which marks it read and
 * invalidates the list) takes the badge down.
 */
export function useSupportUnread(): number {
  const { http } = useAppServices();
  const { user } = useSession();
  const { data } = useQuery({ ...supportListQuery(http), enabled: user !== null });
  return user ? (data?.unread ?? 0) : 0;
}
