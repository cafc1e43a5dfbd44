import { useInfiniteQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useI18n } from '@/shared/i18n/use-i18n';
import { formatData } from '@alda/contract/format/data';
import { formatDateTime } from '@alda/contract/format/date';
import { formatKr } from '@alda/contract/format/money';
import { ACTIONS_PAGE_SIZE, actionsResponse, type Action } from '@alda/contract/schemas/actions';
import { unwrap } from '@/shared/api/http';
import { EmptyState } from '@/shared/account/screen-states';
import { LoadMore } from '@/shared/ui/load-more';
import { currentLocale } from '@/shared/i18n/i18n';
import { useAppServices } from '@/shared/services/app-services';
import { ClockIcon } from '@/shared/ui/account-icons';
import { ErrorState } from '@/shared/ui/error-state';
import { ScreenBody, ScreenHeader } from '@/shared/ui/screen';
import { Skeleton } from '@/shared/ui/skeleton';
import { ROUTES } from '@/shared/config/paths';

export const activityKeys = { list: ['activity', 'list'] as const };

/**
 * /menu/virksemi: the activity log (GET /api/actions?page&perPage), newest first, a page at a
 * time. The client reads only `data` of the answer, so a page shorter than the page size is the
 * last one.
 */
export function ActivityScreen() {
  const { t } = useTranslation();
  const i18n = useI18n();
  const locale = currentLocale(i18n);
  const { http } = useAppServices();
  const query = useInfiniteQuery({
    queryKey: [...activityKeys.list, locale],
    initialPageParam: 0,
    queryFn: async ({ pageParam, signal }) =>
      unwrap(
        await http.get('/actions', actionsResponse, {
          query: { page: pageParam, perPage: ACTIONS_PAGE_SIZE },
          signal,
        }),
      ),
    getNextPageParam: (last, _all, page) =>
      last.length === ACTIONS_PAGE_SIZE ? page + 1 : undefined,
  });
  const entries = query.data?.pages.flat() ?? [];

  return (
    <main className="pb-footer min-h-dvh bg-mist-50">
      <ScreenHeader title={t('activity.title')} back={ROUTES.menu} />
      <ScreenBody>
        {query.isPending ? (
          <div className="flex flex-col gap-3" aria-busy="true">
            <Skeleton className="h-16 rounded-card" />
            <Skeleton className="h-16 rounded-card" />
            <Skeleton className="h-16 rounded-card" />
          </div>
        ) : query.isError && entries.length === 0 ? (
          <ErrorState
            message={t('activity.loadFailed')}
            onRetry={() => void query.refetch()}
            retrying={query.isFetching}
          />
        ) : entries.length === 0 ? (
          <EmptyState icon={<ClockIcon />} title={t('activity.empty')} />
        ) : (
          <>
            <ul className="flex flex-col divide-y divide-mist-100 rounded-card bg-white shadow-card">
              {entries.map((entry) => (
                <li key={entry.id}>
                  <ActivityRow entry={entry} />
                </li>
              ))}
            </ul>
            <LoadMore
              query={query}
              label={t('activity.more')}
              failedMessage={t('activity.loadFailed')}
            />
          </>
        )}
      </ScreenBody>
    </main>
  );
}

function ActivityRow({ entry }: { entry: Action }) {
  const { t } = useTranslation();
  const i18n = useI18n();
  const locale = currentLocale(i18n);
  const details = [
    entry.phoneNumber,
    entry.dataAmount !== null ? formatData(entry.dataAmount, locale) : null,
    entry.amount !== null ? formatKr(entry.amount, locale) : null,
    entry.actor
      ? t('activity.by', { name: `${entry.actor.firstname} ${entry.actor.lastname}` })
      : null,
  ].filter((part): part is string => part !== null);
  return (
    <div className="flex flex-col gap-1 px-4 py-3">
      <p className="text-body text-ocean-950">{entry.text}</p>
      {details.length > 0 && <p className="text-caption text-mist-700">{details.join(' · ')}</p>}
      <p className="text-caption text-mist-500">{formatDateTime(entry.createdAt)}</p>
    </div>
  );
}
