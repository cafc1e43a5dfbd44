import { TOKEN_REFRESH_THROTTLE_MS } from '@alda/contract/constants';
import type { ErrorCode } from '@alda/contract/errors';
import type { TokenPair, TokenStore } from '@/shared/auth/token-store';

/** Codes the client itself produces, next to the API's codes of the contract. */
export type ClientErrorCode = 'NETWORK' | 'OFFLINE' | 'INVALID_RESPONSE' | 'UNKNOWN';
/** An API code (contract), a client code, or a code newer than this build of the app. */
export type ApiErrorCode = ErrorCode | ClientErrorCode | (string & {});

export interface ApiError {
  code: ApiErrorCode;
  /** The server's message (localized by Accept-Language); screens prefer t(`errors:${code}`). */
  message: string;
  /** HTTP status; 0 when the request never got an answer. */
  status: number;
  field?: string;
  /** Failed fields of a VALIDATION_FAILED answer (path and validation key), to mark a form. */
  issues?: FieldIssue[];
  /** Seconds until the call may be tried again (error body `retryAfter`, or a Retry-After header). */
  retryAfter?: number;
}

/** One failed field of an answer: dotted path and the contract's validation key. */
export interface FieldIssue {
  path: string;
  key: string;
  message: string;
}

/**
 * What the client needs of a response schema: zod's `safeParse`. Every contract schema fits; the
 * client itself does not import zod, so zod and the schemas stay out of the first download.
 */
export interface ResponseSchema<T> {
  safeParse(
    data: unknown,
  ): { success: true; data: T } | { success: false; error: { issues: readonly unknown[] } };
}

/**
 * A schema, or a promise of one: `import('@alda/contract/schemas/…').then((m) => m.x)` loads
 * the schema's chunk while the request is on its way (the start-up calls of the entry chunk).
 */
export type SchemaSource<T> = ResponseSchema<T> | PromiseLike<ResponseSchema<T>>;

/** Accepts any answer (calls whose answer is not read, e.g. logout). */
export const anyAnswer: ResponseSchema<unknown> = {
  safeParse: (data) => ({ success: true, data }),
};

/** Every call is wrapped as a result-or-error pair (SPEC §8); the client never throws. */
export type Result<T> = { ok: true; data: T } | { ok: false; error: ApiError };

export interface RequestOptions {
  /** Query parameters; undefined values are left out. */
  query?: Record<string, string | number | boolean | undefined>;
  signal?: AbortSignal;
  /** Do not try a token refresh on 401 (logout, and the auth endpoints). */
  skipAuthRefresh?: boolean;
  /** Extra request headers (e.g. `Idempotency-Key`). */
  headers?: Record<string, string>;
}

/** Answer of {@link HttpClient.getIfChanged}: 304 → unchanged; otherwise the data and its ETag. */
export type Conditional<T> = { changed: false } | { changed: true; data: T; etag: string | null };

export interface HttpClient {
  get<T>(path: string, schema: SchemaSource<T>, options?: RequestOptions): Promise<Result<T>>;
  /**
   * A POST of `body` as JSON; a Blob (a photo to upload) is sent as it is, with its own type as
   * the Content-Type.
   */
  post<T>(
    path: string,
    body: unknown,
    schema: SchemaSource<T>,
    options?: RequestOptions,
  ): Promise<Result<T>>;
  put<T>(
    path: string,
    body: unknown,
    schema: SchemaSource<T>,
    options?: RequestOptions,
  ): Promise<Result<T>>;
  patch<T>(
    path: string,
    body: unknown,
    schema: SchemaSource<T>,
    options?: RequestOptions,
  ): Promise<Result<T>>;
  delete<T>(path: string, schema: SchemaSource<T>, options?: RequestOptions): Promise<Result<T>>;
  /**
   * A GET with `If-None-Match: etag` (when given): a 304 answer is `{ changed: false }`, anything
   * else is parsed as usual and carries the answer's ETag (the cheap polling of SPEC §4).
   */
  getIfChanged<T>(
    path: string,
    schema: SchemaSource<T>,
    etag: string | null,
    options?: RequestOptions,
  ): Promise<Result<Conditional<T>>>;
  /** A GET of a file (a receipt's PDF): the body as a Blob; errors as for every other call. */
  getBlob(path: string, options?: RequestOptions): Promise<Result<Blob>>;
  /**
   * The access token for a connection this client does not send (the payment hub's
   * `accessTokenFactory`), refreshed first — through the same shared, throttled refresh — when
   * it has expired or is about to: the hub ends a connection when its token expires (ADR 0051),
   * and the reconnect must not meet a 401. Null when signed out.
   */
  freshAccessToken(): Promise<string | null>;
}

