import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import {
  createSortedRowModel,
  rowSortingFeature,
  sortFn_basic,
  tableFeatures,
  useTable,
  type ColumnDef,
  type SortingState,
} from '@tanstack/react-table';
import { ArrowDown, ArrowUp, Clock } from 'lucide-react';
import type { StaffOrderRow } from '@alda/contract/schemas/staff-orders';
import { Badge } from '@/shared/ui/badge';
import { formatDateTime, formatPhoneNumber, kindKey } from './format';
import { OrderStateBadge } from './state-badge';

/*
 * The queue's table (TanStack Table v9 with the row-sorting feature): sorted by when the next
 * step is due, soonest first (orders without a due time last); the column header toggles the
 * direction. The rows come filtered and searched by the API.
 */

const features = tableFeatures({
  rowSortingFeature,
  sortedRowModel: createSortedRowModel(),
  sortFns: { basic: sortFn_basic },
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- columns of mixed value types
type Column = ColumnDef<typeof features, StaffOrderRow, any>;

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
  const [sorting, setSorting] = useState<SortingState>([{ id: DUE, desc: false }]);
  // The queue's filter and search, for the order screen's way back.
  const { search } = useLocation();

  const columns = useMemo<Column[]>(
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
        cell: ({ row }) => <OrderStateBadge state={row.original.state} />,
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

  const table = useTable({
    features,
    columns,
    data: rows,
    getRowId: (row) => row.id,
    state: { sorting },
    onSortingChange: setSorting,
    enableSortingRemoval: false,
  });
  const shown = table.getRowModel().rows;

  return (
    <div className="overflow-x-auto rounded-xl border border-mist-200 bg-white">
      <table className="w-full border-collapse text-left text-caption">
        <caption className="sr-only">{caption}</caption>
        <thead className="sticky top-0 bg-mist-50">
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => {
                const sorted = header.column.getIsSorted();
                return (
                  <th
                    key={header.id}
                    scope="col"
                    aria-sort={
                      sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : undefined
                    }
                    className="border-b border-mist-200 px-4 py-2.5 font-semibold text-mist-700"
                  >
                    {header.column.getCanSort() ? (
                      <button
                        type="button"
                        onClick={header.column.getToggleSortingHandler()}
                        title={
                          sorted === 'asc' ? t('queue.sortDescending') : t('queue.sortAscending')
                        }
                        className="inline-flex items-center gap-1 rounded font-semibold hover:text-ocean-900"
                      >
                        <table.FlexRender header={header} />
                        {sorted === 'desc' ? (
                          <ArrowUp aria-hidden="true" className="size-3.5" />
                        ) : (
                          <ArrowDown aria-hidden="true" className="size-3.5" />
                        )}
                      </button>
                    ) : (
                      <table.FlexRender header={header} />
                    )}
                  </th>
                );
              })}
            </tr>
          ))}
        </thead>
        <tbody>
          {shown.length === 0 ? (
            <tr>
              <td colSpan={columns.length} className="px-4 py-8 text-center text-mist-600">
                {empty}
              </td>
            </tr>
          ) : (
            shown.map((row) => (
              <tr
                key={row.id}
                className="border-b border-mist-100 last:border-0 hover:bg-ocean-50/60"
              >
                {row.getAllCells().map((cell) => (
                  <td key={cell.id} className="px-4 py-3 align-top text-mist-900">
                    <table.FlexRender cell={cell} />
                  </td>
                ))}
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
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
