import { PaymentOutcomeUnknownError, PaymentProviderError } from '../provider';

/*
 * The HTTP side of Vipps MobilePay (ADR 0081): the access token from the Access Token API, cached
 * until shortly before it expires and fetched again once on a 401; the headers every call carries
 * (`Ocp-Apim-Subscription-Key`, `Merchant-Serial-Number`, `Vipps-System-*` with the app's
 * version, and the `Idempotency-Key` of every POST and PATCH); a 10 s timeout; problem bodies read
 * into the error. Secrets never reach a log line: errors carry the method, path, status and the
 * problem's title.
 *
 * What an answer means (ADR 0081 "Guidelines: polling, 429, webhooks"):
 * - 429, and a 503 with `Retry-After`: not done; asked again after `Retry-After` (seconds or an
 *   HTTP date) with the same headers and `Idempotency-Key`, at most RETRY_ATTEMPTS times and never
 *   waiting longer than RETRY_MAX_WAIT_MS in all; then {@link VippsRateLimitedError} (a 429) or
 *   the 503's error.
 * - No answer (time-out, connection lost) to a call that changes something, or a 5xx to one:
 *   {@link PaymentOutcomeUnknownError} — it may have been done. A read without an answer, and any
 *   4xx, is a definite {@link PaymentProviderError} / {@link VippsHttpError}.
 */

export interface VippsCredentials {
  apiUrl: string;
  clientId: string;
  clientSecret: string;
  subscriptionKey: string;
  msn: string;
}

export interface VippsClientOptions {
  credentials: VippsCredentials;
  now: () => Date;
  /** Replaced in tests; the global fetch otherwise. */
  fetch?: typeof fetch;
  /** Milliseconds before a call is given up (default 10 s, issue 42 §7). */
  timeoutMs?: number;
  /** The app's version (`APP_VERSION`), sent as `Vipps-System-Version` on every call. */
  systemVersion: string;
  /**
   * How a `Retry-After` is waited out (default: a timer). Tests pass one that records the wait and
   * returns at once.
   */
  sleep?: (ms: number) => Promise<void>;
}

/** A call the provider answered with an error: the status and the RFC 7807 problem's words. */
export class VippsHttpError extends PaymentProviderError {
  override name = 'VippsHttpError';
  constructor(
    readonly status: number,
    readonly method: string,
    readonly path: string,
    readonly problem: { type?: string; title?: string; detail?: string } | null,
  ) {
    const words = problem
      ? `: ${problem.title ?? ''}${problem.detail ? ` (${problem.detail})` : ''}`
      : '';
    super(`Vipps MobilePay ${method} ${path} answered ${status}${words}`);
  }
}

/** A 429 that is still a 429 after the retries (or asks for a longer wait than we give it). */
export class VippsRateLimitedError extends VippsHttpError {
  override name = 'VippsRateLimitedError';
  constructor(method: string, path: string) {
    super(429, method, path, { title: 'rate-limited: Too Many Requests' });
  }
}

/** Tries of one call in all when the provider answers 429 (or 503 with `Retry-After`). */
export const RETRY_ATTEMPTS = 3;
/**
 * The most one call waits for `Retry-After`s in all. A customer may be waiting on the call (a
 * purchase), so a longer wait is not waited out: the call fails as rate-limited at once.
 */
const RETRY_MAX_WAIT_MS = 10_000;
/** The wait after a 429 without `Retry-After`: 1 s, then 2 s. */
const RETRY_DEFAULT_MS = 1_000;

/**
 * `Retry-After` in ms: delay-seconds or an HTTP-date (RFC 9110 §10.2.3), null when absent or
 * unreadable. A date in the past is 0.
 */
function retryAfterMs(value: string | null, now: Date): number | null {
  if (value === null) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return null;
  return Math.max(0, at - now.getTime());
}

const timer = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Refresh the token this long before the provider says it expires. */
const TOKEN_MARGIN_MS = 5 * 60_000;
const DEFAULT_TIMEOUT_MS = 10_000;

interface CachedToken {
  value: string;
  expiresAt: number;
}

/** `expires_on` / `expires_in` come as strings of seconds in their examples; numbers are taken too. */
function seconds(value: unknown): number | null {
  const n = typeof value === 'string' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) ? n : null;
}

export type VippsClient = ReturnType<typeof createVippsClient>;