/** A token expiring within this long is refreshed before a hub (re)connect uses it. */
const FRESH_TOKEN_MARGIN_MS = 30_000;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The claims of a JWT, read without checking the signature (the server does that). */
function tokenClaims(token: string): Record<string, unknown> | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const claims: unknown = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/')));
    return isRecord(claims) ? claims : null;
  } catch {
    return null;
  }
}

/**
 * When a JWT access token expires (its `exp`, ms), read without checking the signature (the
 * server does that); null when the token is not a readable JWT.
 */
export function accessTokenExpiry(token: string): number | null {
  const exp = tokenClaims(token)?.exp;
  return typeof exp === 'number' ? exp * 1000 : null;
}

/**
 * Whose an access token is (its `sub`, the user's id), read without checking the signature:
 * only to find what this device last knew of that user while the server cannot be asked.
 */
export function accessTokenSubject(token: string): string | null {
  const sub = tokenClaims(token)?.sub;
  return typeof sub === 'string' && sub.length > 0 ? sub : null;
}

export interface HttpClientConfig {
  /** Base of every path, `/api` by default. */
  baseUrl?: string;
  fetch?: typeof fetch;
  /** The current locale, sent as Accept-Language with every request (SPEC §7). */
  getLocale: () => string;
  tokens: TokenStore;
  /**
   * Called once when the session cannot be recovered (no refresh token, or the refresh was
   * refused): the app resets all state and goes to login (SPEC §4 "Session", §8).
   */
  onSessionExpired: () => void;
  now?: () => number;
  refreshThrottleMs?: number;
  /**
   * Whether the device has a connection (`connectivity.ts`). While it has none, a request that
   * changes data (POST, PUT, PATCH, DELETE) fails at once with OFFLINE and is never sent nor kept
   * for later (issue 16 item 4). Always online when left out.
   */
  isOnline?: () => boolean;
  /**
   * The platform the app runs on (`shared/native/platform`). Inside the native shell every
   * request says which one in {@link PLATFORM_HEADER} (the API picks MobilePay's app-switch flow
   * by it); the web sends none. Web when left out.
   */
  getPlatform?: () => 'ios' | 'android' | 'web';
  /**
   * An answer already on its way for a GET of this URL with exactly these headers, or null: the
   * start-up GETs that index.html sent before the app had loaded (`early-requests.ts`, issue 45).
   * A null answer (none, or not a success) means the request is sent as usual.
   */
  takeEarly?: (url: string, headers: Record<string, string>) => Promise<Response | null> | null;
}

/** Request header naming the native shell's platform, `ios` or `android` (absent on the web). */
export const PLATFORM_HEADER = 'X-Alda-Platform';

/**
 * Endpoints exempt from the 401 refresh (SPEC §8): a 401 there is an answer (wrong password,
 * wrong code), not an expired session.
 */
export const AUTH_ENDPOINTS = [
  '/auth/refresh-token',
  '/auth/email-login',
  '/auth/request-pin',
  '/auth/enter-pin',
  '/auth/register',
  '/auth/reset-password',
  '/auth/forgot-password',
] as const;

const isAuthEndpoint = (path: string) => {
  const bare = path.split('?')[0] ?? path;
  return AUTH_ENDPOINTS.some((endpoint) => bare === endpoint || bare.startsWith(`${endpoint}/`));
};

const isString = (value: unknown): value is string => typeof value === 'string';

const isFieldIssue = (value: unknown): value is FieldIssue =>
  isRecord(value) && isString(value.path) && isString(value.key) && isString(value.message);

/**
 * The error envelope `{ error: { code, message, field?, issues?, retryAfter? } }`; null when the
 * body is not one. Malformed `issues` or `retryAfter` are dropped, not fatal.
 */
function errorEnvelope(body: unknown): {
  code: string;
  message: string;
  field?: string;
  issues?: FieldIssue[];
  retryAfter?: number;
} | null {
  if (!isRecord(body) || !isRecord(body.error)) return null;
  const { code, message, field, issues, retryAfter } = body.error;
  if (!isString(code) || code.length === 0 || !isString(message)) return null;
  if (field !== undefined && !isString(field)) return null;
  const validIssues =
    Array.isArray(issues) && issues.every(isFieldIssue)
      ? issues.map(({ path, key, message }) => ({ path, key, message }))
      : undefined;
  const validRetryAfter =
    typeof retryAfter === 'number' && Number.isFinite(retryAfter) && retryAfter >= 0
      ? retryAfter
      : undefined;
  return {
    code,
    message,
    ...(field !== undefined ? { field } : {}),
    ...(validIssues ? { issues: validIssues } : {}),
    ...(validRetryAfter !== undefined ? { retryAfter: validRetryAfter } : {}),
  };
}

