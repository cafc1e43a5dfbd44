import { waitFor } from '../helper';

/** A JSON answer of the API: the status, `data` (empty when there is none) and `error`. */
export interface JsonAnswer {
  status: number;
  data: Record<string, unknown>;
  error: { code?: string; retryAfter?: number } | undefined;
  /** The answer's headers (behind HAProxy, `x-alda-server` names the instance that answered). */
  headers: Headers;
}

/**
 * JSON over HTTP to a running API process, as the app's client sends it (English answers).
 * `ip` is the client address a proxy in front forwards.
 */
export async function callJson(
  base: string,
  method: string,
  route: string,
  options: { token?: string; body?: unknown; key?: string; ip?: string } = {},
): Promise<JsonAnswer> {
  const res = await fetch(`${base}${route}`, {
    method,
    headers: {
      'accept-language': 'en',
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...(options.key ? { 'idempotency-key': options.key } : {}),
      ...(options.ip ? { 'x-forwarded-for': options.ip } : {}),
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    signal: AbortSignal.timeout(15_000),
  });
  const text = await res.text();
  const json = (text ? JSON.parse(text) : {}) as {
    data?: Record<string, unknown>;
    error?: JsonAnswer['error'];
  };
  return { status: res.status, data: json.data ?? {}, error: json.error, headers: res.headers };
}

/** The test provider's hosted card page, filled in with the success card and submitted. */
export async function payOnCardPage(paymentUrl: unknown): Promise<number> {
  if (typeof paymentUrl !== 'string') throw new Error('no payment URL');
  const res = await fetch(paymentUrl.replace(/\?.*$/, ''), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      number: '4242424242424242',
      expiry: '12/30',
      cvc: '123',
      action: 'pay',
    }).toString(),
    redirect: 'manual',
    signal: AbortSignal.timeout(15_000),
  });
  await res.arrayBuffer();
  return res.status;
}

/** Polls `probe` until it answers something, or fails naming `what`. */
export async function until<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs = 20_000,
): Promise<T> {
  return waitFor(probe, timeoutMs).catch(() => {
    throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
  });
}
