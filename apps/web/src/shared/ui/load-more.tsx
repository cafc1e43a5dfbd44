import { Button } from './button';
import { ErrorState } from './error-state';

/** The paging fields of an infinite query (TanStack Query's `useInfiniteQuery`). */
interface PagedQuery {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  isFetchNextPageError: boolean;
  fetchNextPage: () => unknown;
}

/**
 * Below a paged list: "show more" while there are older pages, or the list's own failure
 * message with a retry when loading the next page failed (the rows already shown stay).
 */
export function LoadMore({
  query,
  label,
  failedMessage,
}: {
  query: PagedQuery;
  label: string;
  failedMessage: string;
}) {
  const next = () => void query.fetchNextPage();
  if (query.isFetchNextPageError) return <ErrorState message={failedMessage} onRetry={next} />;
  if (!query.hasNextPage) return null;
  return (
    <div className="flex justify-center">
      <Button variant="secondary" size="md" loading={query.isFetchingNextPage} onClick={next}>
        {label}
      </Button>
    </div>
  );
}