/** Retry-After in seconds (the HTTP-date form is not used by our API). */
function retryAfterHeader(response: Response): number | undefined {
  const value = Number(response.headers.get('Retry-After'));
  return Number.isFinite(value) && value > 0 ? value : undefined;
}

/** The answer of POST /auth/refresh-token: a new token pair. */
const refreshedTokens: ResponseSchema<TokenPair> = {
  safeParse: (data) =>
    isRecord(data) &&
    isString(data.accessToken) &&
    data.accessToken.length > 0 &&
    isString(data.refreshToken) &&
    data.refreshToken.length > 0
      ? { success: true, data: { accessToken: data.accessToken, refreshToken: data.refreshToken } }
      : { success: false, error: { issues: ['not a token pair'] } },
};

const CLIENT_MESSAGES: Record<ClientErrorCode, string> = {
  NETWORK: 'The server could not be reached.',
  OFFLINE: 'This needs an internet connection.',
  INVALID_RESPONSE: 'The server sent an answer the app does not understand.',
  UNKNOWN: 'An error occurred.',
};

const clientError = (code: ClientErrorCode, status = 0): Result<never> => ({
  ok: false,
  error: { code, message: CLIENT_MESSAGES[code], status },
});

const networkError = () => ({
  ok: false as const,
  error: { code: 'NETWORK' as ApiErrorCode, message: CLIENT_MESSAGES.NETWORK, status: 0 },
});

type Sent = { kind: 'response'; response: Response } | { kind: 'network' };
type RefreshOutcome = 'refreshed' | 'expired' | 'network';

