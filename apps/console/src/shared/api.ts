import type { ErrorCode } from '@alda/contract/errors';
import type { Locale } from '@alda/contract/locale';
import { isIdle } from './activity';
import type { SessionStore } from './session';

/*
 * The console's HTTP client for `/api/staff/*` (docs/decisions/0075-staff-console.md):
 * - sends the staff token (`Authorization: Bearer …`) and the language shown (`Accept-Language`,
 *   so the server's error messages come in it);
 * - answers `data` of the `{ data }` envelope, `undefined` for 204, and throws an {@link ApiError}
 *   (code, status, the server's localized message) for `{ error: { code, message } }`;
 * - when a call made with a token answers 401 UNAUTHORIZED or STAFF_SESSION_EXPIRED, ends the
 *   session (the sign-in screen then says "you were signed out"); after any other success it
 *   moves the shown idle expiry (the server restarted the idle clock);
 * - sends a GET as background (`X-Staff-Background: 1`, activity.ts) while nobody is at the desk,
 *   so a screen's own refresh keeps no session alive;
 * - answers a GET with `If-None-Match` from its last answer: a 304 (the server's ETag matched) is
 *   the data it had (the staff API's answers are `no-store`, so the browser keeps nothing).
 */

/** Codes of failures that never reached the API's envelope. */
export type ClientErrorCode = 'NETWORK' | 'INVALID_RESPONSE';
/** An API code of the contract, a client code, or a code newer than this build. */
export type ApiErrorCode = ErrorCode | ClientErrorCode | (string & {});

export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly code: ApiErrorCode,
    /** HTTP status; 0 when no answer came. */
    readonly status: number,
    /** The server's message, in the language asked for; empty for client codes. */
    message: string,
    readonly details: { field?: string; retryAfter?: number } = {},
  ) {
    super(message);
  }
}

/** The 401 codes that mean "this token no longer signs anyone in". */
const SESSION_ENDED = new Set<ApiErrorCode>(['UNAUTHORIZED', 'STAFF_SESSION_EXPIRED']);

/** What the client needs of a response schema: zod's `safeParse` (every contract schema fits). */
export interface ResponseSchema<T> {
  safeParse(data: unknown): { success: true; data: T } | { success: false };
}

export interface RequestOptions<T> {
  /** Query parameters; undefined values are left out. */
  query?: Record<string, string | number | boolean | undefined>;
  /** Sent as JSON. */
  body?: unknown;
  /** Checks `data` of the answer (INVALID_RESPONSE when it does not fit). */
  schema?: ResponseSchema<T>;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export interface Api {
  request<T>(method: string, path: string, options?: RequestOptions<T>): Promise<T>;
  get<T>(path: string, options?: Omit<RequestOptions<T>, 'body'>): Promise<T>;
  post<T>(path: string, body?: unknown, options?: Omit<RequestOptions<T>, 'body'>): Promise<T>;
  put<T>(path: string, body?: unknown, options?: Omit<RequestOptions<T>, 'body'>): Promise<T>;
  patch<T>(path: string, body?: unknown, options?: Omit<RequestOptions<T>, 'body'>): Promise<T>;
  delete<T>(path: string, options?: Omit<RequestOptions<T>, 'body'>): Promise<T>;
}

export interface ApiDependencies {
  session: SessionStore;
  /** The language shown, sent as Accept-Language. */
  locale: () => Locale;
  fetch?: typeof fetch;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function urlOf(path: string, query: RequestOptions<unknown>['query']): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined) params.set(key, String(value));
  }
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function errorOf(status: number, body: unknown): ApiError {
  const error = isRecord(body) && isRecord(body.error) ? body.error : null;
  if (!error || typeof error.code !== 'string') {
    return new ApiError('INVALID_RESPONSE', status, '');
  }
  return new ApiError(error.code, status, typeof error.message === 'string' ? error.message : '', {
    field: typeof error.field === 'string' ? error.field : undefined,
    retryAfter: typeof error.retryAfter === 'number' ? error.retryAfter : undefined,
  });
}

/** How many GET answers the client keeps for If-None-Match. */
const MAX_KEPT_ANSWERS = 100;

export function createApi({ session, locale, fetch: fetchImpl }: ApiDependencies): Api {
  /** The last answer of each GET URL with its ETag, for this session only. */
  const answers = new Map<string, { etag: string; body: unknown; token: string | null }>();

  async function request<T>(
    method: string,
    path: string,
    options: RequestOptions<T> = {},
  ): Promise<T> {
    const token = session.token();
    const headers: Record<string, string> = {
      accept: 'application/json',
      'accept-language': locale(),
      ...options.headers,
    };
    if (token) headers.authorization = `Bearer ${token}`;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const url = urlOf(path, options.query);
    const background = method === 'GET' && isIdle();
    if (background) headers['x-staff-background'] = '1';
    const kept = method === 'GET' ? answers.get(url) : undefined;
    if (kept && kept.token === token) headers['if-none-match'] = kept.etag;

    let response: Response;
    try {
      response = await (fetchImpl ?? fetch)(url, {
        method,
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        signal: options.signal,
        // The token travels in the header only; no cookie is needed nor sent.
        credentials: 'omit',
      });
    } catch (cause) {
      if (options.signal?.aborted) throw cause;
      throw new ApiError('NETWORK', 0, '');
    }

    if (response.status === 304 && kept) return parseData(kept.body, response.status, options);
    if (!response.ok) {
      const error = errorOf(response.status, await readJson(response));
      // Only the token this call was made with: a newer sign-in in the meantime stays.
      if (
        response.status === 401 &&
        token &&
        SESSION_ENDED.has(error.code) &&
        session.token() === token
      ) {
        session.end('expired');
      }
      throw error;
    }

    if (token && session.token() === token && !background) session.touch();
    if (response.status === 204) return undefined as T;
    const body = await readJson(response);
    const etag = response.headers.get('etag');
    if (method === 'GET' && etag) {
      // The newest answers only: every search text is its own URL.
      answers.delete(url);
      answers.set(url, { etag, body, token });
      if (answers.size > MAX_KEPT_ANSWERS) answers.delete(answers.keys().next().value ?? '');
    }
    return parseData(body, response.status, options);
  }

  function parseData<T>(body: unknown, status: number, options: RequestOptions<T>): T {
    if (!isRecord(body) || !('data' in body)) throw new ApiError('INVALID_RESPONSE', status, '');
    if (!options.schema) return body.data as T;
    const parsed = options.schema.safeParse(body.data);
    if (!parsed.success) throw new ApiError('INVALID_RESPONSE', status, '');
    return parsed.data;
  }

  return {
    request,
    get: (path, options) => request('GET', path, options),
    post: (path, body, options) => request('POST', path, { ...options, body }),
    put: (path, body, options) => request('PUT', path, { ...options, body }),
    patch: (path, body, options) => request('PATCH', path, { ...options, body }),
    delete: (path, options) => request('DELETE', path, options),
  };
}

/** True for an {@link ApiError} with one of `codes`. */
export function isApiError(error: unknown, ...codes: ApiErrorCode[]): error is ApiError {
  return error instanceof ApiError && (codes.length === 0 || codes.includes(error.code));
}
