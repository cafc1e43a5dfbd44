import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES, ERROR_STATUS } from '@alda/contract/errors';
import { errorEnvelope } from '@alda/contract/envelope';
import { hasErrorMessage } from '../src/i18n';
import { createTestApp, LogCapture, parse, type TestApp } from './helper';

const validStatusBody = {
  currentVersion: '3.0.0',
  deviceMeta: {
    name: 'Test',
    platform: 'ios',
    osVersion: '17.4',
    model: 'iPhone15,2',
    isVirtual: false,
  },
};

describe('error envelope (ARCHITECTURE "Conventions", SPEC §8)', () => {
  let t: TestApp;
  const logs = new LogCapture();

  beforeAll(async () => {
    t = await createTestApp({ LOG_LEVEL: 'info' }, { logStream: logs });
    // Routes that fail the way real code fails: a bug and a broken query.
    t.app.get('/api/test/boom', async () => {
      throw new Error('secret internals: password=hunter2');
    });
    t.app.get('/api/test/bad-sql', async () => {
      await t.app.db.execute(sql`select * from table_that_does_not_exist`);
      return { data: null };
    });
  });
  afterAll(() => t.close());

  it('has a Faroese and an English message for every contract error code', () => {
    for (const code of ERROR_CODES) {
      expect(hasErrorMessage(code, 'fo'), `fo message for ${code}`).toBe(true);
      expect(hasErrorMessage(code, 'en'), `en message for ${code}`).toBe(true);
    }
  });

  it('answers an unknown /api route with 404 ROUTE_NOT_FOUND in Faroese by default (SPEC §1)', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/does-not-exist' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(parse(errorEnvelope, res)).toEqual({
      error: { code: 'ROUTE_NOT_FOUND', message: 'Hendan síðan er ikki til.' },
    });
  });

  it('localizes the message by Accept-Language: English when preferred, Faroese otherwise', async () => {
    const en = await t.app.inject({
      method: 'POST',
      url: '/api/nope',
      headers: { 'accept-language': 'en-GB,en;q=0.9' },
    });
    expect(parse(errorEnvelope, en).error.message).toBe('This page does not exist.');
    const da = await t.app.inject({
      method: 'POST',
      url: '/api/nope',
      headers: { 'accept-language': 'da, de;q=0.8' },
    });
    expect(parse(errorEnvelope, da).error.message).toBe('Hendan síðan er ikki til.');
  });

  it('names the failing field of a validation error with a localized SPEC §5 message', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/status',
      headers: { 'accept-language': 'en' },
      payload: {
        ...validStatusBody,
        deviceMeta: { ...validStatusBody.deviceMeta, platform: 'symbian' },
      },
    });
    expect(res.statusCode).toBe(400);
    expect(parse(errorEnvelope, res).error).toEqual({
      code: 'VALIDATION_FAILED',
      field: 'deviceMeta.platform',
      message: 'This value is not valid.',
    });
  });

  it("reports a missing field as 'This is a required field' (SPEC §5), in Faroese by default", async () => {
    const fo = await t.app.inject({
      method: 'POST',
      url: '/api/auth/email-login',
      payload: { password: 'x' },
    });
    expect(parse(errorEnvelope, fo).error).toEqual({
      code: 'VALIDATION_FAILED',
      field: 'email',
      message: 'Hetta er eitt kravt felt',
    });
    const en = await t.app.inject({
      method: 'POST',
      url: '/api/auth/email-login',
      headers: { 'accept-language': 'en' },
      payload: { email: '   ', password: 'x' },
    });
    expect(parse(errorEnvelope, en).error).toEqual({
      code: 'VALIDATION_FAILED',
      field: 'email',
      message: 'This is a required field',
    });
  });

  it('names the part of the request when the whole body is wrong', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/status',
      headers: { 'content-type': 'application/json' },
      payload: '[1,2]',
    });
    expect(res.statusCode).toBe(400);
    expect(parse(errorEnvelope, res).error).toMatchObject({
      code: 'VALIDATION_FAILED',
      field: 'body',
    });
  });

  it('answers malformed JSON with 400 BAD_REQUEST', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/status',
      headers: { 'content-type': 'application/json', 'accept-language': 'en' },
      payload: '{"currentVersion": ',
    });
    expect(res.statusCode).toBe(400);
    expect(parse(errorEnvelope, res).error).toEqual({
      code: 'BAD_REQUEST',
      message: 'The request could not be read.',
    });
  });

  it('answers a body over the limit with 413 PAYLOAD_TOO_LARGE', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/status',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ ...validStatusBody, padding: 'x'.repeat(300 * 1024) }),
    });
    expect(res.statusCode).toBe(413);
    expect(parse(errorEnvelope, res).error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('answers an unsupported content type with 415 UNSUPPORTED_MEDIA_TYPE', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/status',
      headers: { 'content-type': 'application/xml' },
      payload: '<status/>',
    });
    expect(res.statusCode).toBe(415);
    expect(parse(errorEnvelope, res).error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('never leaks internals of a 500, and logs them with the request id', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/test/boom',
      headers: { 'x-request-id': 'req-boom-1' },
    });
    expect(res.statusCode).toBe(500);
    expect(parse(errorEnvelope, res)).toEqual({
      error: { code: 'INTERNAL', message: 'Ein villa hendi. Royn aftur seinni.' },
    });
    expect(res.body).not.toContain('hunter2');
    expect(res.body).not.toContain('stack');
    const logged = logs.lines.find((line) => line.reqId === 'req-boom-1' && line.level === 50);
    expect(logged).toBeDefined();
    expect(JSON.stringify(logged)).toContain('secret internals');
  });

  it('never leaks database errors either', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/test/bad-sql',
      headers: { 'accept-language': 'en' },
    });
    expect(res.statusCode).toBe(500);
    expect(parse(errorEnvelope, res).error).toEqual({
      code: 'INTERNAL',
      message: 'An error occurred. Please try again later.',
    });
    expect(res.body).not.toMatch(/table_that_does_not_exist|relation|select/i);
  });

  it('uses the status of each code as the contract defines it', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/auth/me' });
    expect(res.statusCode).toBe(ERROR_STATUS.UNAUTHORIZED);
    expect(parse(errorEnvelope, res).error.code).toBe('UNAUTHORIZED');
  });
});

