import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  camaraError,
  oauthTokenResponse,
  simSwapCheckResponse,
  simSwapDateResponse,
} from '@alda/contract/schemas/camara';
import { partnerCalls } from '../src/db/schema/number-protection';
import { phoneLines } from '../src/db/schema/phone-lines';
import { createPartnerService, type PartnerService } from '../src/modules/partners/service';
import { createTestApp, parse, testClock, type TestApp } from './helper';

/*
 * Issue 32, CAMARA SimSwap v2 (camaraproject/SimSwap r2.x sim-swap.yaml): a bank with a
 * partner token asks POST /camara/sim-swap/v2/check and /retrieve-date about our numbers.
 * Answers and errors are CAMARA's ({ status, code, message }), x-correlator echoed; every call
 * past authentication is recorded in partner_calls.
 */

const RATE_LIMIT = 4;
const HOUR_MS = 3600 * 1000;
const clock = testClock('2026-11-25T10:00:00.000Z');
let t: TestApp;
let partners: PartnerService;

beforeAll(async () => {
  t = await createTestApp(
    { PARTNER_TOKEN_TTL_S: '600', PARTNER_RATE_LIMIT_PER_MIN: String(RATE_LIMIT) },
    { now: clock.now },
  );
  partners = createPartnerService({ db: t.app.db, now: clock.now, tokenTtlS: 600 });
});
afterAll(async () => {
  await t?.close();
});

/** A new partner client with `scopes`, and an access token from POST /oauth/token. */
async function aPartnerToken(scopes = ['sim-swap']) {
  const made = await partners.create(
    { name: 'Banki', scopes },
    { actor: 'test', staffUserId: null },
  );
  const res = await t.app.inject({
    method: 'POST',
    url: '/oauth/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: made.partner.clientId,
      client_secret: made.clientSecret,
    }).toString(),
  });
  expect(res.statusCode, res.body).toBe(200);
  return {
    partnerId: made.partner.id,
    token: parse(oauthTokenResponse, res).access_token,
  };
}

let nextNumber = 219_900;
/** A live line of ours; answers its +298 number. */
async function aLine(values: { simChangedAt?: Date; activatedAt?: Date; createdAt?: Date } = {}) {
  nextNumber += 1;
  const msisdn = String(nextNumber);
  await t.app.db.insert(phoneLines).values({
    msisdn,
    status: 'active',
    createdAt: values.createdAt ?? new Date(clock.now().getTime() - 400 * 24 * HOUR_MS),
    activatedAt: values.activatedAt ?? null,
    simChangedAt: values.simChangedAt ?? null,
  });
  return `+298${msisdn}`;
}

const hoursAgo = (hours: number) => new Date(clock.now().getTime() - hours * HOUR_MS);

function call(
  operation: 'check' | 'retrieve-date',
  token: string | undefined,
  payload: unknown,
  headers: Record<string, string> = {},
) {
  return t.app.inject({
    method: 'POST',
    url: `/camara/sim-swap/v2/${operation}`,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    payload: payload as Record<string, unknown>,
  });
}

const callsOf = (partnerId: string) =>
  t.app.db.select().from(partnerCalls).where(eq(partnerCalls.partnerId, partnerId));

