import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorEnvelope } from '@alda/contract/envelope';
import { createTestApp, parse, type TestApp } from './helper';
import { createHash } from 'node:crypto';
import { ENTRY_SCRIPT, FIRST_PAINT_SCRIPT } from '@alda/contract/first-paint';

describe('probes: /healthz and /readyz', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('/healthz answers 200 while the process runs', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it('/readyz answers 200 when the database runs `select 1`', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it('/readyz answers 503 SERVICE_UNAVAILABLE once the database is gone, while /healthz stays 200', async () => {
    await t.app.database.close();
    const res = await t.app.inject({
      method: 'GET',
      url: '/readyz',
      headers: { 'accept-language': 'en' },
    });
    expect(res.statusCode).toBe(503);
    expect(parse(errorEnvelope, res).error).toEqual({
      code: 'SERVICE_UNAVAILABLE',
      message: 'The service is not available right now. Please try again later.',
    });
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
  });
});

describe('security headers', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('sends a strict CSP the Vite SPA passes: own scripts only, own styles, data: images, same-origin WebSockets', async () => {
    // A page of the app (here the not-found answer outside /api: no web app in the tests).
    const res = await t.app.inject({
      method: 'GET',
      url: '/menu/nope',
      headers: { host: 'app.alda.fo' },
    });
    const csp = String(res.headers['content-security-policy']);
    const directives = Object.fromEntries(
      csp.split(';').map((d) => {
        const [name = '', ...values] = d.trim().split(/\s+/);
        return [name, values.join(' ')];
      }),
    );
    expect(directives['default-src']).toBe("'self'");
    // Our own scripts, and of inline scripts only the first-paint script (ADR 0072) and the one
    // that adds the app's scripts (issue 45), by their hashes.
    const firstPaintHash = createHash('sha256').update(FIRST_PAINT_SCRIPT).digest('base64');
    const entryHash = createHash('sha256').update(ENTRY_SCRIPT).digest('base64');
    expect(directives['script-src']).toBe(
      `'self' 'sha256-${firstPaintHash}' 'sha256-${entryHash}'`,
    );
    expect(directives['script-src-attr']).toBe("'none'");
    expect(directives['style-src']).toBe("'self' 'unsafe-inline'");
    expect(directives['img-src']).toBe("'self' data: blob:");
    expect(directives['connect-src']).toBe("'self' ws://app.alda.fo wss://app.alda.fo");
    expect(directives['object-src']).toBe("'none'");
    expect(directives['frame-ancestors']).toBe("'none'");
    expect(directives['base-uri']).toBe("'self'");
    expect(csp).not.toContain('unsafe-eval');
  });

  it('does not echo a hostile Host header into the CSP', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/menu/nope',
      headers: { host: 'evil.fo; script-src *' },
    });
    expect(String(res.headers['content-security-policy'])).toContain("connect-src 'self';");
  });

  it('issue 13: an API answer carries the headers that matter for JSON, and a CSP that loads and frames nothing', async () => {
    for (const url of ['/healthz', '/oauth/token', '/api/nope', '/api/status']) {
      const res = await t.app.inject({ method: 'GET', url, headers: { host: 'app.alda.fo' } });
      expect(res.headers['content-security-policy'], url).toBe(
        "default-src 'none'; frame-ancestors 'none'",
      );
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      expect(res.headers['x-frame-options'], url).toBe('DENY');
      expect(res.headers['strict-transport-security'], url).toMatch(/max-age=\d+/);
      expect(res.headers['referrer-policy'], url).toBe('strict-origin-when-cross-origin');
      expect(res.headers['cross-origin-resource-policy'], url).toBe('same-origin');
      // Document-only headers are left off the JSON answers.
      expect(res.headers['cross-origin-opener-policy'], url).toBeUndefined();
      expect(res.headers['x-dns-prefetch-control'], url).toBeUndefined();
    }
  });

  it('sends the usual hardening headers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/menu/nope' });
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(res.headers['strict-transport-security']).toMatch(/max-age=\d+/);
    expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
    expect(res.headers['x-powered-by']).toBeUndefined();
  });

  it('sends no CORS headers unless CORS_ORIGINS is set', async () => {
    const res = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/status',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('CORS when configured (native shell origins)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ CORS_ORIGINS: 'capacitor://localhost,https://localhost' });
  });
  afterAll(() => t.close());

  it('allows a listed origin and ignores others', async () => {
    const allowed = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/status',
      headers: { origin: 'capacitor://localhost', 'access-control-request-method': 'POST' },
    });
    expect(allowed.statusCode).toBe(204);
    expect(allowed.headers['access-control-allow-origin']).toBe('capacitor://localhost');
    expect(String(allowed.headers['access-control-allow-headers'])).toContain('authorization');
    // The native shell's platform header (MobilePay's app switch, issue 42).
    expect(String(allowed.headers['access-control-allow-headers'])).toContain('x-alda-platform');

    const other = await t.app.inject({
      method: 'GET',
      url: '/healthz',
      headers: { origin: 'https://evil.example' },
    });
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('rate limiting', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_MAX: '3' });
  });
  afterAll(() => t.close());

  it('answers 429 RATE_LIMITED with Retry-After past the limit (unknown paths included), and never limits the probes', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++)
      statuses.push((await t.app.inject({ method: 'GET', url: '/api/content/terms' })).statusCode);
    // Not seeded here, so 404 NOT_FOUND until the limiter steps in.
    expect(statuses).toEqual([404, 404, 404, 429]);

    const limited = await t.app.inject({
      method: 'GET',
      url: '/api/nope',
      headers: { 'accept-language': 'en' },
    });
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
    expect(parse(errorEnvelope, limited).error).toEqual({
      code: 'RATE_LIMITED',
      message: 'Too many attempts. Wait a moment and try again.',
    });

    for (let i = 0; i < 5; i++) {
      expect((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
      expect((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    }
  });
});

