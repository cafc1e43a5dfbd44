import { useCallback, useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { Unlock } from 'lucide-react';
import { formatDate, formatDateTime } from '@alda/contract/format/date';
import { formatPhoneNumber } from '@alda/contract/format/phone';
import {
  NUMBER_STATES,
  type NumberState,
  type StaffNumber,
  type StaffNumberCounts,
} from '@alda/contract/schemas/staff-numbers';
import { cx } from '@/shared/cx';
import { localeOf } from '@/shared/i18n';
import { Badge } from '@/shared/ui/badge';
import { Button } from '@/shared/ui/button';
import { DataTable, type DataColumn } from '@/shared/ui/data-table';
import { Notice } from '@/shared/ui/notice';
import { PageHeader } from '@/shared/ui/page-header';
import { ListInfo, QueryList } from '@/shared/ui/query-list';
import { ReasonDialog } from '@/shared/ui/reason-dialog';
import { SearchForm } from '@/shared/ui/search-form';
import { TextField } from '@/shared/ui/text-field';
import { useNumbers, useRelease, type NumbersFilter } from './numbers-api';

/** The tabs, in the order a desk works them: what can be released first. */
const TABS: readonly NumberState[] = ['quarantined', 'reserved', 'in-use', 'free'];

const isState = (value: string | null): value is NumberState =>
  (NUMBER_STATES as readonly (string | null)[]).includes(value);

type Quarantined = Extract<StaffNumber, { state: 'quarantined' }>;

/**
 * `/console/numbers`: the number inventory — quarantined, reserved, in-use and free numbers, each
 * a tab with its count, searched by the digits a number contains, refreshed every 5 s. A
 * quarantined number can be released early with a reason (support, provisioning, admin). The tab
 * and the search live in the address (`?state=&q=`).
 */
export function NumbersScreen() {
  const { t } = useTranslation('numbers');
  const [params, setParams] = useSearchParams();
  const stateParam = params.get('state');
  const filter: NumbersFilter = {
    state: isState(stateParam) ? stateParam : 'quarantined',
    q: params.get('q') ?? '',
  };
  const [draft, setDraft] = useState(filter.q);
  const [invalidSearch, setInvalidSearch] = useState(false);
  const [releasing, setReleasing] = useState<Quarantined | null>(null);
  const [released, setReleased] = useState<string | null>(null);
  const numbers = useNumbers(filter);
  const release = useRelease();
  const resetRelease = release.reset;
  const openRelease = useCallback(
    (item: Quarantined) => {
      resetRelease();
      setReleased(null);
      setReleasing(item);
    },
    [resetRelease, setReleased, setReleasing],
  );

  const apply = (next: NumbersFilter) => {
    const search = new URLSearchParams();
    if (next.state !== 'quarantined') search.set('state', next.state);
    if (next.q) search.set('q', next.q);
    setParams(search, { replace: true });
  };
  const onSearch = (event: FormEvent) => {
    event.preventDefault();
    const digits = draft.replace(/\s+/g, '').replace(/^(\+298|00298(?=\d))/, '');
    const ok = /^\d{0,6}$/.test(digits);
    setInvalidSearch(!ok);
    if (ok) apply({ ...filter, q: digits });
  };

  const columns = useMemo<DataColumn<StaffNumber>[]>(() => {
    const number: DataColumn<StaffNumber> = {
      id: 'number',
      header: () => t('columns.number'),
      cell: ({ row }) => (
        <span className="font-semibold whitespace-nowrap text-mist-900 tabular-nums">
          {formatPhoneNumber(row.original.msisdn)}
        </span>
      ),
    };
    switch (filter.state) {
      case 'quarantined':
        return [
          number,
          {
            id: 'cancelled',
            header: () => t('columns.cancelled'),
            cell: ({ row }) =>
              row.original.state === 'quarantined' ? formatDate(row.original.cancelledAt) : null,
          },
          {
            id: 'ends',
            header: () => t('columns.quarantineEnds'),
            cell: ({ row }) =>
              row.original.state === 'quarantined'
                ? formatDate(row.original.quarantineEndsAt)
                : null,
          },
          {
            id: 'actions',
            header: () => <span className="sr-only">{t('columns.actions')}</span>,
            cell: ({ row }) => {
              const item = row.original;
              if (item.state !== 'quarantined') return null;
              if (item.customerNumber)
                return (
                  <p className="text-right text-caption text-mist-600">
                    {t('release.customerNumber')}
                  </p>
                );
              return (
                <div className="flex justify-end">
                  <Button
                    variant="secondary"
                    size="sm"
                    icon={<Unlock aria-hidden="true" className="size-4" />}
                    aria-label={t('release.buttonFor', { number: formatPhoneNumber(item.msisdn) })}
                    onClick={() => openRelease(item)}
                  >
                    {t('release.button')}
                  </Button>
                </div>
              );
            },
          },
        ];
      case 'reserved':
        return [
          number,
          {
            id: 'until',
            header: () => t('columns.reservedUntil'),
            cell: ({ row }) =>
              row.original.state === 'reserved' ? (
                <span className="whitespace-nowrap">
                  {formatDateTime(row.original.reservedUntil)}
                </span>
              ) : null,
          },
          {
            id: 'customer',
            header: () => t('columns.customer'),
            cell: ({ row }) =>
              row.original.state === 'reserved' ? (
                <code className="text-caption text-mist-700">{row.original.customerId}</code>
              ) : null,
          },
        ];
      case 'in-use':
        return [
          number,
          {
            id: 'status',
            header: () => t('columns.lineStatus'),
            cell: ({ row }) =>
              row.original.state === 'in-use' ? (
                <LineStatus status={row.original.lineStatus} />
              ) : null,
          },
          {
            id: 'since',
            header: () => t('columns.since'),
            cell: ({ row }) =>
              row.original.state === 'in-use' && row.original.since
                ? formatDate(row.original.since)
                : t('columns.noDate'),
          },
        ];
      case 'free':
        return [number];
    }
  }, [filter.state, t, openRelease]);

  const pages = numbers.data?.pages ?? [];
  const items = pages.flatMap((page) => page.items);
  const counts = pages[0]?.counts;
  const quarantineDays = pages[0]?.quarantineDays;

  return (
    <>
      <PageHeader title={t('title')} lead={t('lead')} />

      <SearchForm
        onSubmit={onSearch}
        submit={t('search.submit')}
        clear={filter.q ? t('search.clear') : null}
        onClear={() => {
          setDraft('');
          setInvalidSearch(false);
          apply({ ...filter, q: '' });
        }}
      >
        <TextField
          label={t('search.label')}
          hint={t('search.hint')}
          error={invalidSearch ? t('search.invalid') : null}
          type="search"
          inputMode="numeric"
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
          autoComplete="off"
          spellCheck={false}
          className="min-w-64 flex-1"
        />
      </SearchForm>

      <StateTabs
        current={filter.state}
        counts={counts}
        onChange={(state) => {
          setReleased(null);
          apply({ ...filter, state });
        }}
      />

      {released ? (
        <Notice tone="success" className="mb-3">
          {t('release.done', { number: formatPhoneNumber(released) })}
        </Notice>
      ) : null}

      <QueryList
        query={numbers}
        texts={{ loading: t('loading'), loadFailed: t('loadFailed'), retry: t('retry') }}
        info={
          <ListInfo updatedAt={numbers.dataUpdatedAt}>
            {filter.state === 'quarantined' && quarantineDays !== undefined
              ? t('explain.quarantined', { count: quarantineDays })
              : t(`explain.${filter.state}`)}
          </ListInfo>
        }
      >
        <DataTable
          columns={columns}
          data={items}
          caption={t('caption', { state: t(`states.${filter.state}`) })}
          getRowId={(row) => row.msisdn}
          empty={filter.q ? t('emptySearch', { q: filter.q }) : t(`empty.${filter.state}`)}
        />
        {numbers.hasNextPage ? (
          <div className="mt-4 flex justify-center">
            <Button
              variant="secondary"
              pending={numbers.isFetchingNextPage}
              onClick={() => void numbers.fetchNextPage()}
            >
              {numbers.isFetchingNextPage ? t('loadingMore') : t('more')}
            </Button>
          </div>
        ) : null}
      </QueryList>

      {releasing ? (
        <ReasonDialog
          title={t('release.title', { number: formatPhoneNumber(releasing.msisdn) })}
          lead={t('release.lead', {
            cancelled: formatDate(releasing.cancelledAt),
            until: formatDate(releasing.quarantineEndsAt),
          })}
          texts={{
            label: t('release.reason'),
            hint: t('release.reasonHint'),
            required: t('release.reasonRequired'),
            cancel: t('release.cancel'),
            confirm: t('release.confirm'),
            pending: t('release.pending'),
          }}
          pending={release.isPending}
          error={release.error}
          onClose={() => setReleasing(null)}
          onConfirm={(reason) =>
            release.mutate(
              { msisdn: releasing.msisdn, reason },
              {
                onSuccess: (done) => {
                  setReleasing(null);
                  setReleased(done.msisdn);
                },
              },
            )
          }
        />
      ) : null}
    </>
  );
}

/**
 * A count with thousands grouped as people write them: 399.992 in Faroese, 399,992 in English
 * (by hand: browsers' locale data often lacks Faroese).
 */
export function formatCount(n: number, locale: string): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, locale === 'fo' ? '.' : ',');
}

