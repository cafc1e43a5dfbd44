import type { ReactNode } from 'react';
import { useErrorText } from '@/shared/error-text';
import { Button } from './button';
import { LoadFailed } from './load-failed';
import { Notice } from './notice';
import { UpdatedAt } from './updated-at';

/** What {@link QueryList} reads of a TanStack query (a plain or an infinite one). */
export interface ListQuery {
  isPending: boolean;
  isError: boolean;
  /** An infinite query's: the error is the older page's ({@link LoadOlder} says it). */
  isFetchNextPageError?: boolean;
  data: unknown;
  error: unknown;
  refetch: () => Promise<unknown>;
}

/**
 * A list screen's query in its three states: a line while it first loads; what failed, with a
 * retry, when nothing came; else the list (`children`) under `info` — and, when the last refresh
 * failed, its reason between them (the rows shown are then the earlier ones).
 */
export function QueryList({
  query,
  texts,
  info,
  children,
}: {
  query: ListQuery;
  texts: { loading: string; loadFailed: string; retry: string };
  /** Above the list: what it shows, when it was updated ({@link ListInfo}). */
  info?: ReactNode;
  children: ReactNode;
}) {
  const errorText = useErrorText();
  if (query.isPending) {
    return (
      <p role="status" className="py-8 text-center text-body text-mist-600">
        {texts.loading}
      </p>
    );
  }
  if (query.isError && !query.data) {
    return (
      <LoadFailed
        title={texts.loadFailed}
        error={query.error}
        retry={texts.retry}
        onRetry={() => void query.refetch()}
      />
    );
  }
  return (
    <>
      {info}
      {query.isError && !query.isFetchNextPageError ? (
        <Notice tone="danger" className="mb-3">
          {errorText(query.error)}
        </Notice>
      ) : null}
      {children}
    </>
  );
}

/** The line above a list: what it shows (`children`) and when it was last brought up to date. */
export function ListInfo({ children, updatedAt }: { children: ReactNode; updatedAt: number }) {
  return (
    <div className="mb-2 flex flex-wrap items-center justify-between gap-2 text-caption text-mist-600">
      <p>{children}</p>
      <UpdatedAt at={updatedAt} />
    </div>
  );
}

/** What {@link LoadOlder} reads of a TanStack infinite query. */
export interface OlderPagesQuery {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  isFetchNextPageError: boolean;
  error: unknown;
  fetchNextPage: () => Promise<unknown>;
}

/**
 * Under a list paged by `before` (the server's `nextBefore`): the button that appends the next,
 * older page, pending while it loads and gone on the last page; when that page fails, what
 * failed and why, above the button (which tries again).
 */
export function LoadOlder({
  query,
  texts,
}: {
  query: OlderPagesQuery;
  texts: { more: string; loading: string; failed: string };
}) {
  const errorText = useErrorText();
  if (!query.hasNextPage) return null;
  return (
    <div className="mt-4 flex flex-col items-center gap-3">
      {query.isFetchNextPageError && !query.isFetchingNextPage ? (
        <Notice tone="danger" className="w-full">
          {texts.failed} {errorText(query.error)}
        </Notice>
      ) : null}
      <Button
        variant="secondary"
        pending={query.isFetchingNextPage}
        onClick={() => void query.fetchNextPage()}
      >
        {query.isFetchingNextPage ? texts.loading : texts.more}
      </Button>
    </div>
  );
}
