import { createHash, createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startVippsPrism, type VippsPrism } from './support/vipps-prism';

/*
 * The Vipps MobilePay test provider (test/support/vipps-prism.ts): Prism serving the provider's
 * published OpenAPI documents (test/contracts/vipps-mobilepay/README.md). These tests prove the
 * harness itself: a request the documents allow passes with no violation, and requests they do not
 * allow are recorded as violations.
 */

let prism: VippsPrism;

beforeAll(async () => {
  prism = await startVippsPrism();
});

afterAll(async () => {
  await prism?.close();
});

beforeEach(() => prism.reset());

const merchant = {
  'Merchant-Serial-Number': '123456',
  'Ocp-Apim-Subscription-Key': 'test-subscription-key',
  Authorization: 'Bearer eyJ0eXAiOiJKV1QiLCJhbGciOiJSUzI1NiJ9.test.token',
};

const payment = {
  amount: { currency: 'DKK', value: 1000 },
  paymentMethod: { type: 'WALLET' },
  reference: 'abc-123-def-456-ghi',
  returnUrl: 'https://selfcare.alda.test/betaling/abc-123-def-456-ghi',
  userFlow: 'WEB_REDIRECT',
  paymentDescription: 'Alda: monthly plan',
};

async function send(
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<{ status: number; body: unknown }> {
  const res = await fetch(prism.url + path, {
    method,
    headers: body === undefined ? headers : { 'Content-Type': 'application/json', ...headers },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text === '' ? undefined : (JSON.parse(text) as unknown) };
}

describe('Vipps MobilePay Prism harness', () => {
  it('answers a valid ePayment create-payment with 201 and the documented example, with no violation', async () => {
    const res = await send(
      'POST',
      '/epayment/v1/payments',
      { ...merchant, 'Idempotency-Key': 'create-abc-123-def-456-ghi' },
      payment,
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ redirectUrl: expect.stringMatching(/^https:\/\//) });
    expect(prism.violations).toEqual([]);
    expect(prism.requests).toHaveLength(1);
    expect(prism.requests[0]).toMatchObject({
      api: 'epayment',
      method: 'POST',
      path: '/epayment/v1/payments',
      body: payment,
      status: 201,
    });
    expect(prism.requests[0]?.headers['idempotency-key']).toBe('create-abc-123-def-456-ghi');
  });

  it('records a create-payment without Idempotency-Key as a violation', async () => {
    const res = await send('POST', '/epayment/v1/payments', merchant, payment);
    expect(res.status).toBe(400);
    expect(prism.violations).toEqual([
      expect.objectContaining({
        api: 'epayment',
        method: 'POST',
        path: '/epayment/v1/payments',
        source: 'sl-violations',
        location: ['request', 'header'],
        code: 'required',
        message: expect.stringContaining('idempotency-key'),
      }),
    ]);
  });

  it('records an amount.value sent as a string as a violation', async () => {
    const res = await send(
      'POST',
      '/epayment/v1/payments',
      { ...merchant, 'Idempotency-Key': 'create-abc-123-def-456-ghi' },
      { ...payment, amount: { currency: 'DKK', value: '1000' } },
    );
    expect(res.status).toBe(400);
    expect(prism.violations).toEqual([
      expect.objectContaining({
        location: ['request', 'body', 'amount', 'value'],
        code: 'type',
        message: 'Request body property amount.value must be integer',
      }),
    ]);
  });

  it('records a request without the Authorization the document requires as a violation (Prism: 401)', async () => {
    const { Authorization: _left, ...withoutToken } = merchant;
    const res = await send(
      'POST',
      '/epayment/v1/payments',
      { ...withoutToken, 'Idempotency-Key': 'create-abc-123-def-456-ghi' },
      payment,
    );
    expect(res.status).toBe(401);
    expect(prism.violations).toEqual([
      expect.objectContaining({ source: 'prism-error', code: 'UNAUTHORIZED', status: 401 }),
    ]);
  });

  it('records a reference outside the documented pattern as a violation', async () => {
    await send(
      'POST',
      '/epayment/v1/payments',
      { ...merchant, 'Idempotency-Key': 'create-short' },
      { ...payment, reference: 'abc_123' },
    );
    expect(prism.violations.map((v) => [v.location.join('.'), v.code])).toEqual(
      expect.arrayContaining([['request.body.reference', 'pattern']]),
    );
  });

  it('answers the access token POST with the example token (the document’s own example breaks its schema)', async () => {
    const res = await send('POST', '/accesstoken/get', {
      client_id: 'fb492b5e-7907-4d83-ba20-c7fb60ca35de',
      client_secret: 'test-client-secret',
      'Ocp-Apim-Subscription-Key': 'test-subscription-key',
      'Merchant-Serial-Number': '123456',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ token_type: 'Bearer', access_token: expect.any(String) });
    expect(prism.violations).toEqual([]);
    // expires_in & co. are typed string but the examples are numbers: kept apart, not the request's fault.
    expect(prism.responseViolations).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ location: ['response', 'body', 'expires_in'], code: 'type' }),
      ]),
    );
  });

  it('records an access token POST without client_id as a violation', async () => {
    const res = await send('POST', '/accesstoken/get', {
      client_secret: 'test-client-secret',
      'Ocp-Apim-Subscription-Key': 'test-subscription-key',
    });
    expect(res.status).toBe(400);
    expect(prism.violations).toEqual([
      expect.objectContaining({ code: 'required', message: expect.stringContaining('client_id') }),
    ]);
  });

  it('records a path outside the four APIs, and a path no document has, as violations', async () => {
    expect((await send('GET', '/ecomm/v2/payments', merchant)).status).toBe(404);
    expect((await send('GET', '/epayment/v9/payments', merchant)).status).toBe(404);
    expect(prism.violations).toEqual([
      expect.objectContaining({
        api: null,
        path: '/ecomm/v2/payments',
        source: 'harness',
        code: 'NO_ROUTE',
      }),
      expect.objectContaining({
        api: 'epayment',
        path: '/epayment/v9/payments',
        source: 'prism-error',
        code: 'NO_PATH_MATCHED_ERROR',
      }),
    ]);
  });

  it('serves the Webhooks API under /webhooks/ (the document’s server path) and Recurring v3', async () => {
    const hook = await send('POST', '/webhooks/v1/webhooks', merchant, {
      url: 'https://selfcare.alda.test/api/payments/vipps-mobilepay/webhook',
      events: ['epayments.payment.authorized.v1', 'recurring.charge-captured.v1'],
    });
    expect(hook).toMatchObject({
      status: 201,
      body: { id: expect.any(String), secret: expect.any(String) },
    });
    const charge = await send(
      'POST',
      '/recurring/v3/agreements/agr_5kSeqz/charges',
      { ...merchant, 'Idempotency-Key': 'charge-2030-12' },
      {
        amount: 19900,
        transactionType: 'DIRECT_CAPTURE',
        description: 'December',
        due: '2030-12-31',
        retryDays: 5,
      },
    );
    expect(charge.status).toBe(201);
    expect(prism.violations).toEqual([]);
    expect(prism.requests.map((r) => [r.api, r.path])).toEqual([
      ['webhooks', '/webhooks/v1/webhooks'],
      ['recurring', '/recurring/v3/agreements/agr_5kSeqz/charges'],
    ]);
  });

  it('takes a Recurring v3 agreement in DKK (README Edit 2) and still refuses another currency', async () => {
    const agreement = {
      pricing: { type: 'LEGACY', amount: 12900, currency: 'DKK' },
      interval: { unit: 'MONTH', count: 1 },
      merchantAgreementUrl: 'https://selfcare.alda.test/abonnement',
      merchantRedirectUrl: 'https://selfcare.alda.test/abonnement/vipps',
      productName: 'Alda monthly plan',
    };
    await send(
      'POST',
      '/recurring/v3/agreements',
      { ...merchant, 'Idempotency-Key': 'agreement-1' },
      agreement,
    );
    expect(prism.violations).toEqual([]);
    await send(
      'POST',
      '/recurring/v3/agreements',
      { ...merchant, 'Idempotency-Key': 'agreement-2' },
      { ...agreement, pricing: { ...agreement.pricing, currency: 'SEK' } },
    );
    expect(prism.violations).toEqual([
      expect.objectContaining({
        location: ['request', 'body', 'pricing', 'currency'],
        code: 'enum',
      }),
    ]);
  });

  it('lets a test choose another documented answer with prefer()', async () => {
    prism.prefer({ method: 'POST', path: '/epayment/v1/payments', prefer: 'example=QrImageUrl' });
    const res = await send(
      'POST',
      '/epayment/v1/payments',
      { ...merchant, 'Idempotency-Key': 'create-qr' },
      { ...payment, userFlow: 'QR' },
    );
    expect(res).toMatchObject({
      status: 201,
      body: { redirectUrl: expect.stringContaining('qr-image') },
    });
    expect(prism.violations).toEqual([]);
    prism.clearPrefer();
    // A documented error answer (the create-payment operation has 400, 403 and 409).
    prism.prefer({ path: /^\/epayment\/v1\/payments$/, prefer: 'code=409' });
    const conflict = await send(
      'POST',
      '/epayment/v1/payments',
      { ...merchant, 'Idempotency-Key': 'create-conflict' },
      payment,
    );
    expect(conflict.status).toBe(409);
    expect(prism.violations).toEqual([]);
    // An answer the document does not have is Prism's own 404, recorded like any other.
    prism.prefer({ method: 'GET', path: /^\/epayment\/v1\/payments\/[^/]+$/, prefer: 'code=404' });
    expect((await send('GET', '/epayment/v1/payments/abc-123-def-456-ghi', merchant)).status).toBe(
      404,
    );
    expect(prism.violations).toEqual([
      expect.objectContaining({ source: 'prism-error', code: 'NOT_FOUND' }),
    ]);
  });
});

