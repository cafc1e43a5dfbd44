import { useId, useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { Search, X } from 'lucide-react';
import {
  STAFF_PAYMENT_STATES,
  type StaffPaymentRow,
  type StaffPaymentState,
} from '@alda/contract/schemas/staff-payments';
import { useErrorText } from '@/shared/error-text';
import { localeOf } from '@/shared/i18n';
import { Button } from '@/shared/ui/button';
import { DataTable, type DataColumn } from '@/shared/ui/data-table';
import { LoadFailed } from '@/shared/ui/load-failed';
import { Notice } from '@/shared/ui/notice';
import { PageHeader } from '@/shared/ui/page-header';
import { TextField } from '@/shared/ui/text-field';
import { PaymentStateBadge } from './badges';
import { formatKr } from './money';
import { usePayments, type PaymentsFilter } from './payments-api';
import { clockTime, formatDateTime } from './time';

const isState = (value: string | null): value is StaffPaymentState =>
  (STAFF_PAYMENT_STATES as readonly (string | null)[]).includes(value);

/**
 * `/console/payments`: the latest payments, searched by id, phone number, e-mail or name and
 * filtered by state; refreshed every 5 s. The search lives in the address (`?q=&state=`), so
 * going back from a payment finds the same list.
 */
export function PaymentsScreen() {
  const { t, i18n } = useTranslation('payments');
  const locale = localeOf(i18n);
  const errorText = useErrorText();
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
  const items = payments.data?.items ?? [];

  return (
    <>
      <PageHeader title={t('list.title')} lead={t('list.lead')} />
      <form
        role="search"
        onSubmit={onSubmit}
        className="mb-5 flex flex-wrap items-end gap-3 rounded-xl border border-mist-200 bg-white p-4"
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
        <div className="flex gap-2 self-start pt-6">
          <Button type="submit" icon={<Search aria-hidden="true" className="size-4" />}>
            {t('list.searchSubmit')}
          </Button>
          {searching ? (
            <Button
              variant="ghost"
              icon={<X aria-hidden="true" className="size-4" />}
              onClick={() => {
                setDraft('');
                apply({ q: '', state: '' });
              }}
            >
              {t('list.clear')}
            </Button>
          ) : null}
        </div>
      </form>

      {payments.isPending ? (
        <p role="status" className="py-8 text-center text-body text-mist-600">
          {t('list.loading')}
        </p>
      ) : payments.isError && !payments.data ? (
        <LoadFailed
          title={t('list.loadFailed')}
          error={payments.error}
          retry={t('list.retry')}
          onRetry={() => void payments.refetch()}
        />
      ) : (
        <>
          <div className="mb-2 flex flex-wrap items-center justify-between gap-2 text-caption text-mist-600">
            <p>{t('list.found', { count: items.length })}</p>
            <p>{t('list.updated', { time: clockTime(payments.dataUpdatedAt, locale) })}</p>
          </div>
          {payments.isError ? (
            <Notice tone="danger" className="mb-3">
              {errorText(payments.error)}
            </Notice>
          ) : null}
          <DataTable
            columns={columns}
            data={items}
            caption={t('list.caption')}
            getRowId={(row) => row.id}
            empty={searching ? t('list.emptySearch') : t('list.empty')}
          />
        </>
      )}
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
