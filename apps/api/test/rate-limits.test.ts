import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { dataEnvelope, errorEnvelope } from '@alda/contract/envelope';
import { outboxList } from '@alda/contract/schemas/dev-outbox';
import { DEMO_PASSWORD } from '../src/seed/demo-users';
import { rateLimitCounters } from '../src/db/schema/rate-limits';
import { seedDemoData } from '../src/seed/seed';
import { POLICIES } from '../src/modules/rate-limits/policies';
import { secondsUntilAllowed } from '../src/modules/rate-limits/service';
import { createTestApps, demoUser, parse, type TestApps, testClock } from './helper';

const jóannes = demoUser('Jóannes');
const sunneva = demoUser('Sunneva');
const guðrun = demoUser('Guðrun');

describe('security rate limits in the database, across two API instances (docs/decisions/0021)', () => {
  let apps: TestApps;
  let a: FastifyInstance;
  let b: FastifyInstance;
  const clock = testClock();

  beforeAll(async () => {
    apps = await createTestApps(2, { DEMO_MODE: 'true' }, { now: clock.now });
    [a, b] = apps.apps as [FastifyInstance, FastifyInstance];
    await seedDemoData(a.db, clock.now());
  });
  afterAll(() => apps.close());
  // Every test starts after all earlier windows have passed.
  beforeEach(() => clock.advance(3600));

  const login = (app: FastifyInstance, email: string, password: string, ip: string) =>
    app.inject({
      method: 'POST',
      url: '/api/auth/email-login',
      remoteAddress: ip,
      headers: { 'accept-language': 'en' },
      payload: { email, password },
    });
  const codeOf = async (app: FastifyInstance, phoneNumber: string, ip: string) => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/auth/request-pin',
      remoteAddress: ip,
      payload: { phoneNumber },
    });
    expect(res.statusCode).toBe(200);
    const list = await app.inject({ method: 'GET', url: `/dev/outbox.json?to=298${phoneNumber}` });
    return /\b(\d{6})\b/.exec(parse(dataEnvelope(outboxList), list).data[0]?.text ?? '')?.[1] ?? '';
  };
  const enterPin = (app: FastifyInstance, phoneNumber: string, code: string, ip: string) =>
    app.inject({
      method: 'POST',
      url: '/api/auth/enter-pin',
      remoteAddress: ip,
      payload: { phoneNumber, password: code },
    });
  const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

  it('stops password guessing from one address after 5 failures, counted on both instances (429 TOO_MANY_ATTEMPTS)', async () => {
    const ip = '203.0.113.10';
    for (const app of [a, b, a, b, a]) {
      expect((await login(app, jóannes.email, 'Skeivt1234!', ip)).statusCode).toBe(401);
    }
    for (const app of [b, a]) {
      // Even the right password is refused while the limit holds: the lock tells nothing.
      const res = await login(app, jóannes.email, DEMO_PASSWORD, ip);
      expect(res.statusCode).toBe(429);
      const { error } = parse(errorEnvelope, res);
      expect(error).toMatchObject({
        code: 'TOO_MANY_ATTEMPTS',
        message: 'Too many attempts. For your security, wait a few minutes and try again.',
      });
      expect(error.retryAfter).toBeGreaterThan(0);
      expect(error.retryAfter).toBeLessThanOrEqual(30 * 60);
      expect(res.headers['retry-after']).toBe(String(error.retryAfter));
    }
    // The customer on another address is not locked out by it.
    expect((await login(b, jóannes.email, DEMO_PASSWORD, '198.51.100.7')).statusCode).toBe(200);
  });

  it('heals on its own: the sliding 15-minute window lets the address try again', async () => {
    const ip = '203.0.113.11';
    for (let i = 0; i < 5; i += 1) await login(a, sunneva.email, 'Skeivt1234!', ip);
    const locked = parse(errorEnvelope, await login(b, sunneva.email, DEMO_PASSWORD, ip)).error;
    expect(locked.code).toBe('TOO_MANY_ATTEMPTS');
    clock.advance(locked.retryAfter ?? 0);
    expect((await login(b, sunneva.email, DEMO_PASSWORD, ip)).statusCode).toBe(200);
  });

  it('forgives failures once the password is right: a success clears the count of that address', async () => {
    const ip = '203.0.113.12';
    for (let i = 0; i < 4; i += 1) await login(a, guðrun.email, 'Skeivt1234!', ip);
    expect((await login(b, guðrun.email, DEMO_PASSWORD, ip)).statusCode).toBe(200);
    for (let i = 0; i < 4; i += 1) {
      expect((await login(a, guðrun.email, 'Skeivt1234!', ip)).statusCode).toBe(401);
    }
    expect((await login(b, guðrun.email, DEMO_PASSWORD, ip)).statusCode).toBe(200);
  });

  it('limits one account to 20 failures from any number of addresses, higher than per address', async () => {
    for (let i = 0; i < 20; i += 1) {
      const res = await login(
        i % 2 ? a : b,
        guðrun.email,
        'Skeivt1234!',
        `198.18.0.${Math.floor(i / 4)}`,
      );
      expect(res.statusCode, `failure ${i + 1}`).toBe(401);
    }
    const res = await login(a, guðrun.email, DEMO_PASSWORD, '198.18.1.1');
    expect(parse(errorEnvelope, res).error.code).toBe('TOO_MANY_ATTEMPTS');
    // Phone login has its own counters, so the owner still gets in.
    const code = await codeOf(b, guðrun.phoneNumber, '198.18.1.1');
    expect((await enterPin(a, guðrun.phoneNumber, code, '198.18.1.1')).statusCode).toBe(200);
  });

  it('counts unknown addresses like known ones, so the limit reveals no accounts', async () => {
    const ip = '203.0.113.13';
    for (let i = 0; i < 5; i += 1) {
      expect((await login(a, 'ingen@example.fo', 'Skeivt1234!', ip)).statusCode).toBe(401);
    }
    expect(parse(errorEnvelope, await login(b, 'ingen@example.fo', 'x', ip)).error.code).toBe(
      'TOO_MANY_ATTEMPTS',
    );
  });

  it('kills a code after 5 tries made on either instance', async () => {
    const ip = '203.0.113.14';
    const code = await codeOf(a, jóannes.phoneNumber, ip);
    const outcomes: string[] = [];
    for (const app of [a, b, a, b, a]) {
      outcomes.push(
        parse(errorEnvelope, await enterPin(app, jóannes.phoneNumber, wrong(code), ip)).error.code,
      );
    }
    expect(outcomes).toEqual([
      'INVALID_PIN',
      'INVALID_PIN',
      'INVALID_PIN',
      'INVALID_PIN',
      'PIN_EXPIRED',
    ]);
    expect((await enterPin(b, jóannes.phoneNumber, code, ip)).statusCode).toBe(410);
  });

  it('limits wrong codes per number across codes: 10 in 15 minutes, then even a fresh code waits', async () => {
    for (let round = 0; round < 2; round += 1) {
      const code = await codeOf(round ? b : a, sunneva.phoneNumber, `198.19.0.${round}`);
      for (let i = 0; i < 5; i += 1) {
        await enterPin(i % 2 ? a : b, sunneva.phoneNumber, wrong(code), `198.19.${round}.${i}`);
      }
      clock.advance(61);
    }
    const fresh = await codeOf(a, sunneva.phoneNumber, '198.19.9.9');
    const res = await enterPin(b, sunneva.phoneNumber, fresh, '198.19.9.9');
    expect(res.statusCode).toBe(429);
    expect(parse(errorEnvelope, res).error.code).toBe('TOO_MANY_ATTEMPTS');
  });

  it('limits code requests per number and per address, registered numbers or not (enumeration, ADR 0022)', async () => {
    for (let i = 0; i < 5; i += 1) {
      clock.advance(61);
      await codeOf(i % 2 ? a : b, guðrun.phoneNumber, `198.20.0.${i}`);
    }
    clock.advance(61);
    const sixth = await a.inject({
      method: 'POST',
      url: '/api/auth/request-pin',
      remoteAddress: '198.20.1.1',
      payload: { phoneNumber: guðrun.phoneNumber },
    });
    expect(parse(errorEnvelope, sixth).error.code).toBe('TOO_MANY_ATTEMPTS');

    const ip = '198.20.2.2';
    const codes: number[] = [];
    for (let i = 0; i < 31; i += 1) {
      const res = await (i % 2 ? a : b).inject({
        method: 'POST',
        url: '/api/auth/request-pin',
        remoteAddress: ip,
        payload: { phoneNumber: String(290000 + i) },
      });
      codes.push(res.statusCode);
    }
    expect(codes.slice(0, 30).every((s) => s === 404)).toBe(true);
    expect(codes[30]).toBe(429);
  });

  it('keeps no e-mail addresses, numbers or IPs in clear in the counters', async () => {
    const rows = await a.db.select({ key: rateLimitCounters.key }).from(rateLimitCounters);
    expect(rows.length).toBeGreaterThan(0);
    const all = rows.map((r) => r.key).join('\n');
    for (const secret of [jóannes.email, '203.0.113', guðrun.phoneNumber]) {
      expect(all).not.toContain(secret);
    }
    for (const { key } of rows) expect(key).toMatch(/^[a-z+:-]+:[A-Za-z0-9_-]{32}$/);
  });
});

describe('sliding-window arithmetic', () => {
  const policy = { name: 'test', limit: 5, windowS: 900 };

  it('waits until the estimate leaves room for one more attempt', () => {
    // 5 in this window: the next window starts in 900 − 60 s, and then 5 × (1 − e/900) ≤ 4 needs e ≥ 180.
    expect(secondsUntilAllowed({ current: 5, previous: 0 }, 60, policy)).toBe(840 + 180);
    // 4 now and 4 before at the start of the window: 4 + 4 × (1 − e/900) ≤ 4 at e = 900.
    expect(secondsUntilAllowed({ current: 4, previous: 4 }, 0, policy)).toBe(900);
    // 2 now, 6 before, 450 s in: 2 + 6 × (1 − e/900) ≤ 4 → e ≥ 600.
    expect(secondsUntilAllowed({ current: 2, previous: 6 }, 450, policy)).toBe(150);
  });

  it('never locks anyone out for longer than two windows', () => {
    expect(
      secondsUntilAllowed({ current: 10_000, previous: 10_000 }, 0, policy),
    ).toBeLessThanOrEqual(1800);
    expect(POLICIES.loginIpAccount.limit).toBeLessThan(POLICIES.loginAccount.limit);
  });
});