/** Reads a body as JSON; undefined when empty or not JSON. */
async function readJson(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  const text = await response.text().catch(() => '');
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** An error answer as the result's error: the API's envelope, or UNKNOWN with the status. */
async function errorResult(response: Response): Promise<Result<never>> {
  const envelope = errorEnvelope(await readJson(response));
  if (envelope) {
    const { code, message, field, issues } = envelope;
    const retryAfter = envelope.retryAfter ?? retryAfterHeader(response);
    return {
      ok: false,
      error: {
        code,
        message,
        status: response.status,
        ...(field ? { field } : {}),
        ...(issues?.length ? { issues } : {}),
        ...(retryAfter !== undefined ? { retryAfter } : {}),
      },
    };
  }
  return {
    ok: false,
    error: {
      code: 'UNKNOWN',
      message: response.statusText || CLIENT_MESSAGES.UNKNOWN,
      status: response.status,
    },
  };
}

const isPromiseLike = <T>(value: T | PromiseLike<T>): value is PromiseLike<T> =>
  typeof (value as { then?: unknown }).then === 'function';

/**
 * The schema of a call, waited for when it is still loading. Called when the request starts,
 * so a schema chunk that cannot be loaded is caught at once (null) rather than left unhandled.
 */
function schemaOf<T>(
  source: SchemaSource<T>,
): ResponseSchema<T> | Promise<ResponseSchema<T> | null> {
  if (!isPromiseLike(source)) return source;
  return Promise.resolve(source).catch((error: unknown) => {
    console.warn('Could not load a response schema', error);
    return null;
  });
}

async function toResult<T>(
  response: Response,
  schema: ResponseSchema<T> | Promise<ResponseSchema<T> | null>,
  path: string,
): Promise<Result<T>> {
  if (!response.ok) return errorResult(response);
  const body = await readJson(response);
  // `{ data }` envelope; a 204 carries no body and parses as undefined.
  const data =
    body !== null && typeof body === 'object' && 'data' in body
      ? (body as { data: unknown }).data
      : body;
  const ready = isPromiseLike(schema) ? await schema : schema;
  // The schema's chunk could not be loaded: the app is as good as offline.
  if (ready === null) return clientError('NETWORK', response.status);
  const parsed = ready.safeParse(data);
  if (parsed.success) return { ok: true, data: parsed.data };
  console.warn(`Unexpected answer from ${path}`, parsed.error.issues);
  return clientError('INVALID_RESPONSE', response.status);
}

/**
 * The one HTTP client of the app (CONVENTIONS "Server state on the client"): base URL, bearer
 * token, Accept-Language, `{data}` unwrapping, zod parsing of every answer, result-or-error pairs
 * and the SPEC §8 token handling:
 *
 * - a 401 for a signed-in user, except on the auth endpoints, triggers one token refresh and one
 *   retry of the request;
 * - concurrent 401s share that refresh and are all retried when it succeeds;
 * - refresh attempts are throttled to one per TOKEN_REFRESH_THROTTLE_MS; a 401 inside the window
 *   reuses the last attempt's outcome instead of starting another;
 * - no refresh token, or a refused refresh → the tokens are cleared, `onSessionExpired` runs once
 *   and the request fails with the 401;
 * - a refresh that cannot reach the server keeps the session (the user may just be offline) and
 *   fails the request with NETWORK;
 * - while the device is offline (`isOnline`), a request that changes data fails at once with
 *   OFFLINE without being sent (issue 16 item 4); reads are sent and fail as NETWORK.
 */
export function createHttpClient(config: HttpClientConfig): HttpClient {
  const baseUrl = (config.baseUrl ?? '/api').replace(/\/$/, '');
  const doFetch = config.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const now = config.now ?? Date.now;
  const throttleMs = config.refreshThrottleMs ?? TOKEN_REFRESH_THROTTLE_MS;
  const { tokens } = config;

  let lastRefresh: {
    startedAt: number;
    outcome: Promise<RefreshOutcome>;
    settled: boolean;
  } | null = null;

  const headers = (accessToken: string | null, body: unknown): Record<string, string> => {
    const platform = config.getPlatform?.() ?? 'web';
    return {
      Accept: 'application/json',
      'Accept-Language': config.getLocale(),
      ...(body instanceof Blob
        ? { 'Content-Type': body.type }
        : body !== undefined
          ? { 'Content-Type': 'application/json' }
          : {}),
      ...(accessToken ? { Authorization: `Bearer ${accessToken}` } : {}),
      ...(platform !== 'web' ? { [PLATFORM_HEADER]: platform } : {}),
    };
  };

  const urlOf = (path: string, query?: RequestOptions['query']) => {
    const url = `${baseUrl}${path.startsWith('/') ? path : `/${path}`}`;
    if (!query) return url;
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query))
      if (value !== undefined) params.set(key, String(value));
    const qs = params.toString();
    return qs ? `${url}?${qs}` : url;
  };

  async function send(
    method: string,
    path: string,
    body: unknown,
    accessToken: string | null,
    options: RequestOptions,
    extraHeaders: Record<string, string> = {},
  ): Promise<Sent> {
    const url = urlOf(path, options.query);
    const sentHeaders = { ...headers(accessToken, body), ...options.headers, ...extraHeaders };
    const early =
      method === 'GET' && !options.signal?.aborted ? config.takeEarly?.(url, sentHeaders) : null;
    const earlyResponse = early ? await early : null;
    if (earlyResponse) return { kind: 'response', response: earlyResponse };
    try {
      const response = await doFetch(url, {
        method,
        headers: sentHeaders,
        body: body instanceof Blob || body === undefined ? body : JSON.stringify(body),
        signal: options.signal,
      });
      return { kind: 'response', response };
    } catch {
      return { kind: 'network' };
    }
  }

  async function expire(): Promise<void> {
    await tokens
      .clear()
      .catch((error: unknown) => console.warn('Could not clear the tokens', error));
    config.onSessionExpired();
  }

  async function runRefresh(refreshToken: string): Promise<RefreshOutcome> {
    const sent = await send('POST', '/auth/refresh-token', { refreshToken }, null, {});
    if (sent.kind === 'network') return 'network';
    const result = await toResult(sent.response, refreshedTokens, '/auth/refresh-token');
    if (!result.ok) {
      if (result.error.status === 0 || result.error.status >= 500) {
        // The server is failing, not refusing: keep the session and let the request fail.
        return 'network';
      }
      await expire();
      return 'expired';
    }
    const pair: TokenPair = result.data;
    await tokens.set(pair);
    return 'refreshed';
  }

  /** Gets a usable access token to replace `sentWith` (refused, or expired). */
  async function refreshReplacing(sentWith: string): Promise<RefreshOutcome> {
    const current = tokens.getAccessToken();
    // Signed out meanwhile (another request's refresh failed, or the user logged out).
    if (current === null) return 'expired';
    // Another request refreshed while this one was on the way: retry with the new token.
    if (current !== sentWith) return 'refreshed';
    if (lastRefresh && (!lastRefresh.settled || now() - lastRefresh.startedAt < throttleMs)) {
      return lastRefresh.outcome;
    }
    const refreshToken = tokens.getRefreshToken();
    if (!refreshToken) {
      await expire();
      return 'expired';
    }
    const attempt = { startedAt: now(), outcome: runRefresh(refreshToken), settled: false };
    lastRefresh = attempt;
    void attempt.outcome.finally(() => {
      attempt.settled = true;
    });
    return attempt.outcome;
  }

  /** Sends a request with the SPEC §8 refresh-and-retry; the final response, or a client error. */
  async function exchange(
    method: string,
    path: string,
    body: unknown,
    options: RequestOptions,
    extraHeaders: Record<string, string> = {},
  ): Promise<{ ok: true; response: Response } | { ok: false; error: ApiError }> {
    const sentWith = tokens.getAccessToken();
    const first = await send(method, path, body, sentWith, options, extraHeaders);
    if (first.kind === 'network') return networkError();
    const canRefresh =
      first.response.status === 401 &&
      sentWith !== null &&
      !options.skipAuthRefresh &&
      !isAuthEndpoint(path);
    if (!canRefresh) return { ok: true, response: first.response };

    const outcome = await refreshReplacing(sentWith);
    if (outcome === 'network') return networkError();
    if (outcome === 'expired') return { ok: true, response: first.response };

    // Refresh once: the retry's answer is final, even if it is another 401.
    const retry = await send(method, path, body, tokens.getAccessToken(), options, extraHeaders);
    if (retry.kind === 'network') return networkError();
    return { ok: true, response: retry.response };
  }

  async function request<T>(
    method: string,
    path: string,
    body: unknown,
    schema: SchemaSource<T>,
    options: RequestOptions = {},
  ): Promise<Result<T>> {
    // Issue 16 item 4: nothing that changes data waits for a connection; it fails now, unsent.
    if (method !== 'GET' && config.isOnline?.() === false) return clientError('OFFLINE');
    const ready = schemaOf(schema);
    const answer = await exchange(method, path, body, options);
    if (!answer.ok) return answer;
    return toResult(answer.response, ready, path);
  }

  async function getIfChanged<T>(
    path: string,
    schema: SchemaSource<T>,
    etag: string | null,
    options: RequestOptions = {},
  ): Promise<Result<Conditional<T>>> {
    const ready = schemaOf(schema);
    const answer = await exchange(
      'GET',
      path,
      undefined,
      options,
      etag ? { 'If-None-Match': etag } : {},
    );
    if (!answer.ok) return answer;
    if (answer.response.status === 304) return { ok: true, data: { changed: false } };
    const result = await toResult(answer.response, ready, path);
    if (!result.ok) return result;
    return {
      ok: true,
      data: { changed: true, data: result.data, etag: answer.response.headers.get('ETag') },
    };
  }

  async function getBlob(path: string, options: RequestOptions = {}): Promise<Result<Blob>> {
    const accept = options.headers?.Accept ?? '*/*';
    const answer = await exchange('GET', path, undefined, options, { Accept: accept });
    if (!answer.ok) return answer;
    if (!answer.response.ok) return errorResult(answer.response);
    try {
      return { ok: true, data: await answer.response.blob() };
    } catch {
      // The connection broke while the body was on its way.
      return networkError();
    }
  }

  return {
    get: (path, schema, options) => request('GET', path, undefined, schema, options),
    post: (path, body, schema, options) => request('POST', path, body, schema, options),
    put: (path, body, schema, options) => request('PUT', path, body, schema, options),
    patch: (path, body, schema, options) => request('PATCH', path, body, schema, options),
    delete: (path, schema, options) => request('DELETE', path, undefined, schema, options),
    getIfChanged,
    getBlob,
    async freshAccessToken() {
      const token = tokens.getAccessToken();
      if (token === null) return null;
      const expiresAt = accessTokenExpiry(token);
      if (expiresAt === null || expiresAt - now() > FRESH_TOKEN_MARGIN_MS) return token;
      // Offline or the server failing: the old token, and the hub's own retry handles the 401.
      return (await refreshReplacing(token)) === 'refreshed' ? tokens.getAccessToken() : token;
    },
  };
}

/** Error thrown by {@link unwrap}, for TanStack Query which expects failing query functions to throw. */
export class ApiRequestError extends Error {
  constructor(readonly error: ApiError) {
    super(error.message);
    this.name = 'ApiRequestError';
  }
}

/** The data of a successful result; throws {@link ApiRequestError} otherwise (query functions). */
export function unwrap<T>(result: Result<T>): T {
  if (result.ok) return result.data;
  throw new ApiRequestError(result.error);
}
