import { useEffect, useRef } from 'react';
import {
  useInfiniteQuery,
  useQueryClient,
  type InfiniteData,
  type QueryClient,
} from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '@alda/contract/format/date';
import type { NotificationItem, NotificationsResponse } from '@alda/contract/schemas/notifications';
import { unwrap } from '@/shared/api/http';
import { EmptyState } from '@/shared/account/screen-states';
import { useAppServices } from '@/shared/services/app-services';
import { Button } from '@/shared/ui/button';
import { cx } from '@/shared/ui/cx';
import { ErrorState } from '@/shared/ui/error-state';
import { InfoIcon } from '@/shared/ui/icons';
import { ScreenBody, ScreenHeader } from '@/shared/ui/screen';
import { Skeleton } from '@/shared/ui/skeleton';
import { Spinner } from '@/shared/ui/spinner';
import { useToast } from '@/shared/ui/toast/toast-context';
import { fetchNotificationsPage, notificationKeys, notificationsApi } from './notifications-api';
import { PushPrompt } from './push-prompt';
import { ROUTES } from '@/shared/config/paths';

type Pages = InfiniteData<NotificationsResponse, number>;

/** Applies `change` to every cached item and sets the unread count. */
function updateCache(
  queryClient: QueryClient,
  change: (item: NotificationItem) => NotificationItem,
  totalUnread: (previous: number) => number,
) {
  queryClient.setQueryData<Pages>(notificationKeys.list, (data) =>
    data
      ? {
          ...data,
          pages: data.pages.map((page) => ({ ...page, items: page.items.map(change) })),
        }
      : data,
  );
  queryClient.setQueryData<number>(notificationKeys.unread, (n) =>
    Math.max(0, totalUnread(n ?? 0)),
  );
}

/**
 * /frabodanir: the notifications, newest first, a page at a time as the list scrolls; after a
 * usage alert, the offer to get them as pushes on this device (push-prompt.tsx).
 */
export function NotificationsScreen() {
  const { t } = useTranslation();
  const { http } = useAppServices();
  const queryClient = useQueryClient();
  const toast = useToast();
  const navigate = useNavigate();
  const query = useInfiniteQuery({
    queryKey: notificationKeys.list,
    initialPageParam: 0,
    queryFn: async ({ pageParam }) => {
      const page = unwrap(await fetchNotificationsPage(http, pageParam));
      queryClient.setQueryData(notificationKeys.unread, page.totalUnread);
      return page;
    },
    getNextPageParam: (last) =>
      (last.page + 1) * last.perPage < last.total ? last.page + 1 : undefined,
    // Always fresh when opened: polling skips notifications on this screen.
    staleTime: 0,
  });
  const items = query.data?.pages.flatMap((page) => page.items) ?? [];
  const unread = items.some((item) => item.readAt === null);

  async function open(item: NotificationItem) {
    if (item.readAt === null) {
      const result = await notificationsApi.markAsRead(http, item.id);
      if (!result.ok) {
        toast.show({ type: 'error', message: t('notifications.markFailed') });
      } else {
        updateCache(
          queryClient,
          (i) => (i.id === item.id ? result.data : i),
          (n) => n - 1,
        );
      }
    }
    if (item.link) void navigate(item.link);
  }

  async function markAll() {
    const result = await notificationsApi.markAllAsRead(http);
    if (!result.ok) {
      toast.show({ type: 'error', message: t('notifications.markFailed') });
      return;
    }
    const now = new Date().toISOString();
    updateCache(
      queryClient,
      (i) => (i.readAt === null ? { ...i, readAt: now } : i),
      () => 0,
    );
  }

  return (
    <main className="pb-footer min-h-dvh bg-mist-50">
      <ScreenHeader title={t('notifications.title')} back={ROUTES.home}>
        {unread && (
          <Button variant="ghost" size="md" onClick={() => void markAll()}>
            {t('notifications.markAll')}
          </Button>
        )}
      </ScreenHeader>
      <ScreenBody>
        {query.isPending ? (
          <div className="flex flex-col gap-3" aria-busy="true">
            <Skeleton className="h-20 rounded-card" />
            <Skeleton className="h-20 rounded-card" />
            <Skeleton className="h-20 rounded-card" />
          </div>
        ) : query.isError && items.length === 0 ? (
          <ErrorState
            message={t('notifications.loadFailed')}
            onRetry={() => void query.refetch()}
            retrying={query.isFetching}
          />
        ) : items.length === 0 ? (
          <EmptyState icon={<InfoIcon />} title={t('notifications.empty')} />
        ) : (
          <>
            <PushPrompt items={items} />
            <ul className="flex flex-col gap-2">
              {items.map((item) => (
                <li key={item.id}>
                  <NotificationRow item={item} onOpen={() => void open(item)} />
                </li>
              ))}
            </ul>
            {query.hasNextPage && (
              <LoadMore
                loading={query.isFetchingNextPage}
                onLoad={() => void query.fetchNextPage()}
              />
            )}
            {query.isFetchNextPageError && (
              <ErrorState
                message={t('notifications.loadFailed')}
                onRetry={() => void query.fetchNextPage()}
              />
            )}
          </>
        )}
      </ScreenBody>
    </main>
  );
}

function NotificationRow({ item, onOpen }: { item: NotificationItem; onOpen: () => void }) {
  const { t } = useTranslation();
  const unread = item.readAt === null;
  return (
    <button
      type="button"
      onClick={onOpen}
      className={cx(
        'flex w-full items-start gap-3 rounded-card px-4 py-3 text-left shadow-card transition-colors',
        unread ? 'bg-white' : 'bg-mist-50',
      )}
    >
      <span
        aria-hidden="true"
        className={cx(
          'mt-2 size-2.5 shrink-0 rounded-full',
          unread ? 'bg-puffin-500' : 'bg-transparent',
        )}
      />
      <span className="flex min-w-0 flex-1 flex-col gap-1">
        <span className={cx('text-body text-ocean-950', unread ? 'font-bold' : 'font-medium')}>
          {unread && <span className="sr-only">{t('notifications.unread')} </span>}
          {item.title}
        </span>
        <span className="text-caption text-mist-700">{item.body}</span>
        <span className="text-caption text-mist-500">{formatDateTime(item.createdAt)}</span>
      </span>
    </button>
  );
}

/** Loads the next page when it scrolls into view; a button where that cannot be observed. */
function LoadMore({ loading, onLoad }: { loading: boolean; onLoad: () => void }) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDivElement>(null);
  const latest = useRef(onLoad);
  useEffect(() => {
    latest.current = onLoad;
  }, [onLoad]);
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) latest.current();
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return (
    <div ref={ref} className="flex justify-center py-4">
      {loading ? (
        <Spinner className="size-6" />
      ) : (
        <Button variant="secondary" size="md" onClick={onLoad}>
          {t('notifications.more')}
        </Button>
      )}
    </div>
  );
}
