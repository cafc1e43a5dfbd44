import { SpanKind, type Attributes } from '@opentelemetry/api';
import type { PGlite, Transaction } from '@electric-sql/pglite';
import type pg from 'pg';
import { endWith, isUntraced, tracer, tracingActive } from './tracing';

/*
 * A client span per database query (issue 44 §2): db.system.name "postgresql", db.operation.name
 * and db.query.text, the SQL as sent, with its $1, $2 placeholders and never the parameter values
 * (drizzle sends every value as a parameter; nothing in the app inlines one). The parent is
 * whatever is active when the query is made: a request, a job round.
 *
 * Why wrappers here rather than @opentelemetry/instrumentation-pg: that instrumentation patches
 * `pg` through a require hook, which must be in place before `pg` is loaded. In the production
 * bundle (esbuild, ESM, npm packages external) `import pg from 'pg'` is hoisted to the top of
 * dist/main.js and runs before any line of main.ts could install the hook; it would take a
 * `node --import` preload in every way the API is started. Wrapping the pool's and the
 * client's `query` is a few lines, works the same under tsx, vitest and the bundle, and records
 * exactly the attributes above. Nothing is wrapped when tracing is off.
 */

const OPERATION = /^\s*([A-Za-z]+)/;

/**
 * Named by the operation alone ("SELECT", "INSERT", "BEGIN"): a table guessed from the SQL would
 * be wrong now and then (a subquery, `extract(… from "column")`), and the full text is there.
 */
function querySpan<T>(text: string | undefined, run: () => Promise<T>): Promise<T> {
  if (isUntraced()) return run();
  const operation = text === undefined ? undefined : OPERATION.exec(text)?.[1]?.toUpperCase();
  const attributes: Attributes = { 'db.system.name': 'postgresql' };
  if (operation !== undefined) attributes['db.operation.name'] = operation;
  if (text !== undefined) attributes['db.query.text'] = text;
  const span = tracer().startSpan(operation ?? 'postgresql', { kind: SpanKind.CLIENT, attributes });
  return endWith(span, run);
}

type Query = (...args: unknown[]) => unknown;

/**
 * node-postgres: a span around `pool.query` (drizzle's statements outside transactions; the
 * span includes the wait for a free connection) and around `client.query` on every pooled
 * client (drizzle's transactions, BEGIN and COMMIT included). Callback-style calls are left
 * alone: that is how `pool.query` itself runs the statement on its client (it would count
 * twice), and nothing else in the app uses them.
 */
export function traceNodePgPool(pool: pg.Pool): void {
  if (!tracingActive()) return;
  const poolQuery = pool.query.bind(pool) as Query;
  (pool as { query: unknown }).query = (...args: unknown[]) => traced(poolQuery, args);
  pool.on('connect', (client) => {
    const clientQuery = client.query.bind(client) as Query;
    (client as { query: unknown }).query = (...args: unknown[]) => traced(clientQuery, args);
  });
}

function traced(query: Query, args: unknown[]): unknown {
  const first = args[0] as { text?: unknown; submit?: unknown } | string | undefined;
  const callback = typeof args[args.length - 1] === 'function';
  // A callback, or a Submittable (cursor, stream) that is not a promise: passed through as is.
  if (callback || (typeof first === 'object' && typeof first.submit === 'function')) {
    return query(...args);
  }
  const text = typeof first === 'string' ? first : first?.text;
  return querySpan(typeof text === 'string' ? text : undefined, () =>
    Promise.resolve(query(...args)),
  );
}

/**
 * PGlite (development, demo, tests): a span around `query`, also inside `transaction` (its own
 * BEGIN and COMMIT are internal and get none).
 */
export function tracePglite(client: PGlite): void {
  if (!tracingActive()) return;
  client.query = tracedPgliteQuery(client.query.bind(client));
  const transaction = client.transaction.bind(client);
  client.transaction = <T>(callback: (tx: Transaction) => Promise<T>) =>
    transaction((tx) => {
      tx.query = tracedPgliteQuery(tx.query.bind(tx));
      return callback(tx);
    });
}

function tracedPgliteQuery(query: PGlite['query']): PGlite['query'] {
  return (text, params, options) => querySpan(text, () => query(text, params, options));
}
