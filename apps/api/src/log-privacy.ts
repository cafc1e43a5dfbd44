// What the logs may say about a request (issue 14, GDPR data minimisation): never a value that
// identifies a person. Bodies and headers are not logged at all (credentials are redacted on
// top, app.ts); these serializers keep the two places where request values used to slip in:
// - a URL's query string (a receipt link's signature, a phone number) → its keys only;
// - an error from the database: the driver's message quotes the value it refused ("invalid
//   input syntax for type uuid: \"…\""), its detail the row ("Key (email)=(…)"), and drizzle's
//   wrapper lists the query's parameters → the SQL text with placeholders, the SQLSTATE, the
//   constraint and table, and the message with quoted values blanked.
import type { FastifyRequest } from 'fastify';

const QUERY_VALUE = /=[^&#]*/g;

/** `/api/receipts?page=2&perPage=10` → `/api/receipts?page=…&perPage=…`. */
export function urlWithoutQueryValues(url: string): string {
  const start = url.indexOf('?');
  if (start < 0) return url;
  return url.slice(0, start + 1) + url.slice(start + 1).replace(QUERY_VALUE, '=…');
}

/** The request as every log line shows it (Fastify's default fields, the query's values out). */
export function serializeRequest(request: FastifyRequest): Record<string, unknown> {
  return {
    method: request.method,
    url: urlWithoutQueryValues(request.url),
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
