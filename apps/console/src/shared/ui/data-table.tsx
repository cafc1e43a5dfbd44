import type { ReactNode } from 'react';
import { tableFeatures, useTable, type ColumnDef, type RowData } from '@tanstack/react-table';
import { cx } from '../cx';

/*
 * The console's table (TanStack Table v9, headless) in the console's look: a caption for
 * assistive technology, sticky column headers, zebra-free rows with a hover tint. Screens that
 * need sorting, filtering or paging on the client register those features in a table of their
 * own; most lists are filtered and paged by the API.
 */

/** The features of a plain table: none beyond the core. */
export const plainTable = tableFeatures({});

/** A column of a {@link DataTable}: `{ accessorKey, header, cell }` as in TanStack Table. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- columns of mixed value types
export type DataColumn<TData extends RowData> = ColumnDef<typeof plainTable, TData, any>;

export interface DataTableProps<TData extends RowData> {
  columns: DataColumn<TData>[];
  data: TData[];
  /** Says what the table lists (read by screen readers; visually hidden). */
  caption: string;
  /** Shown in place of rows when `data` is empty. */
  empty?: ReactNode;
  /** A stable id per row (an entity's id), so React keeps rows across refreshes. */
  getRowId?: (row: TData) => string;
  className?: string;
}

export function DataTable<TData extends RowData>({
  columns,
  data,
  caption,
  empty,
  getRowId,
  className,
}: DataTableProps<TData>) {
  const table = useTable({
    features: plainTable,
    columns,
    data,
    getRowId: getRowId ? (row) => getRowId(row) : undefined,
  });
  const rows = table.getRowModel().rows;
  return (
    <div className={cx('overflow-x-auto rounded-xl border border-mist-200 bg-white', className)}>
      <table className="w-full border-collapse text-left text-caption">
        <caption className="sr-only">{caption}</caption>
        <thead className="sticky top-0 bg-mist-50">
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => (
                <th
                  key={header.id}
                  colSpan={header.colSpan}
                  scope="col"
                  className="border-b border-mist-200 px-4 py-2.5 font-semibold text-mist-700"
                >
                  {header.isPlaceholder ? null : <table.FlexRender header={header} />}
                </th>
              ))}
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
