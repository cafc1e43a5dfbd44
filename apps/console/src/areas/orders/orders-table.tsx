import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { Clock } from 'lucide-react';
import type { StaffOrderRow } from '@alda/contract/schemas/staff-orders';
import { Badge } from '@/shared/ui/badge';
import { DataTable, type DataColumn } from '@/shared/ui/data-table';
import { formatDateTime, formatPhoneNumber, kindKey } from './format';
import { OrderStateBadge } from './state-badge';

/*
 * The queue's table (the console's DataTable, sorting on the client): sorted by when the next
 * step is due, soonest first (orders without a due time last); the column header toggles the
 * direction. The rows come filtered and searched by the API.
 */

const DUE = 'nextAt';

export function OrdersTable({
  rows,
  caption,
  empty,
  stepS,
}: {
  rows: StaffOrderRow[];
  caption: string;
  empty: string;
  stepS: number;
}) {
  const { t } = useTranslation('orders');
  // The queue's filter and search, for the order screen's way back.
  const { search } = useLocation();

  const columns = useMemo<DataColumn<StaffOrderRow>[]>(
    () => [
      {
        id: 'order',
        header: () => t('queue.columns.order'),
        enableSorting: false,
        cell: ({ row }) => (
          <span className="flex flex-col">
            <Link
              to={row.original.id}
              state={{ queueSearch: search }}
              className="font-semibold whitespace-nowrap text-ocean-700 tabular-nums underline decoration-ocean-300 underline-offset-2 hover:text-ocean-900"
            >
              {row.original.msisdn
                ? t('order.title', { number: formatPhoneNumber(row.original.msisdn) })
                : t('order.titleNoNumber')}
            </Link>
            <span className="whitespace-nowrap text-mist-600">
              {t('queue.ordered', { time: formatDateTime(row.original.createdAt) })}
            </span>
          </span>
        ),
      },
      {
        id: 'customer',
        header: () => t('queue.columns.customer'),
        enableSorting: false,
        cell: ({ row }) => row.original.customer.name ?? t('queue.noCustomer'),
      },
      {
        id: 'kind',
        header: () => t('queue.columns.kind'),
        enableSorting: false,
        cell: ({ row }) => (
          <span className="flex flex-col">
            <span>{t(`kind.${kindKey(row.original)}`)}</span>
            {row.original.delivery ? (
              <span className="text-mist-600">{t(`delivery.${row.original.delivery}`)}</span>
            ) : null}
          </span>
        ),
      },
      {
        id: 'state',
        header: () => t('queue.columns.state'),
        enableSorting: false,
        cell: ({ row }) => (
          <span className="flex flex-col items-start gap-1">
            <OrderStateBadge state={row.original.state} />
            {row.original.stopReason ? (
              // Why it stopped (a network failure's own words, ADR 0082), in the attention list.
              <span className="max-w-72 text-caption break-words text-danger-700">
                {row.original.stopReason}
              </span>
            ) : null}
          </span>
        ),
      },
      {
        id: 'lastStep',
        header: () => t('queue.columns.lastStep'),
        enableSorting: false,
        cell: ({ row }) =>
          row.original.lastStep ? (
            <span className="flex flex-col">
              <span>{t(`step.${row.original.lastStep}`)}</span>
              {row.original.lastStepAt ? (
                <span className="whitespace-nowrap text-mist-600">
                  {formatDateTime(row.original.lastStepAt)}
                </span>
              ) : null}
            </span>
          ) : (
            '–'
          ),
      },
      {
        id: DUE,
        accessorFn: (row) => (row.nextAt ? Date.parse(row.nextAt) : undefined),
        sortFn: 'basic',
        sortUndefined: 'last',
        header: () => t('queue.columns.nextAt'),
        cell: ({ row }) => <DueCell row={row.original} stepS={stepS} />,
      },
    ],
    [t, stepS, search],
  );

  return (
    <DataTable
      columns={columns}
      data={rows}
      caption={caption}
      getRowId={(row) => row.id}
      empty={empty}
      sort={{
        initial: [{ id: DUE, desc: false }],
        titles: { ascending: t('queue.sortAscending'), descending: t('queue.sortDescending') },
      }}
    />
  );
}

function DueCell({ row, stepS }: { row: StaffOrderRow; stepS: number }) {
  const { t } = useTranslation('orders');
  if (!row.nextAt) return <span className="text-mist-600">{t('queue.nothingDue')}</span>;
  return (
    <span className="flex flex-col items-start gap-1">
      <span className="whitespace-nowrap tabular-nums">{formatDateTime(row.nextAt)}</span>
      {row.late ? (
        <Badge
          tone="danger"
          icon={<Clock aria-hidden="true" className="size-3" />}
          className="cursor-help"
        >
          <span title={t('queue.lateHint', { seconds: stepS })}>{t('queue.late')}</span>
        </Badge>
      ) : null}
    </span>
  );
}
