import { describe, expect, it } from 'vitest';
import { WebhookVerificationError } from '../provider';
import {
  contentHash,
  verifyVippsWebhook,
  WEBHOOK_CLOCK_SKEW_S,
  WEBHOOK_MAX_AGE_S,
  webhookSignature,
} from './signature';

const secret = 'kQ8mWm0q1rX2e3Y4zT5u6V7w8X9y0Z1a';
const path = '/api/payments/webhooks/vipps-mobilepay';
const host = 'selvgreiðsla.alda.fo';
const date = 'Thu, 26 Nov 2026 10:00:00 GMT';
const now = new Date('2026-11-26T10:01:00Z');
const body = Buffer.from(
  JSON.stringify({
    msn: '123456',
    reference: '0b5e6c1e-6f0a-4a3c-9d7e-2f1b8c9a0d11',
    pspReference: '7686f7788898767977',
    name: 'AUTHORIZED',
    amount: { currency: 'DKK', value: 4900 },
    timestamp: '2026-11-26T10:00:00Z',
    idempotencyKey: null,
    success: true,
  }),
);

function signed(raw: Buffer, overrides: Record<string, string> = {}) {
  const hash = contentHash(raw);
  const signature = webhookSignature({
    secret,
    method: 'POST',
    pathAndQuery: path,
    date,
    host,
    contentHash: hash,
  });
  return {
    'x-ms-date': date,
    'x-ms-content-sha256': hash,
    host,
    authorization: `HMAC-SHA256 SignedHeaders=x-ms-date;host;x-ms-content-sha256&Signature=${signature}`,
    ...overrides,
  };
}

const verify = (raw: Buffer, headers: Record<string, string>, at = now) =>
  verifyVippsWebhook({ rawBody: raw, headers, pathAndQuery: path, secrets: [secret], now: at });

// Issue 42 §2: their HMAC-SHA256 scheme over the raw body, with content hash, date and host.
describe('Vipps MobilePay webhook signature', () => {
  it('accepts a request signed with the registered secret', () => {
    expect(() => verify(body, signed(body))).not.toThrow();
  });

  it('accepts the signature of any registered secret (a second registration while rotating)', () => {
    expect(() =>
      verifyVippsWebhook({
        rawBody: body,
        headers: signed(body),
        pathAndQuery: path,
        secrets: ['another-secret-of-an-older-registration', secret],
        now,
      }),
    ).not.toThrow();
  });

  it('refuses a body changed by one byte', () => {
    const altered = Buffer.from(body);
    altered[altered.indexOf('4900')] = '5'.charCodeAt(0);
    expect(() => verify(altered, signed(body))).toThrow(WebhookVerificationError);
    // …also when the forger recomputes the content hash: the HMAC covers it.
    expect(() =>
      verify(altered, signed(body, { 'x-ms-content-sha256': contentHash(altered) })),
    ).toThrow(/signature does not match/);
  });

  it('refuses a forged signature, another host or another path', () => {
    expect(() =>
      verify(
        body,
        signed(body, {
          authorization:
            'HMAC-SHA256 SignedHeaders=x-ms-date;host;x-ms-content-sha256&Signature=AAAA',
        }),
      ),
    ).toThrow(WebhookVerificationError);
    expect(() => verify(body, signed(body, { host: 'evil.example' }))).toThrow(/signature/);
    expect(() =>
      verifyVippsWebhook({
        rawBody: body,
        headers: signed(body),
        pathAndQuery: '/other',
        secrets: [secret],
        now,
      }),
    ).toThrow(/signature/);
  });

  it('takes a retry with its first x-ms-date for their 7 days of retries; refuses one older, or one dated ahead (issue 61 §2)', () => {
    const sent = Date.parse(date);
    const at = (seconds: number) => new Date(sent + seconds * 1000);
    expect(WEBHOOK_MAX_AGE_S).toBeGreaterThanOrEqual(7 * 86_400);
    expect(() => verify(body, signed(body), at(7 * 86_400 - 60))).not.toThrow();
    expect(() => verify(body, signed(body), at(WEBHOOK_MAX_AGE_S + 1))).toThrow(/older/);
    expect(() => verify(body, signed(body), at(-WEBHOOK_CLOCK_SKEW_S + 1))).not.toThrow();
    expect(() => verify(body, signed(body), at(-WEBHOOK_CLOCK_SKEW_S - 1))).toThrow(/future/);
  });

  it('refuses a request without the headers, or when no webhook is registered', () => {
    const { authorization: _a, ...withoutAuth } = signed(body);
    expect(() => verify(body, withoutAuth)).toThrow(/authorization/);
    expect(() =>
      verifyVippsWebhook({
        rawBody: body,
        headers: signed(body),
        pathAndQuery: path,
        secrets: [],
        now,
      }),
    ).toThrow(/no webhook is registered/);
  });
});

// Issue 42 §6: "The webhook check accepts the signed example from their documentation and refuses
// it with one byte changed" (the example is vendored with its source beside the OpenAPI documents).
describe('the signed example of their Webhooks documentation', async () => {
  const { readFile } = await import('node:fs/promises');
  const example = JSON.parse(
    await readFile(
      new URL(
        '../../../../test/contracts/vipps-mobilepay/webhook-signature-example.json',
        import.meta.url,
      ),
      'utf8',
    ),
  ) as {
    secret: string;
    pathAndQuery: string;
    host: string;
    body: string;
    headers: Record<string, string>;
  };
  const headers = { ...example.headers, host: example.host };
  const at = new Date(Date.parse(example.headers['x-ms-date'] ?? '') + 10_000);
  const check = (body: Buffer) =>
    verifyVippsWebhook({
      rawBody: body,
      headers,
      pathAndQuery: example.pathAndQuery,
      secrets: [example.secret],
      now: at,
    });

  it('is accepted as published', () => {
    expect(() => check(Buffer.from(example.body))).not.toThrow();
  });

  it('is refused with any one byte of the body changed', () => {
    const body = Buffer.from(example.body);
    for (const index of [0, Math.floor(body.length / 2), body.length - 1]) {
      const altered = Buffer.from(body);
      altered[index] = (altered[index] ?? 0) ^ 1;
      expect(() => check(altered)).toThrow(WebhookVerificationError);
    }
  });
});