describe('OpenAPI 3.1 from the contract', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('serves /api/openapi.json with every API route and the contract schemas', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json() as {
      openapi: string;
      info: { version: string };
      paths: Record<
        string,
        Record<string, { requestBody?: unknown; responses: Record<string, unknown> }>
      >;
      components: { securitySchemes: Record<string, unknown> };
    };
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('3.0.0');
    // TMF635's read takes ids of up to 128 characters (the router's limit) and names it as TM Forum does.
    expect(
      (doc.paths['/tmf-api/usageManagement/v4/usage/{id}']?.get as { parameters?: unknown[] })
        ?.parameters,
    ).toEqual([expect.objectContaining({ in: 'path', name: 'id', required: true })]);
    expect(Object.keys(doc.paths).sort()).toEqual(
      [
        '/api/auth/change-password',
        '/api/auth/email-login',
        '/api/auth/enter-pin',
        '/api/auth/forgot-password',
        '/api/auth/free-numbers',
        '/api/auth/logout',
        '/api/auth/me',
        '/api/auth/refresh-token',
        '/api/auth/register',
        '/api/auth/request-pin',
        '/api/auth/reserved-numbers',
        '/api/auth/reset-password',
        '/api/auth/sessions',
        '/api/auth/sessions/{id}/sign-out',
        '/api/auth/sessions/sign-out-others',
        '/api/auth/sessions/confirmation-code',
        '/api/auth/passkeys',
        '/api/auth/passkeys/options',
        '/api/auth/passkeys/{id}',
        '/api/auth/passkeys/{id}/delete',
        '/api/auth/passkey-login/options',
        '/api/auth/passkey-login',
        '/api/content/{slug}',
        '/api/data-exports/{id}/download',
        '/api/hubs/payment/negotiate',
        '/api/actions',
        '/api/agreements',
        '/api/orders',
        '/api/orders/{id}',
        '/api/orders/{id}/confirm-sim',
        '/api/orders/{id}/porting',
        '/api/orders/{id}/withdraw',
        '/api/sim-pickup-locations',
        '/api/packages',
        '/api/packages/{id}',
        '/api/package-requests',
        '/api/package-requests/{id}',
        '/api/package-requests/{id}/approve',
        '/api/top-ups',
        '/api/top-ups/options',
        '/api/billing/monthly-price',
        '/api/billing/pay',
        '/api/receipts',
        '/api/receipts/{id}',
        '/api/receipts/{id}/pdf',
        '/api/receipts/{id}/email',
        '/api/receipts/{id}/pdf-link',
        '/api/push/device',
        '/api/receipt-files/{id}',
        '/api/bills',
        '/api/bills/{id}',
        '/api/bills/{id}/usage',
        '/api/bills/{id}/pdf',
        '/api/bills/{id}/pdf-link',
        '/api/bills/{id}/email',
        '/api/bill-files/{id}',
        '/api/payments/methods',
        '/api/payments/webhooks/{provider}',
        '/api/plans',
        '/api/plans/{id}',
        '/api/profile/data-exports',
        '/api/subscriptions',
        '/api/subscriptions/family-account-exists',
        '/api/subscriptions/{id}',
        '/api/subscriptions/{id}/phone-book',
        '/api/subscriptions/{id}/sim',
        '/api/subscriptions/{id}/sim/replacement',
        '/api/subscriptions/{id}/sim/secrets',
        '/api/subscriptions/{id}/protection',
        '/api/subscriptions/{id}/protection/lock',
        '/api/subscriptions/{id}/protection/unlock',
        '/api/subscriptions/{id}/roaming-cap',
        '/api/subscriptions/{id}/port-out-code',
        '/api/number-unlocks/cancel',
        '/api/subscriptions/{id}/usage-history',
        '/api/subscriptions/{id}/controls',
        '/api/subscriptions/deactivate-plan/{id}',
        '/api/subscriptions/delete-number/{id}',
        '/api/subscriptions/transfer-subscription-to-new-account/{id}',
        '/api/subscriptions/transfer-subscription-to-family-account/{id}',
        '/api/subscriptions/transfer-subscription-to-user-customer',
        '/api/line-handovers',
        '/api/line-handovers/{id}',
        '/api/line-handovers/{id}/accept',
        '/api/usage/records',
        // The charging system's rated usage on TM Forum TMF635 (issue 43, ADR 0083).
        '/tmf-api/usageManagement/v4/usage',
        '/tmf-api/usageManagement/v4/usage/{id}',
        // The monthly bills for the finance system on TM Forum TMF678 (ADR 0098).
        '/tmf-api/customerBillManagement/v4/customerBill',
        '/tmf-api/customerBillManagement/v4/customerBill/{id}',
        '/tmf-api/customerBillManagement/v4/appliedCustomerBillingRate',
        '/tmf-api/customerBillManagement/v4/appliedCustomerBillingRate/{id}',
        '/camara/sim-swap/v2/check',
        '/camara/sim-swap/v2/retrieve-date',
        '/api/data-transfers',
        '/api/data-transfers/{id}',
        '/api/data-transfers/{id}/approve',
        '/api/notification-settings',
        '/api/notifications',
        '/api/notifications/mark-all-as-read',
        '/api/notifications/{id}/mark-as-read',
        '/api/status',
        '/healthz',
        '/oauth/token',
        '/readyz',
        // The staff console's API (issue 31, ADR 0075).
        '/api/staff/accounts',
        '/api/staff/accounts/{id}',
        '/api/staff/accounts/{id}/reenrol',
        '/api/staff/accounts/{id}/passkeys',
        '/api/staff/accounts/{id}/passkeys/{passkeyId}/revoke',
        '/api/staff/auth/passkey-options',
        '/api/staff/passkeys',
        '/api/staff/passkeys/options',
        '/api/staff/passkeys/{id}',
        '/api/staff/role-policies',
        '/api/staff/role-policies/{role}',
        '/api/staff/audit',
        '/api/staff/audit.csv',
        '/api/staff/auth/me',
        '/api/staff/auth/sign-in',
        '/api/staff/auth/sign-out',
        '/api/staff/auth/sign-out-everywhere',
        '/api/staff/content/{slug}/versions',
        '/api/staff/content/{slug}/versions/{id}',
        '/api/staff/content/{slug}/versions/{id}/publish',
        '/api/staff/customers',
        '/api/staff/customers/{id}',
        '/api/staff/customers/{id}/bills',
        '/api/staff/bills/{id}',
        '/api/staff/bills/{id}/resend',
        '/api/staff/customers/{id}/access',
        '/api/staff/customers/{id}/messages/{messageId}/resend',
        '/api/staff/customers/{id}/sign-out-everywhere',
        '/api/staff/numbers',
        '/api/staff/numbers/{msisdn}/release',
        '/api/staff/orders',
        '/api/staff/orders/{id}',
        '/api/staff/orders/{id}/advance',
        '/api/staff/orders/{id}/complete',
        '/api/staff/orders/{id}/fail',
        '/api/staff/orders/{id}/retry',
        '/api/staff/partners',
        '/api/staff/partners/{clientId}/disable',
        '/api/staff/orders/{id}/port-correction',
        '/api/staff/payments',
        '/api/staff/payments/{id}',
        '/api/staff/payments/{id}/refunds',
        '/api/staff/status-messages',
        '/api/staff/status-messages/{id}/end',
        // Support conversations, the customer's and the desk's (issue 46, ADR 0088).
        '/api/hubs/support/negotiate',
        '/api/support/attachments',
        '/api/support/attachments/{id}',
        '/api/support/conversations',
        '/api/support/conversations/{id}',
        '/api/support/conversations/{id}/close',
        '/api/support/conversations/{id}/messages',
        '/api/support/conversations/{id}/rating',
        '/api/support/conversations/{id}/read',
        '/api/staff/support/conversations',
        '/api/staff/support/conversations/{id}',
        '/api/staff/support/conversations/{id}/assign',
        '/api/staff/support/attachments/{id}',
        '/api/staff/support/conversations/{id}/close',
        '/api/staff/support/conversations/{id}/context',
        '/api/staff/support/desk',
        '/api/staff/support/conversations/{id}/messages',
        '/api/staff/support/saved-replies',
        '/api/staff/support/saved-replies/{id}',
      ].sort(),
    );
    const status = doc.paths['/api/status']?.post;
    const body = JSON.stringify(status?.requestBody);
    expect(body).toContain('currentVersion');
    expect(body).toContain('deviceMeta');
    expect(body).toContain('"android"');
    expect(JSON.stringify(status?.responses['200'])).toContain('mustUpgrade');
    expect(JSON.stringify(status?.responses['400'])).toContain('VALIDATION_FAILED');
    expect(JSON.stringify(doc.paths['/api/content/{slug}']?.get)).toContain('"privacy"');
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({
      type: 'http',
      scheme: 'bearer',
    });
  });

  it('serves Swagger UI at /api/docs', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.body).toContain('swagger-ui');
  });
});
