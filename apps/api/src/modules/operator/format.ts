/*
 * Plain-text output of the operator command: fixed-width tables and times in UTC, so a terminal,
 * a pipe to `less` and a support ticket all read the same.
 */

/** `2026-06-15 12:00:00Z`; `-` for none. */
export function formatTime(at: Date | null | undefined): string {
  if (!at) return '-';
  return `${at.toISOString().slice(0, 19).replace('T', ' ')}Z`;
}

/** A value for a table cell: `-` for none, one line (a reason may hold line breaks). */
export function cell(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined || value === '') return '-';
  return String(value).replace(/\s*\n\s*/g, ' ');
}

/** Columns padded to their widest cell; the last column is not padded. */
export function formatTable(
  headers: readonly string[],
  rows: readonly (readonly string[])[],
): string {
  const widths = headers.map((header, i) =>
    Math.max(header.length, ...rows.map((row) => (row[i] ?? '').length)),
  );
  const line = (row: readonly string[]) =>
    row
      .map((value, i) => (i === row.length - 1 ? value : value.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(headers), ...rows.map(line)].join('\n') + '\n';
}

/** `key: value` lines with the keys aligned. */
export function formatFields(fields: readonly (readonly [string, string])[]): string {
  const width = Math.max(...fields.map(([key]) => key.length));
  return fields.map(([key, value]) => `${`${key}:`.padEnd(width + 1)} ${value}`).join('\n') + '\n';
}
