/**
 * The rows of a raw `db.execute(sql…)` result. Both drivers (node-postgres and PGlite) answer an
 * object with a `rows` array; the query builder's types do not say so for raw SQL, so check it
 * here once instead of casting in every repo.
 */
export function rowsOf(result: unknown): Record<string, unknown>[] {
  if (typeof result === 'object' && result !== null && 'rows' in result) {
    const rows = (result as { rows: unknown }).rows;
    if (Array.isArray(rows)) return rows as Record<string, unknown>[];
  }
  throw new Error('raw query result without rows');
}