describe('CAMARA SimSwap check (issue 32)', () => {
  it('says swapped: true for a SIM changed within maxAge hours, false just outside it', async () => {
    const { token } = await aPartnerToken();
    const phoneNumber = await aLine({ simChangedAt: hoursAgo(24) });
    const inside = await call('check', token, { phoneNumber, maxAge: 25 });
    expect(inside.statusCode, inside.body).toBe(200);
    expect(parse(simSwapCheckResponse, inside)).toEqual({ swapped: true });
    const outside = await call('check', token, { phoneNumber, maxAge: 23 });
    expect(parse(simSwapCheckResponse, outside)).toEqual({ swapped: false });
  });

  it('uses maxAge 240 hours when none is given', async () => {
    const { token } = await aPartnerToken();
    const recent = await aLine({ simChangedAt: hoursAgo(239) });
    const older = await aLine({ simChangedAt: hoursAgo(241) });
    expect(
      parse(simSwapCheckResponse, await call('check', token, { phoneNumber: recent })).swapped,
    ).toBe(true);
    expect(
      parse(simSwapCheckResponse, await call('check', token, { phoneNumber: older })).swapped,
    ).toBe(false);
  });

  it('echoes the x-correlator header', async () => {
    const { token } = await aPartnerToken();
    const phoneNumber = await aLine();
    const res = await call(
      'check',
      token,
      { phoneNumber },
      { 'x-correlator': 'b4333c46-49c0-4f62' },
    );
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-correlator']).toBe('b4333c46-49c0-4f62');
    // Facts about a person's line: never cached.
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('refuses maxAge outside 1–2400 with 400 OUT_OF_RANGE', async () => {
    const { token } = await aPartnerToken();
    const phoneNumber = await aLine();
    for (const maxAge of [0, 2401]) {
      const res = await call('check', token, { phoneNumber, maxAge });
      expect(res.statusCode).toBe(400);
      expect(parse(camaraError, res)).toMatchObject({ status: 400, code: 'OUT_OF_RANGE' });
    }
  });

  it('refuses a phone number that is not E.164 with 400 INVALID_ARGUMENT, never a 500', async () => {
    const { token } = await aPartnerToken();
    for (const phoneNumber of ['211234', '00298211234', '+298 21 12 34', 298211234]) {
      const res = await call('check', token, { phoneNumber });
      expect(res.statusCode, String(phoneNumber)).toBe(400);
      expect(parse(camaraError, res)).toMatchObject({ status: 400, code: 'INVALID_ARGUMENT' });
    }
    // (A second client: the first has used its 4 calls of the minute.)
    const second = await aPartnerToken();
    const notJson = await t.app.inject({
      method: 'POST',
      url: '/camara/sim-swap/v2/check',
      headers: { authorization: `Bearer ${second.token}`, 'content-type': 'application/json' },
      payload: '{"phoneNumber":',
    });
    expect(notJson.statusCode).toBe(400);
    expect(parse(camaraError, notJson).code).toBe('INVALID_ARGUMENT');
  });

  it('answers a number that is not ours with 404 IDENTIFIER_NOT_FOUND', async () => {
    const { token } = await aPartnerToken();
    for (const phoneNumber of ['+298999999', '+4520123456']) {
      const res = await call('check', token, { phoneNumber });
      expect(res.statusCode).toBe(404);
      expect(parse(camaraError, res)).toMatchObject({ status: 404, code: 'IDENTIFIER_NOT_FOUND' });
    }
  });

  it('answers a request without phoneNumber with 422 MISSING_IDENTIFIER (two-legged token)', async () => {
    const { token } = await aPartnerToken();
    const res = await call('check', token, { maxAge: 10 });
    expect(res.statusCode).toBe(422);
    expect(parse(camaraError, res).code).toBe('MISSING_IDENTIFIER');
  });
});

describe('CAMARA SimSwap retrieve-date (issue 32)', () => {
  it('answers the latest SIM change', async () => {
    const { token } = await aPartnerToken();
    const changed = hoursAgo(5);
    const phoneNumber = await aLine({ simChangedAt: changed, activatedAt: hoursAgo(5000) });
    const res = await call('retrieve-date', token, { phoneNumber });
    expect(res.statusCode, res.body).toBe(200);
    expect(parse(simSwapDateResponse, res)).toEqual({ latestSimChange: changed.toISOString() });
  });

  it('answers the activation for a SIM never changed (CAMARA: a new subscription is a swap)', async () => {
    const { token } = await aPartnerToken();
    const activated = hoursAgo(100);
    const phoneNumber = await aLine({ activatedAt: activated });
    const res = await call('retrieve-date', token, { phoneNumber });
    expect(parse(simSwapDateResponse, res).latestSimChange).toBe(activated.toISOString());
    // …and so check sees a new subscription as a swap too.
    const check = await call('check', token, { phoneNumber, maxAge: 101 });
    expect(parse(simSwapCheckResponse, check).swapped).toBe(true);
  });

  it('answers 404 for a cancelled line', async () => {
    const { token } = await aPartnerToken();
    nextNumber += 1;
    await t.app.db.insert(phoneLines).values({ msisdn: String(nextNumber), status: 'cancelled' });
    const res = await call('retrieve-date', token, { phoneNumber: `+298${nextNumber}` });
    expect(res.statusCode).toBe(404);
  });
});

describe('CAMARA SimSwap authorisation, rate limit and audit (issue 32)', () => {
  it('refuses a missing or unknown token with 401 UNAUTHENTICATED', async () => {
    const phoneNumber = await aLine();
    for (const token of [undefined, 'alda_pt_nothing', 'garbage']) {
      const res = await call('check', token, { phoneNumber });
      expect(res.statusCode).toBe(401);
      expect(parse(camaraError, res)).toMatchObject({ status: 401, code: 'UNAUTHENTICATED' });
      expect(res.headers['www-authenticate']).toBe('Bearer realm="alda-partners"');
    }
  });

  it('refuses an expired token with 401 UNAUTHENTICATED', async () => {
    const { token } = await aPartnerToken();
    const phoneNumber = await aLine();
    expect((await call('check', token, { phoneNumber })).statusCode).toBe(200);
    clock.advance(601);
    try {
      const res = await call('check', token, { phoneNumber });
      expect(res.statusCode).toBe(401);
      expect(parse(camaraError, res).code).toBe('UNAUTHENTICATED');
    } finally {
      clock.advance(-601);
    }
  });

  it('refuses a partner without the sim-swap scope with 403 PERMISSION_DENIED', async () => {
    const { token } = await aPartnerToken(['sim-swap:retrieve-date']);
    const phoneNumber = await aLine();
    const res = await call('check', token, { phoneNumber });
    expect(res.statusCode).toBe(403);
    expect(parse(camaraError, res)).toMatchObject({ status: 403, code: 'PERMISSION_DENIED' });
    // The operation's own scope is enough for that operation.
    expect((await call('retrieve-date', token, { phoneNumber })).statusCode).toBe(200);
  });

  it(`answers 429 TOO_MANY_REQUESTS after PARTNER_RATE_LIMIT_PER_MIN (${RATE_LIMIT}) calls a minute`, async () => {
    const { token } = await aPartnerToken();
    const other = await aPartnerToken();
    const phoneNumber = await aLine();
    for (let i = 0; i < RATE_LIMIT; i += 1) {
      expect((await call('check', token, { phoneNumber })).statusCode).toBe(200);
    }
    const over = await call('check', token, { phoneNumber });
    expect(over.statusCode).toBe(429);
    expect(parse(camaraError, over)).toMatchObject({ status: 429, code: 'TOO_MANY_REQUESTS' });
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    // Per client: another partner is not affected.
    expect((await call('check', other.token, { phoneNumber })).statusCode).toBe(200);
  });

  it('records every call past authentication in partner_calls, refused ones too', async () => {
    const { partnerId, token } = await aPartnerToken();
    const phoneNumber = await aLine({ simChangedAt: hoursAgo(1) });
    await call('check', token, { phoneNumber, maxAge: 2 });
    await call('retrieve-date', token, { phoneNumber });
    await call('check', token, { phoneNumber: '+298999999' });
    await call('check', token, { phoneNumber, maxAge: 9999 });
    await call('check', undefined, { phoneNumber });
    const rows = await callsOf(partnerId);
    const seen = rows.map((r) => [r.operation, r.msisdn, r.status, r.result]);
    expect(seen).toEqual(
      expect.arrayContaining([
        ['check', phoneNumber.slice(4), 200, 'swapped: true'],
        ['retrieve-date', phoneNumber.slice(4), 200, hoursAgo(1).toISOString()],
        ['check', '999999', 404, 'IDENTIFIER_NOT_FOUND'],
        ['check', phoneNumber.slice(4), 400, 'OUT_OF_RANGE'],
      ]),
    );
    expect(rows).toHaveLength(4);
    // The console's list counts them, this client's only.
    const listed = (await partners.list()).find((p) => p.id === partnerId);
    expect(listed).toMatchObject({ callCount: 4, lastCallAt: clock.now().toISOString() });
  });

  it('lists the routes in the OpenAPI document under camara-sim-swap and oauth', async () => {
    const res = await t.app.inject({ url: '/api/openapi.json' });
    const doc = res.json() as {
      paths: Record<string, { post?: { tags?: string[]; security?: unknown } }>;
      components: { securitySchemes: Record<string, unknown> };
    };
    expect(doc.paths['/camara/sim-swap/v2/check']?.post?.tags).toEqual(['camara-sim-swap']);
    expect(doc.paths['/camara/sim-swap/v2/retrieve-date']?.post?.security).toEqual([
      { partnerBearer: [] },
    ]);
    expect(doc.paths['/oauth/token']?.post?.tags).toEqual(['oauth']);
    expect(doc.components.securitySchemes.partnerBearer).toBeDefined();
  });
});
