import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import {
  STAFF_ORDER_FILTERS,
  type StaffOrderCounts,
  type StaffOrderFilter,
} from '@alda/contract/schemas/staff-orders';
import { cx } from '@/shared/cx';
import { PageHeader } from '@/shared/ui/page-header';
import { ListInfo, LoadOlder, QueryList } from '@/shared/ui/query-list';
import { SearchForm } from '@/shared/ui/search-form';
import { TextField } from '@/shared/ui/text-field';
import { useOrders, type OrdersFilter } from './orders-api';
import { OrdersTable } from './orders-table';

/** The address's query of a filter (the default `processing` is left out). */
function searchOf(filter: OrdersFilter): URLSearchParams {
  const search = new URLSearchParams();
  if (filter.state !== 'processing') search.set('state', filter.state);
  if (filter.q.trim()) search.set('q', filter.q.trim());
  return search;
}

const isFilter = (value: string | null): value is StaffOrderFilter =>
  (STAFF_ORDER_FILTERS as readonly (string | null)[]).includes(value);

/**
 * `/console/orders`: the provisioning queue. The filters (with how many open orders each has)
 * and the search live in the address (`?state=&q=`), so going back from an order finds the same
 * list; older orders page by page (the table sorts every order shown); the list refreshes itself
 * every 5 s (ETag: an unchanged page is a 304).
 */
export function OrdersQueueScreen() {
  const { t } = useTranslation('orders');
  const [params, setParams] = useSearchParams();
  const stateParam = params.get('state');
  const filter: OrdersFilter = {
    state: isFilter(stateParam) ? stateParam : 'processing',
    q: params.get('q') ?? '',
  };
  const [draft, setDraft] = useState(filter.q);
  const orders = useOrders(filter);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setParams(searchOf({ ...filter, q: draft }), { replace: true });
  };

  const first = orders.data?.pages[0];
  const counts = first?.counts;
  const items = orders.data?.pages.flatMap((page) => page.items) ?? [];
  const filterLabel = t(`filter.${filter.state}`);

  return (
    <>
      <PageHeader title={t('queue.title')} lead={t('queue.lead')} />
      <nav aria-label={t('queue.filtersLabel')} className="mb-4">
        <ul className="flex flex-wrap gap-2">
          {STAFF_ORDER_FILTERS.map((state) => (
            <li key={state}>
              <FilterChip
                to={{ search: `?${searchOf({ state, q: filter.q }).toString()}` }}
                label={t(`filter.${state}`)}
                count={counts && state !== 'all' ? counts[state as keyof StaffOrderCounts] : null}
                active={state === filter.state}
                alert={
                  (state === 'late' || state === 'rejected' || state === 'failed') &&
                  (counts?.[state] ?? 0) > 0
                }
              />
            </li>
          ))}
        </ul>
      </nav>
      <SearchForm
        onSubmit={onSubmit}
        submit={t('queue.searchSubmit')}
        clear={filter.q ? t('queue.clear') : null}
        onClear={() => {
          setDraft('');
          setParams(searchOf({ ...filter, q: '' }), { replace: true });
        }}
      >
        <TextField
          label={t('queue.search')}
          hint={t('queue.searchHint')}
          type="search"
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
          autoComplete="off"
          spellCheck={false}
          className="min-w-64 flex-1"
        />
      </SearchForm>

      <QueryList
        query={orders}
        texts={{
          loading: t('queue.loading'),
          loadFailed: t('queue.loadFailed'),
          retry: t('queue.retry'),
        }}
        info={
          <ListInfo updatedAt={orders.dataUpdatedAt}>
            {t('queue.found', { count: items.length })}
          </ListInfo>
        }
      >
        <OrdersTable
          rows={items}
          stepS={first?.stepS ?? 0}
          caption={t('queue.caption', { filter: filterLabel })}
          empty={filter.q ? t('queue.emptySearch') : t('queue.empty')}
        />
        <LoadOlder
          query={orders}
          texts={{
            more: t('queue.older'),
            loading: t('queue.loadingOlder'),
            failed: t('queue.olderFailed'),
          }}
        />
      </QueryList>
    </>
  );
}

function FilterChip({
  to,
  label,
  count,
  active,
  alert,
}: {
  to: { search: string };
  label: string;
  count: number | null;
  active: boolean;
  alert: boolean;
}) {
  return (
    <Link
      to={to}
      replace
      aria-current={active ? 'page' : undefined}
      className={cx(
        'inline-flex min-h-9 items-center gap-2 rounded-full border px-3.5 text-caption font-semibold transition-colors',
        active
          ? 'border-ocean-700 bg-ocean-700 text-white'
          : 'border-mist-300 bg-white text-ocean-900 hover:border-ocean-300 hover:bg-ocean-50',
      )}
    >
      {label}
      {count !== null ? (
        <span
          className={cx(
            'min-w-6 rounded-full px-1.5 text-center tabular-nums',
            active
              ? 'bg-white/20 text-white'
              : alert
                ? 'bg-danger-50 text-danger-700'
                : 'bg-mist-100 text-mist-700',
          )}
        >
          {count}
        </span>
      ) : null}
    </Link>
  );
}
