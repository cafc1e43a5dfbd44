import { useMemo } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { NOTIFICATIONS_PAGE_SIZE } from '@alda/contract/constants';
import { accountKeys } from '@/shared/api/account-data';
import type { HttpClient } from '@/shared/api/http';
import { UNREAD_NOTIFICATIONS_KEY } from '@/shared/api/notifications-unread';
import { useAppServices } from '@/shared/services/app-services';

export const notificationKeys = {
  all: ['notifications'] as const,
  /** Number of unread notifications (footer badge), kept fresh by polling. */
  unread: UNREAD_NOTIFICATIONS_KEY,
  list: ['notifications', 'list'] as const,
};

/** The poll runs from the entry chunk: the schemas (and zod) load with the first request. */
const schemas = () => import('@alda/contract/schemas/notifications');

/** The notification calls of SPEC §7. */
export const notificationsApi = {
  page: (http: HttpClient, page: number, etag: string | null = null) =>
    http.getIfChanged(
      '/notifications',
      schemas().then((m) => m.notificationsResponse),
      etag,
      {
        query: { page, perPage: NOTIFICATIONS_PAGE_SIZE },
      },
    ),
  markAsRead: (http: HttpClient, id: string) =>
    http.patch(
      `/notifications/${encodeURIComponent(id)}/mark-as-read`,
      undefined,
      schemas().then((m) => m.markAsReadResponse),
    ),
  markAllAsRead: (http: HttpClient) =>
    http.patch(
      '/notifications/mark-all-as-read',
      undefined,
      schemas().then((m) => m.markAllAsReadResponse),
    ),
};

export interface NotificationsPoller {
  /** One poll of the first page (If-None-Match); updates the unread count. */
  poll(): Promise<void>;
  reset(): void;
}

export function createNotificationsPoller(
  http: HttpClient,
  queryClient: QueryClient,
): NotificationsPoller {
  let etag: string | null = null;
  let generation = 0;
  return {
    async poll() {
      const mine = generation;
      const result = await notificationsApi.page(http, 0, etag);
      if (mine !== generation || !result.ok || !result.data.changed) return;
      const firstPoll = etag === null;
      etag = result.data.etag;
      // Something happened since the last poll (data received, a request answered): the
      // balances on screen may be out of date too.
      if (!firstPoll) void queryClient.invalidateQueries({ queryKey: accountKeys.all });
      queryClient.setQueryData(notificationKeys.unread, result.data.data.totalUnread);
      // The list (if loaded) is out of date now; refetched when the screen opens.
      void queryClient.invalidateQueries({ queryKey: notificationKeys.list, refetchType: 'none' });
    },
    reset() {
      generation += 1;
      etag = null;
    },
  };
}

export function useNotificationsPoller(): NotificationsPoller {
  const { http } = useAppServices();
  const queryClient = useQueryClient();
  return useMemo(() => createNotificationsPoller(http, queryClient), [http, queryClient]);
}

/** One page of the list (no ETag: the screen always wants the answer). */
export async function fetchNotificationsPage(http: HttpClient, page: number) {
  return http.get(
    '/notifications',
    schemas().then((m) => m.notificationsResponse),
    {
      query: { page, perPage: NOTIFICATIONS_PAGE_SIZE },
    },
  );
}
