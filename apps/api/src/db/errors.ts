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

/** Seconds a client is asked to wait (`Retry-After`) before it retries after a database outage. */
export const DATABASE_RETRY_AFTER_S = 5;

/** Socket errors of a connection to the database server that go away when it is back. */
const CONNECTION_ERRNOS: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'EAI_AGAIN',
]);

/**
 * SQLSTATEs of a server that cannot serve this connection now: class 08 (connection exception),
 * 57P01 admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now (starting, recovering),
 * 53300 too_many_connections.
 */
const UNAVAILABLE_SQLSTATE = /^(08[0-9A-Z]{3}|57P0[123]|53300)$/;

/**
 * node-postgres reports a broken or timed-out connection as a plain Error without a code, so
 * its exact messages are the only sign (pg 8 client.js and pg-pool).
 */
const CONNECTION_MESSAGES = [
  'Connection terminated unexpectedly',
  'Connection terminated due to connection timeout',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
  'timeout expired',
];

/**
 * What says that `error` (or one of its causes — Drizzle wraps driver errors, Node wraps the
 * errors of each address it tried in an AggregateError) means the database cannot be reached
 * right now, not that the query was wrong: the errno, SQLSTATE or driver message (safe to log:
 * no SQL, no parameters), or undefined. The one place that decides it: the error handler answers
 * these 503 DATABASE_UNAVAILABLE (docs/decisions/0060-database-outage.md). Outbound adapters
 * (SMS, e-mail, payments) turn their own network failures into their own codes first.
 */
export function databaseUnavailableReason(error: unknown): string | undefined {
  const seen = new Set<unknown>();
  const pending: unknown[] = [error];
  while (pending.length > 0 && seen.size < 20) {
    const current = pending.pop();
    if (!current || typeof current !== 'object' || seen.has(current)) continue;
    seen.add(current);
    const code = 'code' in current ? current.code : undefined;
    if (
      typeof code === 'string' &&
      (CONNECTION_ERRNOS.has(code) || UNAVAILABLE_SQLSTATE.test(code))
    )
      return code;
    const message = 'message' in current ? current.message : undefined;
    if (typeof message === 'string' && CONNECTION_MESSAGES.includes(message)) return message;
    if ('cause' in current) pending.push(current.cause);
    if (current instanceof AggregateError) pending.push(...(current.errors as unknown[]));
  }
  return undefined;
}
