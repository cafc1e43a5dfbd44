import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { apiErrorOf } from '@/shared/api/query-error';
import { useErrorMessage } from '@/shared/i18n/use-error-message';
import { ErrorState } from '@/shared/ui/error-state';
import { Skeleton } from '@/shared/ui/skeleton';

/** The loading state of an account screen: a header block and two cards of placeholders. */
export function DetailSkeleton() {
  const { t } = useTranslation();
  return (
    <div aria-busy="true" aria-label={t('app.loading')} className="flex flex-col gap-5">
      <div className="flex items-center gap-4">
        <Skeleton className="size-16 rounded-full" />
        <div className="flex min-w-0 flex-1 flex-col gap-2">
          <Skeleton className="h-6 w-2/3" />
          <Skeleton className="h-4 w-1/3" />
        </div>
      </div>
      <Skeleton className="h-64 rounded-card" />
      <Skeleton className="h-40 rounded-card" />
    </div>
  );
}

/** A failed load with the API's message (in the current language) and a retry. */
export function QueryError({
  error,
  onRetry,
  retrying,
}: {
  error: unknown;
  onRetry: () => void;
  retrying?: boolean;
}) {
  const errorMessage = useErrorMessage();
  return (
    <ErrorState message={errorMessage(apiErrorOf(error))} onRetry={onRetry} retrying={retrying} />
  );
}

/** Nothing to show: an icon, a title, a line of text and optionally a way on. */
export function EmptyState({
  icon,
  title,
  body,
  action,
}: {
  icon: ReactNode;
  title: string;
  body?: string;
  action?: ReactNode;
}) {
  return (
    <div className="flex flex-col items-center gap-3 rounded-card bg-white px-6 py-10 text-center shadow-card">
      <span className="flex size-12 items-center justify-center rounded-full bg-mist-100 text-mist-500">
        {icon}
      </span>
      <h2 className="text-lead font-bold text-ocean-950">{title}</h2>
      {body && <p className="text-body text-mist-600">{body}</p>}
      {action}
    </div>
  );
}

/** What a screen's query looks like while it has no data yet (TanStack Query's fields). */
interface PendingQuery {
  isError: boolean;
  error: unknown;
  isFetching: boolean;
  refetch: () => unknown;
}

/**
 * A screen whose query has no data yet: the load failed (with a retry), or it is still loading.
 * `failedMessage` names what failed (SPEC §8 "specific messages exist for each of these
 * failures"); without it the API's own message is shown. `loading` replaces the default skeleton.
 */
export function QueryPending({
  query,
  failedMessage,
  loading = <DetailSkeleton />,
}: {
  query: PendingQuery;
  failedMessage?: string;
  loading?: ReactNode;
}) {
  if (!query.isError) return loading;
  const retry = () => void query.refetch();
  return failedMessage === undefined ? (
    <QueryError error={query.error} onRetry={retry} retrying={query.isFetching} />
  ) : (
    <ErrorState message={failedMessage} onRetry={retry} retrying={query.isFetching} />
  );
}
