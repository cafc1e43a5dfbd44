/**
 * The constraint name when `error` (or one of its causes — Drizzle wraps driver errors) is a
 * PostgreSQL unique violation (SQLSTATE 23505), else undefined. Services use it to turn a lost
 * race on a unique column into the same answer the pre-check gives.
 */
export function uniqueViolationOf(error: unknown): string | undefined {
  return violationOf(error, '23505');
}

/**
 * The constraint name when `error` is a foreign key violation (SQLSTATE 23503, or 23001 for an
 * `ON DELETE RESTRICT` key): a row still refers to the one being deleted.
 */
export function foreignKeyViolationOf(error: unknown): string | undefined {
  return violationOf(error, '23503') ?? violationOf(error, '23001');
}

function violationOf(error: unknown, sqlState: string): string | undefined {
  for (let current: unknown = error, depth = 0; current && depth < 5; depth += 1) {
    if (typeof current === 'object' && 'code' in current && current.code === sqlState) {
      const constraint = 'constraint' in current ? current.constraint : undefined;
      return typeof constraint === 'string' ? constraint : '';
    }
    current = typeof current === 'object' && 'cause' in current ? current.cause : undefined;
  }
  return undefined;
}
