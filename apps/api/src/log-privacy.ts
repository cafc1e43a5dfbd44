// What the logs may say about a request (issue 14, GDPR data minimisation): never a value that
// identifies a person. Bodies and headers are not logged at all (credentials are redacted on
// top, app.ts); these serializers keep the places where request values used to slip in:
// - a URL's query string (a receipt link's signature, a phone number) → its keys only;
// - the secret path segment of the TMF641 callback (ADR 0082 §7) → `[secret <8 hex>]`;
// - an error from the database: the driver's message quotes the value it refused ("invalid
//   input syntax for type uuid: \"…\""), its detail the row ("Key (email)=(…)"), and drizzle's
//   wrapper lists the query's parameters → the SQL text with placeholders, the SQLSTATE, the
//   constraint and table, and the message with quoted values blanked.
import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';

const QUERY_VALUE = /=[^&#]*/g;

/** `/api/receipts?page=2&perPage=10` → `/api/receipts?page=…&perPage=…`. */
export function urlWithoutQueryValues(url: string): string {
  const start = url.indexOf('?');
  if (start < 0) return url;
  return url.slice(0, start + 1) + url.slice(start + 1).replace(QUERY_VALUE, '=…');
}

/** Where the TMF641 listener's paths start, below the public address (tmf641/listener.ts). */
export const TMF641_LISTENER_BASE = '/tmf-api/listener/serviceOrdering/v4';
const CALLBACK_BASE = `${TMF641_LISTENER_BASE}/`;
/** The callback's segment: 64 hex (either case, so a mistyped copy is not logged either). */
const CALLBACK_SECRET = /(\/tmf-api\/listener\/serviceOrdering\/v4\/)([0-9a-fA-F]{64})(?=[/?#]|$)/g;

/**
 * A URL or path with the secret segment of the TMF641 callback
 * (`…/tmf-api/listener/serviceOrdering/v4/<64 hex>`, docs/decisions/0082-network-tmf641.md §7)
 * replaced by `[secret <8 hex>]`, the start of the segment's SHA-256: enough to tell two secrets
 * apart, nothing to post with. The one form for logs, the hub table and the audit
 * (tmf641/callback.ts, hub.ts); deploy/haproxy/alda.cfg logs the same.
 */
export function urlWithoutCallbackSecret(url: string): string {
  if (!url.includes(CALLBACK_BASE)) return url;
  return url.replace(
    CALLBACK_SECRET,
    (_, base: string, segment: string) =>
      `${base}[secret ${createHash('sha256').update(segment).digest('hex').slice(0, 8)}]`,
  );
}

/**
 * The request as every log line shows it (Fastify's default fields, the query's values and the
 * TMF641 callback's secret out), whether a route matched or not.
 */
export function serializeRequest(request: FastifyRequest): Record<string, unknown> {
  return {
    method: request.method,
    url: urlWithoutCallbackSecret(urlWithoutQueryValues(request.url)),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/** Fields of driver errors that describe the failure, not the data. */
const SAFE_FIELDS = [
  'code',
  'statusCode',
  'severity',
  'constraint',
  'table',
  'column',
  'schema',
  'routine',
  'validationContext',
] as const;

const isDatabaseError = (error: Error & Record<string, unknown>) =>
  ('query' in error && 'params' in error) ||
  (typeof error.code === 'string' && /^[0-9A-Z]{5}$/.test(error.code) && 'severity' in error);

/** Blanks what a database message quotes: `"…"` for every double-quoted value. */
const blankQuoted = (text: string) =>
  text.replace(/"[^"]*"/g, '"…"').replace(/\([^()]*\)=\([^()]*\)/g, '(…)=(…)');

export interface SerializedError {
  [key: string]: unknown;
  type: string;
  message: string;
  stack: string;
}

/** An error for the log: message, stack and cause chain, without the data of a failed query. */
export function serializeError(error: Error, depth = 0): SerializedError {
  const fields = error as Error & Record<string, unknown>;
  const database = isDatabaseError(fields);
  // drizzle: `Failed query: <sql>\nparams: <values>` — the SQL stays (placeholders only).
  let message = error.message.split('\nparams:')[0] ?? '';
  if (database && !message.startsWith('Failed query:')) message = blankQuoted(message);
  const out: SerializedError = {
    type: error.name,
    message,
    stack: (error.stack ?? '').replace(error.message, message),
  };
  for (const key of SAFE_FIELDS) if (fields[key] !== undefined) out[key] = fields[key];
  if (database && typeof fields.query === 'string') out.query = fields.query;
  if (error.cause !== undefined && depth < 4) {
    out.cause =
      error.cause instanceof Error ? serializeError(error.cause, depth + 1) : '[not an Error]';
  }
  return out;
}
