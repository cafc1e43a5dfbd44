import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataEnvelope, errorEnvelope } from '@alda/contract/envelope';
import { outboxList } from '@alda/contract/schemas/dev-outbox';
import { createHttpSmsGateway } from '../src/adapters/sms/http-gateway';
import { SmsDeliveryError } from '../src/adapters/sms/sms-sender';
import { seedDemoData } from '../src/seed/seed';
import { insertOutboxMessage } from '../src/adapters/outbox/store';
import { createTestApp, parse, type TestApp } from './helper';

interface GatewayCall {
  authorization: string | undefined;
  contentType: string | undefined;
  body: { to: string; from: string; text: string };
}

/** A fake SMS provider: records calls and answers with the status the test sets. */
function fakeGateway() {
  const calls: GatewayCall[] = [];
  const state = { status: 202, hang: false };
  const server: Server = createServer((request: IncomingMessage, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      calls.push({
        authorization: request.headers.authorization,
        contentType: request.headers['content-type'],
        body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as GatewayCall['body'],
      });
      if (state.hang) return;
      response.writeHead(state.status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(state.status < 300 ? { id: 'msg-1' } : { error: 'down' }));
    });
  });
  return {
    calls,
    state,
    async start(): Promise<string> {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/sms`;
    },
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('dev outbox pages (demo mode only; ARCHITECTURE "Real parts")', () => {
  let demo: TestApp;
  let plain: TestApp;

  beforeAll(async () => {
    [demo, plain] = await Promise.all([createTestApp({ DEMO_MODE: 'true' }), createTestApp()]);
    const db = demo.app.db;
    await insertOutboxMessage(db, {
      channel: 'sms',
      recipient: '298214455',
      text: 'Kotan hjá tær til Alda er 123456.',
      createdAt: new Date('2026-03-01T10:00:00Z'),
    });
    await insertOutboxMessage(db, {
      channel: 'email',
      recipient: 'gudrun@demo.alda.fo',
      subject: 'Set a new password for Alda',
      text: 'Open https://minsida.alda.fo/nytt-loyniord?token=abc_DEF-1 <script>alert(1)</script>',
      html: '<p>html</p>',
      createdAt: new Date('2026-03-01T10:05:00Z'),
    });
  });
  afterAll(() => Promise.all([demo.close(), plain.close()]));

  it('answers 404 when DEMO_MODE is off', async () => {
    for (const url of ['/dev/outbox', '/dev/outbox.json']) {
      const res = await plain.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(parse(errorEnvelope, res).error.code).toBe('ROUTE_NOT_FOUND');
    }
  });

  it('lists messages as JSON, newest first, filtered by recipient (e-mail in any case, 298xxxxxx or 6 digits)', async () => {
    const all = parse(
      dataEnvelope(outboxList),
      await demo.app.inject({ method: 'GET', url: '/dev/outbox.json' }),
    );
    expect(all.data.map((m) => m.channel)).toEqual(['email', 'sms']);
    expect(all.data[0]).toMatchObject({
      to: 'gudrun@demo.alda.fo',
      subject: 'Set a new password for Alda',
      html: '<p>html</p>',
      createdAt: '2026-03-01T10:05:00.000Z',
    });
    for (const to of ['298214455', '214455', '+298214455']) {
      const res = await demo.app.inject({
        method: 'GET',
        url: `/dev/outbox.json?to=${encodeURIComponent(to)}`,
      });
      expect(
        parse(dataEnvelope(outboxList), res).data.map((m) => m.to),
        to,
      ).toEqual(['298214455']);
    }
    const byMail = await demo.app.inject({
      method: 'GET',
      url: '/dev/outbox.json?to=GUDRUN@demo.alda.fo',
    });
    expect(parse(dataEnvelope(outboxList), byMail).data).toHaveLength(1);
    expect(byMail.headers['cache-control']).toBe('no-store');
  });

  it('shows an HTML page with clickable links that passes the CSP: no script, everything escaped', async () => {
    const res = await demo.app.inject({ method: 'GET', url: '/dev/outbox' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    expect(res.body).not.toMatch(/<script/i);
    expect(res.body).not.toMatch(/\son[a-z]+=/i);
    expect(res.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(res.body).toContain(
      '<a href="https://minsida.alda.fo/nytt-loyniord?token=abc_DEF-1">https://minsida.alda.fo/nytt-loyniord?token=abc_DEF-1</a>',
    );
    expect(res.body.indexOf('gudrun@demo.alda.fo')).toBeLessThan(res.body.indexOf('298214455'));
  });
});

describe('HTTP SMS gateway adapter (SMS_GATEWAY_URL)', () => {
  const gateway = fakeGateway();
  let t: TestApp;

  beforeAll(async () => {
    const url = await gateway.start();
    t = await createTestApp({
      SMS_GATEWAY_URL: url,
      SMS_GATEWAY_TOKEN: 'gateway-secret',
      SMS_SENDER: 'AldaTest',
    });
    await seedDemoData(t.app.db);
  });
  afterAll(async () => {
    await t.close();
    await gateway.stop();
  });

  const requestPin = () =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/request-pin',
      headers: { 'accept-language': 'en' },
      payload: { phoneNumber: '214455' },
    });

  it('POSTs {to: 298xxxxxx, from, text} as JSON with the bearer token; the code then signs in', async () => {
    gateway.state.status = 202;
    const res = await requestPin();
    expect(res.statusCode).toBe(200);
    const call = gateway.calls.at(-1);
    expect(call?.authorization).toBe('Bearer gateway-secret');
    expect(call?.contentType).toBe('application/json');
    expect(call?.body).toMatchObject({ to: '298214455', from: 'AldaTest' });
    const code = /\b(\d{6})\b/.exec(call?.body.text ?? '')?.[1];
    const signedIn = await t.app.inject({
      method: 'POST',
      url: '/api/auth/enter-pin',
      payload: { phoneNumber: '214455', password: code },
    });
    expect(signedIn.statusCode).toBe(200);
  });

  it('answers 503 SMS_NOT_SENT when the gateway fails, and lets the customer try again at once', async () => {
    gateway.state.status = 500;
    const res = await requestPin();
    expect(res.statusCode).toBe(503);
    expect(parse(errorEnvelope, res).error).toEqual({
      code: 'SMS_NOT_SENT',
      message: 'We could not send the text message. Please try again later.',
    });
    gateway.state.status = 200;
    // The failed code was withdrawn, so there is no resend countdown to wait for.
    expect((await requestPin()).statusCode).toBe(200);
  });

  it('maps gateway answers to temporary or permanent errors and gives up after its timeout', async () => {
    const url = t.config.smsGatewayUrl ?? '';
    const adapter = createHttpSmsGateway({ url, token: 'x', sender: 'Alda', timeoutMs: 200 });
    gateway.state.status = 401;
    const unauthorized = await adapter.send({ to: '214455', text: 'x' }).catch((e: unknown) => e);
    expect(unauthorized).toBeInstanceOf(SmsDeliveryError);
    expect(unauthorized).toMatchObject({ permanent: true, status: 401 });
    gateway.state.status = 503;
    expect(await adapter.send({ to: '214455', text: 'x' }).catch((e: unknown) => e)).toMatchObject({
      permanent: false,
      status: 503,
    });
    gateway.state.hang = true;
    const started = Date.now();
    const timedOut = await adapter.send({ to: '214455', text: 'x' }).catch((e: unknown) => e);
    gateway.state.hang = false;
    expect(timedOut).toBeInstanceOf(SmsDeliveryError);
    expect((timedOut as Error).message).toMatch(/did not answer within 200 ms/);
    expect(Date.now() - started).toBeLessThan(2_000);
    const unreachable = createHttpSmsGateway({
      url: 'http://127.0.0.1:9/',
      token: undefined,
      sender: 'Alda',
    });
    expect(
      await unreachable.send({ to: '214455', text: 'x' }).catch((e: unknown) => e),
    ).toMatchObject({
      message: 'SMS gateway unreachable',
      permanent: false,
    });
  });
});
