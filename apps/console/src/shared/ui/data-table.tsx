import { useState, type ReactNode } from 'react';
import {
  createSortedRowModel,
  rowSortingFeature,
  sortFn_basic,
  tableFeatures,
  useTable,
  type ColumnDef,
  type RowData,
  type SortingState,
} from '@tanstack/react-table';
import { ArrowDown, ArrowUp } from 'lucide-react';
import { cx } from '../cx';

/*
 * The console's table (TanStack Table v9, headless) in the console's look: a caption for
 * assistive technology, sticky column headers, zebra-free rows with a hover tint. Most lists are
 * filtered and paged by the API; a table given `sort` sorts its rows on the client (the orders
 * queue). Screens that need filtering or paging on the client register those features in a
 * table of their own.
 */

/** The features of the console's tables: the core and sorting (used when `sort` is given). */
export const consoleTable = tableFeatures({
  rowSortingFeature,
  sortedRowModel: createSortedRowModel(),
  sortFns: { basic: sortFn_basic },
});

/** A column of a {@link DataTable}: `{ accessorKey, header, cell }` as in TanStack Table. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- columns of mixed value types
export type DataColumn<TData extends RowData> = ColumnDef<typeof consoleTable, TData, any>;

export interface DataTableProps<TData extends RowData> {
  columns: DataColumn<TData>[];
  data: TData[];
  /** Says what the table lists (read by screen readers; visually hidden). */
  caption: string;
  /** Shown in place of rows when `data` is empty. */
  empty?: ReactNode;
  /** A stable id per row (an entity's id), so React keeps rows across refreshes. */
  getRowId?: (row: TData) => string;
  /**
   * Sorting on the client: the rows start sorted as `initial`; the header of a column that can
   * sort (one with an accessor and `sortFn`) is a button toggling the direction (`aria-sort` says
   * which), titled with what a click does.
   */
  sort?: { initial: SortingState; titles: { ascending: string; descending: string } };
  className?: string;
}

export function DataTable<TData extends RowData>({
  columns,
  data,
  caption,
  empty,
  getRowId,
  sort,
  className,
}: DataTableProps<TData>) {
  const [sorting, setSorting] = useState<SortingState>(sort?.initial ?? []);
  const table = useTable({
    features: consoleTable,
    columns,
    data,
    getRowId: getRowId ? (row) => getRowId(row) : undefined,
    state: { sorting },
    onSortingChange: setSorting,
    enableSorting: sort !== undefined,
    enableSortingRemoval: false,
  });
  const rows = table.getRowModel().rows;
  return (
    <div className={cx('overflow-x-auto rounded-xl border border-mist-200 bg-white', className)}>
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
                    colSpan={header.colSpan}
                    scope="col"
                    aria-sort={
                      sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : undefined
                    }
                    className="border-b border-mist-200 px-4 py-2.5 font-semibold text-mist-700"
                  >
                    {header.isPlaceholder ? null : sort && header.column.getCanSort() ? (
                      <button
                        type="button"
                        onClick={header.column.getToggleSortingHandler()}
                        title={sorted === 'asc' ? sort.titles.descending : sort.titles.ascending}
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
          {rows.length === 0 ? (
            <tr>
              <td colSpan={columns.length} className="px-4 py-8 text-center text-mist-600">
                {empty}
              </td>
            </tr>
          ) : (
            rows.map((row) => (
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