export function createVippsClient(options: VippsClientOptions) {
  const { credentials, now } = options;
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const base = credentials.apiUrl.replace(/\/+$/, '');
  const sleep = options.sleep ?? timer;
  const systemHeaders = {
    'Vipps-System-Name': 'alda',
    'Vipps-System-Version': options.systemVersion,
    'Vipps-System-Plugin-Name': 'alda-selfcare',
    'Vipps-System-Plugin-Version': options.systemVersion,
  };
  let token: CachedToken | null = null;
  let fetching: Promise<CachedToken> | null = null;

  /**
   * One request, asked again while the answer is a 429 or a 503 with `Retry-After` (the module's
   * comment). `changes`: the call makes or changes something there (not a read, not the token),
   * so a lost answer is {@link PaymentOutcomeUnknownError}. `init` is made once: every try sends
   * the same headers, the same `Idempotency-Key` among them.
   */
  async function send(
    method: string,
    path: string,
    init: RequestInit,
    changes: boolean,
  ): Promise<Response> {
    let waited = 0;
    for (let attempt = 1; ; attempt += 1) {
      let response: Response;
      try {
        response = await doFetch(`${base}${path}`, {
          ...init,
          method,
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (error) {
        const reason =
          error instanceof Error && error.name === 'TimeoutError' ? 'timed out' : 'failed';
        const message = `Vipps MobilePay ${method} ${path} ${reason}`;
        throw changes
          ? new PaymentOutcomeUnknownError(`${message}: it may have been done`, { cause: error })
          : new PaymentProviderError(message, { cause: error });
      }
      const asked = retryAfterMs(response.headers.get('retry-after'), now());
      const busy = response.status === 429 || (response.status === 503 && asked !== null);
      if (!busy) return response;
      const wait = asked ?? RETRY_DEFAULT_MS * attempt;
      if (attempt >= RETRY_ATTEMPTS || waited + wait > RETRY_MAX_WAIT_MS) {
        if (response.status === 503) return response;
        await response.body?.cancel();
        throw new VippsRateLimitedError(method, path);
      }
      await response.body?.cancel();
      waited += wait;
      await sleep(wait);
    }
  }

  async function problemOf(response: Response) {
    const text = await response.text().catch(() => '');
    try {
      const body = JSON.parse(text) as unknown;
      if (body && typeof body === 'object' && !Array.isArray(body)) {
        const { type, title, detail } = body as Record<string, unknown>;
        return {
          type: typeof type === 'string' ? type : undefined,
          title: typeof title === 'string' ? title : undefined,
          detail: typeof detail === 'string' ? detail.slice(0, 300) : undefined,
        };
      }
    } catch {
      // Not JSON: the status says enough.
    }
    return null;
  }

  async function fetchToken(): Promise<CachedToken> {
    const path = '/accesstoken/get';
    const response = await send(
      'POST',
      path,
      {
        headers: {
          client_id: credentials.clientId,
          client_secret: credentials.clientSecret,
          'Ocp-Apim-Subscription-Key': credentials.subscriptionKey,
          'Merchant-Serial-Number': credentials.msn,
          ...systemHeaders,
        },
      },
      false,
    );
    if (!response.ok)
      throw new VippsHttpError(response.status, 'POST', path, await problemOf(response));
    const body = (await response.json()) as Record<string, unknown>;
    const value = body.access_token;
    if (typeof value !== 'string' || value === '') {
      throw new PaymentProviderError('Vipps MobilePay access token answer has no access_token');
    }
    const at = now().getTime();
    const expiresOn = seconds(body.expires_on);
    const expiresIn = seconds(body.expires_in);
    // `expires_on` is absolute (epoch seconds); a value already past (an example's fixed date)
    // falls back to `expires_in`, and with neither the token is used for one call only.
    let expiresAt = at;
    if (expiresOn !== null && expiresOn * 1000 > at) expiresAt = expiresOn * 1000;
    else if (expiresIn !== null) expiresAt = at + expiresIn * 1000;
    return { value, expiresAt: expiresAt - TOKEN_MARGIN_MS };
  }

  /** The cached token, or a new one (one fetch at a time however many calls wait for it). */
  async function accessToken(forceNew = false): Promise<string> {
    if (!forceNew && token && token.expiresAt > now().getTime()) return token.value;
    if (!fetching) {
      fetching = fetchToken().finally(() => {
        fetching = null;
      });
    }
    token = await fetching;
    return token.value;
  }

  /**
   * One API call with the access token. A 401 fetches a new token and tries once more; a 429 is
   * asked again after `Retry-After` ({@link send}); a 5xx to a call that changes something throws
   * {@link PaymentOutcomeUnknownError}; any other error answer throws {@link VippsHttpError}.
   * Answers the parsed JSON body (null when empty).
   */
  async function call<T>(
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    path: string,
    options: { body?: unknown; idempotencyKey?: string } = {},
  ): Promise<T> {
    const changes = method !== 'GET';
    const attempt = async (forceNew: boolean) => {
      const headers: Record<string, string> = {
        Authorization: `Bearer ${await accessToken(forceNew)}`,
        'Ocp-Apim-Subscription-Key': credentials.subscriptionKey,
        'Merchant-Serial-Number': credentials.msn,
        ...systemHeaders,
      };
      if (options.idempotencyKey !== undefined) headers['Idempotency-Key'] = options.idempotencyKey;
      if (options.body !== undefined) headers['Content-Type'] = 'application/json';
      return send(
        method,
        path,
        {
          headers,
          ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
        },
        changes,
      );
    };
    let response = await attempt(false);
    if (response.status === 401) {
      await response.body?.cancel();
      response = await attempt(true);
    }
    if (!response.ok) {
      const error = new VippsHttpError(response.status, method, path, await problemOf(response));
      if (changes && response.status >= 500) {
        throw new PaymentOutcomeUnknownError(`${error.message}: it may have been done`, {
          cause: error,
        });
      }
      throw error;
    }
    const text = await response.text();
    return (text === '' ? null : JSON.parse(text)) as T;
  }

  return { call, accessToken };
}
