import { PaymentProviderError } from '../provider';

/*
 * The HTTP side of Vipps MobilePay (ADR 0081): the access token from the Access Token API, cached
 * until shortly before it expires and fetched again once on a 401; the headers every call carries
 * (`Ocp-Apim-Subscription-Key`, `Merchant-Serial-Number`, `Vipps-System-*`, and the
 * `Idempotency-Key` of every POST and PATCH); a 10 s timeout; problem bodies read into the error.
 * Secrets never reach a log line: errors carry the method, path, status and the problem's title.
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
  /** Our system's name and version, as their `Vipps-System-*` headers ask. */
  systemVersion?: string;
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
  const systemHeaders = {
    'Vipps-System-Name': 'alda',
    'Vipps-System-Version': options.systemVersion ?? '1.0.0',
    'Vipps-System-Plugin-Name': 'alda-selfcare',
    'Vipps-System-Plugin-Version': options.systemVersion ?? '1.0.0',
  };
  let token: CachedToken | null = null;
  let fetching: Promise<CachedToken> | null = null;

  async function send(method: string, path: string, init: RequestInit): Promise<Response> {
    try {
      return await doFetch(`${base}${path}`, {
        ...init,
        method,
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      const reason =
        error instanceof Error && error.name === 'TimeoutError' ? 'timed out' : 'failed';
      throw new PaymentProviderError(`Vipps MobilePay ${method} ${path} ${reason}`, {
        cause: error,
      });
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
    const response = await send('POST', path, {
      headers: {
        client_id: credentials.clientId,
        client_secret: credentials.clientSecret,
        'Ocp-Apim-Subscription-Key': credentials.subscriptionKey,
        'Merchant-Serial-Number': credentials.msn,
        ...systemHeaders,
      },
    });
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
   * One API call with the access token. A 401 fetches a new token and tries once more; any other
   * error answer throws {@link VippsHttpError}. Answers the parsed JSON body (null when empty).
   */
  async function call<T>(
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    path: string,
    options: { body?: unknown; idempotencyKey?: string } = {},
  ): Promise<T> {
    const attempt = async (forceNew: boolean) => {
      const headers: Record<string, string> = {
        Authorization: `Bearer ${await accessToken(forceNew)}`,
        'Ocp-Apim-Subscription-Key': credentials.subscriptionKey,
        'Merchant-Serial-Number': credentials.msn,
        ...systemHeaders,
      };
      if (options.idempotencyKey !== undefined) headers['Idempotency-Key'] = options.idempotencyKey;
      if (options.body !== undefined) headers['Content-Type'] = 'application/json';
      return send(method, path, {
        headers,
        ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
      });
    };
    let response = await attempt(false);
    if (response.status === 401) {
      await response.body?.cancel();
      response = await attempt(true);
    }
    if (!response.ok)
      throw new VippsHttpError(response.status, method, path, await problemOf(response));
    const text = await response.text();
    return (text === '' ? null : JSON.parse(text)) as T;
  }

  return { call, accessToken };
}
