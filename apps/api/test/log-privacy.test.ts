import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { urlWithoutCallbackSecret, urlWithoutQueryValues } from '../src/log-privacy';
import { users } from '../src/db/schema/users';
import { createTestApp, LogCapture, type TestApp } from './helper';

/*
 * Issue 14: no log line carries a request value that identifies a person. A query that fails on
 * the customer's data is logged with its SQL (placeholders), SQLSTATE, constraint and table —
 * not with its parameters, the value the driver quotes or the row of a unique violation; a
 * URL's query is logged with its keys only.
 */
const PERSON = 'log.person@alda.test';
const PHONE = '219999';
/**
 * The number as a value of its own, not digits inside another number: a log line's
 * `responseTime` such as 18.0500219999999 holds the same six digits by chance (it failed CI once).
 */
const PHONE_AS_VALUE = new RegExp(`(?<![\\d.])${PHONE}(?!\\d)`);

describe('logs without personal data (issue 14, SPEC §8 errors)', () => {
  let t: TestApp;
  const logs = new LogCapture();
  const logged = () => logs.lines.map((line) => JSON.stringify(line)).join('\n');

  beforeAll(async () => {
    t = await createTestApp({ LOG_LEVEL: 'info' }, { logStream: logs });
    // Queries that fail on what a customer sent, the way real code fails.
    t.app.get('/api/test/cast', async () => {
      await t.app.db.execute(sql`select ${PERSON}::uuid`);
      return { data: null };
    });
    t.app.get('/api/test/duplicate', async () => {
      const row = {
        email: PERSON,
        passwordHash: 'x',
        firstname: 'Log',
        lastname: 'Person',
        phoneNumber: PHONE,
      } as typeof users.$inferInsert;
      await t.app.db.insert(users).values(row);
      await t.app.db.insert(users).values(row);
      return { data: null };
    });
  });
  afterAll(() => t.close());

  it('logs a failed query by its SQL and SQLSTATE, not by the value it failed on', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/test/cast' });
    expect(res.statusCode).toBe(500);
    const line = logs.lines.find((entry) => entry.msg === 'request failed');
    expect(line).toBeDefined();
    const text = JSON.stringify(line);
    expect(text).toContain('select $1::uuid');
    expect(text).toContain('22P02'); // invalid_text_representation
    expect(text).not.toContain(PERSON);
  });

  it('logs a unique violation by its constraint, not by the row', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/test/duplicate' });
    expect(res.statusCode).toBe(500);
    const text = logged();
    expect(text).toContain('23505'); // unique_violation
    expect(text).not.toContain(PERSON);
    expect(text).not.toMatch(PHONE_AS_VALUE);
  });

  it('logs a URL with the keys of its query, not the values', async () => {
    await t.app.inject({
      method: 'GET',
      url: `/api/receipt-files/x?signature=SECRET123&lang=fo&email=${PERSON}`,
    });
    const text = logged();
    expect(text).toContain('/api/receipt-files/x?signature=…&lang=…&email=…');
    expect(text).not.toContain('SECRET123');
    expect(text).not.toContain(PERSON);
  });

  it('urlWithoutQueryValues keeps the path and the keys', () => {
    expect(urlWithoutQueryValues('/api/receipts')).toBe('/api/receipts');
    expect(urlWithoutQueryValues('/api/receipts?page=2&perPage=10#x')).toBe(
      '/api/receipts?page=…&perPage=…#x',
    );
    expect(urlWithoutQueryValues('/a?flag&b=')).toBe('/a?flag&b=…');
  });

  it('issue 61 §4: logs the TMF641 callback with its secret segment masked, on a route or not', async () => {
    const segment = createHash('sha256').update('log-privacy').digest('hex');
    const masked = `[secret ${createHash('sha256').update(segment).digest('hex').slice(0, 8)}]`;
    const base = '/tmf-api/listener/serviceOrdering/v4/';
    expect(urlWithoutCallbackSecret(`${base}${segment}/listener/x?a=1`)).toBe(
      `${base}${masked}/listener/x?a=1`,
    );
    expect(urlWithoutCallbackSecret(`https://alda.test${base}${segment}`)).toBe(
      `https://alda.test${base}${masked}`,
    );
    // Upper case is the same secret to whoever reads it (and masked by its own hash).
    expect(urlWithoutCallbackSecret(`${base}${segment.toUpperCase()}`)).not.toContain(
      segment.toUpperCase(),
    );
    // Not the bearer path, nor any other path.
    expect(urlWithoutCallbackSecret(`${base}listener/x`)).toBe(`${base}listener/x`);
    expect(urlWithoutCallbackSecret(`/api/x/${segment}`)).toBe(`/api/x/${segment}`);

    // The request's log line, where no route matched (404) as where one did.
    await t.app.inject({ method: 'POST', url: `${base}${segment}/listener/unknownEvent?q=1` });
    const text = logged();
    expect(text).not.toContain(segment);
    expect(text).toContain(`${base}${masked}/listener/unknownEvent?q=…`);
  });
});