describe('request ids (structured logs)', () => {
  let t: TestApp;
  const logs = new LogCapture();
  beforeAll(async () => {
    t = await createTestApp({ LOG_LEVEL: 'info' }, { logStream: logs });
  });
  afterAll(() => t.close());

  it('echoes a well-formed x-request-id and logs the request under it', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/healthz',
      headers: { 'x-request-id': 'lb-1234.abc' },
    });
    expect(res.headers['x-request-id']).toBe('lb-1234.abc');
    await t.app.inject({ method: 'GET', url: '/api/nope', headers: { 'x-request-id': 'lb-5678' } });
    expect(logs.lines.some((line) => line.reqId === 'lb-5678')).toBe(true);
  });

  it('issue 13: writes one line per completed request, and the lines a route writes, under the request id', async () => {
    await t.app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'probe-1' } });
    const check = (id: string, currentVersion: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/status',
        headers: { 'x-request-id': id },
        payload: {
          currentVersion,
          deviceMeta: { platform: 'web', osVersion: '1', model: 'Chromium', isVirtual: false },
        },
      });
    expect((await check('status-1', '3.0.0')).statusCode).toBe(200);
    const completed = logs.lines.filter((line) => line.reqId === 'status-1');
    expect(completed).toEqual([
      expect.objectContaining({
        level: 30,
        msg: 'request completed',
        req: expect.objectContaining({ method: 'POST', url: '/api/status' }),
        res: { statusCode: 200 },
        responseTime: expect.any(Number),
      }),
    ]);
    // Probes are not logged (they are polled every few seconds).
    expect(logs.lines.some((line) => line.reqId === 'probe-1')).toBe(false);

    // A route's own line (the error handler's "request rejected") carries the id too.
    expect((await check('status-2', 'nine')).statusCode).toBe(400);
    const rejected = logs.lines.filter((line) => line.reqId === 'status-2');
    expect(rejected.map((line) => line.msg)).toEqual(['request rejected', 'request completed']);
    expect(rejected[0]).toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it('replaces a missing or unsafe x-request-id with a generated UUID', async () => {
    const missing = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(missing.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const unsafe = await t.app.inject({
      method: 'GET',
      url: '/healthz',
      headers: { 'x-request-id': 'a b\n"c"' },
    });
    expect(unsafe.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('keeps bearer tokens out of the logs', async () => {
    await t.app.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: { authorization: 'Bearer very-secret-token' },
    });
    expect(JSON.stringify(logs.lines)).not.toContain('very-secret-token');
  });
});