describe('Vipps MobilePay webhook signature: the documented worked example (README "Webhook signature")', () => {
  const example = JSON.parse(
    readFileSync(
      new URL('./contracts/vipps-mobilepay/webhook-signature-example.json', import.meta.url),
      'utf8',
    ),
  ) as {
    secret: string;
    method: string;
    pathAndQuery: string;
    host: string;
    body: string;
    headers: Record<'x-ms-date' | 'x-ms-content-sha256' | 'authorization', string>;
    stringToSign: string;
  };

  it('reproduces x-ms-content-sha256 and Authorization from the secret (as UTF-8 text), date, host, path and body', () => {
    const contentHash = createHash('sha256').update(example.body, 'utf8').digest('base64');
    expect(contentHash).toBe(example.headers['x-ms-content-sha256']);
    const stringToSign = `${example.method}\n${example.pathAndQuery}\n${example.headers['x-ms-date']};${example.host};${contentHash}`;
    expect(stringToSign).toBe(example.stringToSign);
    const signature = createHmac('sha256', example.secret)
      .update(stringToSign, 'utf8')
      .digest('base64');
    expect(
      `HMAC-SHA256 SignedHeaders=x-ms-date;host;x-ms-content-sha256&Signature=${signature}`,
    ).toBe(example.headers.authorization);
  });
});