/** The state tabs: a group of toggle buttons, each with its count (of numbers matching the search). */
function StateTabs({
  current,
  counts,
  onChange,
}: {
  current: NumberState;
  counts: StaffNumberCounts | undefined;
  onChange: (state: NumberState) => void;
}) {
  const { t, i18n } = useTranslation('numbers');
  const locale = localeOf(i18n);
  return (
    <div
      role="group"
      aria-label={t('states.label')}
      className="mb-4 flex flex-wrap gap-1 rounded-xl border border-mist-200 bg-mist-50 p-1"
    >
      {TABS.map((state) => {
        const selected = state === current;
        return (
          <button
            key={state}
            type="button"
            aria-pressed={selected}
            onClick={() => onChange(state)}
            className={cx(
              'flex min-h-10 items-center gap-2 rounded-lg px-4 text-caption font-semibold transition-colors',
              selected
                ? 'bg-white text-ocean-900 shadow-sm ring-1 ring-mist-200'
                : 'text-mist-700 hover:bg-white/70 hover:text-ocean-900',
            )}
          >
            {t(`states.${state}`)}
            <span
              className={cx(
                'rounded-full px-2 py-px tabular-nums',
                selected ? 'bg-ocean-100 text-ocean-900' : 'bg-mist-200 text-mist-800',
              )}
            >
              {counts ? formatCount(counts[state], locale) : '–'}
            </span>
          </button>
        );
      })}
    </div>
  );
}

function LineStatus({ status }: { status: 'active' | 'processing' | null }) {
  const { t } = useTranslation('numbers');
  return (
    <Badge tone={status === 'active' ? 'success' : status === 'processing' ? 'warning' : 'neutral'}>
      {t(`lineStatus.${status ?? 'elsewhere'}`)}
    </Badge>
  );
}
