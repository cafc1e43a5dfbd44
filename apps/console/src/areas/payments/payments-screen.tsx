import { useId, useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { formatDateTime } from '@alda/contract/format/date';
import {
  STAFF_PAYMENT_STATES,
  type StaffPaymentRow,
  type StaffPaymentState,
} from '@alda/contract/schemas/staff-payments';
import { localeOf } from '@/shared/i18n';
import { DataTable, type DataColumn } from '@/shared/ui/data-table';
import { PageHeader } from '@/shared/ui/page-header';
import { ListInfo, LoadOlder, QueryList } from '@/shared/ui/query-list';
import { SearchForm } from '@/shared/ui/search-form';
import { TextField } from '@/shared/ui/text-field';
import { PaymentStateBadge } from './badges';
import { formatKr } from './money';
import { usePayments, type PaymentsFilter } from './payments-api';

const isState = (value: string | null): value is StaffPaymentState =>
  (STAFF_PAYMENT_STATES as readonly (string | null)[]).includes(value);

/**
 * `/console/payments`: the latest payments, searched by id, phone number, e-mail or name and
 * filtered by state; older ones page by page; refreshed every 5 s. The search lives in the
 * address (`?q=&state=`), so going back from a payment finds the same list.
 */
export function PaymentsScreen() {
  const { t, i18n } = useTranslation('payments');
  const locale = localeOf(i18n);
  const [params, setParams] = useSearchParams();
  const stateParam = params.get('state');
  const filter: PaymentsFilter = {
    q: params.get('q') ?? '',
    state: isState(stateParam) ? stateParam : '',
  };
  const [draft, setDraft] = useState(filter.q);
  const stateId = useId();
  const payments = usePayments(filter);

  const apply = (next: PaymentsFilter) => {
    const search = new URLSearchParams();
    if (next.q.trim()) search.set('q', next.q.trim());
    if (next.state) search.set('state', next.state);
    setParams(search, { replace: true });
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    apply({ ...filter, q: draft });
  };

  const columns = useMemo<DataColumn<StaffPaymentRow>[]>(
    () => [
      {
        id: 'created',
        header: () => t('list.columns.created'),
        cell: ({ row }) => (
          <Link
            to={row.original.id}
            className="font-semibold whitespace-nowrap text-ocean-700 underline decoration-ocean-300 underline-offset-2 hover:text-ocean-900"
          >
            {formatDateTime(row.original.createdAt)}
          </Link>
        ),
      },
      {
        id: 'customer',
        header: () => t('list.columns.customer'),
        cell: ({ row }) => row.original.customer.name,
      },
      {
        id: 'amount',
        header: () => t('list.columns.amount'),
        cell: ({ row }) => (
          <span className="whitespace-nowrap tabular-nums">
            {formatKr(row.original.amountOere, locale)}
          </span>
        ),
      },
      {
        id: 'method',
        header: () => t('list.columns.method'),
        cell: ({ row }) => t(`method.${row.original.method}`),
      },
      {
        id: 'state',
        header: () => t('list.columns.state'),
        cell: ({ row }) => <PaymentStateBadge state={row.original.state} />,
      },
      {
        id: 'card',
        header: () => t('list.columns.card'),
        cell: ({ row }) => <CardText card={row.original.card} />,
      },
      {
        id: 'refunded',
        header: () => t('list.columns.refunded'),
        cell: ({ row }) => <RefundedText row={row.original} />,
      },
    ],
    [t, locale],
  );

  const searching = filter.q !== '' || filter.state !== '';
  const items = payments.data?.pages.flatMap((page) => page.items) ?? [];

  return (
    <>
      <PageHeader title={t('list.title')} lead={t('list.lead')} />
      <SearchForm
        onSubmit={onSubmit}
        submit={t('list.searchSubmit')}
        clear={searching ? t('list.clear') : null}
        onClear={() => {
          setDraft('');
          apply({ q: '', state: '' });
        }}
      >
        <TextField
          label={t('list.search')}
          hint={t('list.searchHint')}
          type="search"
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
          autoComplete="off"
          spellCheck={false}
          className="min-w-64 flex-1"
        />
        <div className="flex flex-col gap-1.5 self-start">
          <label htmlFor={stateId} className="text-caption font-semibold text-mist-800">
            {t('list.state')}
          </label>
          <select
            id={stateId}
            value={filter.state}
            onChange={(event) =>
              apply({ q: draft, state: isState(event.target.value) ? event.target.value : '' })
            }
            className="min-h-11 rounded-lg border border-mist-300 bg-white px-3 text-body text-mist-900 hover:border-mist-400"
          >
            <option value="">{t('list.allStates')}</option>
            {STAFF_PAYMENT_STATES.map((state) => (
              <option key={state} value={state}>
                {t(`state.${state}`)}
              </option>
            ))}
          </select>
        </div>
      </SearchForm>

      <QueryList
        query={payments}
        texts={{
          loading: t('list.loading'),
          loadFailed: t('list.loadFailed'),
          retry: t('list.retry'),
        }}
        info={
          <ListInfo updatedAt={payments.dataUpdatedAt}>
            {t('list.found', { count: items.length })}
          </ListInfo>
        }
      >
        <DataTable
          columns={columns}
          data={items}
          caption={t('list.caption')}
          getRowId={(row) => row.id}
          empty={searching ? t('list.emptySearch') : t('list.empty')}
        />
        <LoadOlder
          query={payments}
          texts={{
            more: t('list.older'),
            loading: t('list.loadingOlder'),
            failed: t('list.olderFailed'),
          }}
        />
      </QueryList>
    </>
  );
}

export function CardText({ card }: { card: StaffPaymentRow['card'] }) {
  if (!card) return <span className="text-mist-500">–</span>;
  return (
    <span className="whitespace-nowrap">
      {[card.brand, card.last4 ? `•••• ${card.last4}` : null].filter(Boolean).join(' ')}
    </span>
  );
}

function RefundedText({ row }: { row: StaffPaymentRow }) {
  const { t, i18n } = useTranslation('payments');
  const locale = localeOf(i18n);
  if (row.refundedOere === 0 && row.refundingOere === 0) {
    return <span className="text-mist-500">–</span>;
  }
  return (
    <span className="flex flex-col whitespace-nowrap tabular-nums">
      <span>{formatKr(row.refundedOere, locale)}</span>
      {row.refundingOere > 0 ? (
        <span className="text-warning-600">
          {t('list.refundingNote', { amount: formatKr(row.refundingOere, locale) })}
        </span>
      ) : null}
    </span>
  );
}
