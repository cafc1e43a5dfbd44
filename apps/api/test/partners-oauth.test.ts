import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oauthError, oauthTokenResponse } from '@alda/contract/schemas/camara';
import { partnerClients } from '../src/db/schema/number-protection';
import { createPartnerService, type PartnerService } from '../src/modules/partners/service';
import { createTestApp, parse, testClock, type TestApp } from './helper';

/*
 * Issue 32 (CAMARA SimSwap): partners (banks) get access tokens with OAuth 2.0 client
 * credentials (RFC 6749 §4.4) at POST /oauth/token — form-encoded, the secret in the body
 * (client_secret_post) or HTTP Basic (client_secret_basic); errors per RFC 6749 §5.2.
 */

const clock = testClock('2026-11-25T10:00:00.000Z');
let t: TestApp;
let partners: PartnerService;

beforeAll(async () => {
  t = await createTestApp({ PARTNER_TOKEN_TTL_S: '600' }, { now: clock.now });
  partners = createPartnerService({ db: t.app.db, now: clock.now, tokenTtlS: 600 });
});
afterAll(async () => {
  await t?.close();
});

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

function token(form: Record<string, string>, headers: Record<string, string> = {}) {
  return t.app.inject({
    method: 'POST',
    url: '/oauth/token',
    headers: { ...FORM, ...headers },
    payload: new URLSearchParams(form).toString(),
  });
}

async function aPartner(scopes = ['sim-swap']) {
  const made = await partners.create(
    { name: 'Test banki', scopes },
    { actor: 'test', staffUserId: null },
  );
  return { clientId: made.partner.clientId, clientSecret: made.clientSecret };
}

describe('POST /oauth/token (issue 32, RFC 6749 §4.4)', () => {
  it('gives a bearer token for the right client_id and client_secret in the body, not to be cached', async () => {
    const { clientId, clientSecret } = await aPartner();
    expect(clientId).toMatch(/^alda_[0-9a-f]{24}$/);
    expect(Buffer.from(clientSecret, 'base64url')).toHaveLength(32);
    const res = await token({
      grant_type: 'client_credentials',
      client_id: clientId,
      client_secret: clientSecret,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = parse(oauthTokenResponse, res);
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 600, scope: 'sim-swap' });
    expect(body.access_token).toMatch(/^alda_pt_/);
  });

  it('accepts HTTP Basic (client_secret_basic) and a narrower scope', async () => {
    const { clientId, clientSecret } = await aPartner(['sim-swap', 'sim-swap:check']);
    const basic = Buffer.from(`${clientId}:${encodeURIComponent(clientSecret)}`).toString('base64');
    const res = await token(
      { grant_type: 'client_credentials', scope: 'sim-swap:check' },
      { authorization: `Basic ${basic}` },
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(parse(oauthTokenResponse, res).scope).toBe('sim-swap:check');
  });

  it('refuses a wrong secret with 401 invalid_client', async () => {
    const { clientId } = await aPartner();
    const res = await token({
      grant_type: 'client_credentials',
      client_id: clientId,
      client_secret: 'not-the-secret',
    });
    expect(res.statusCode).toBe(401);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(parse(oauthError, res).error).toBe('invalid_client');
  });

  it('refuses an unknown client with the same 401 invalid_client', async () => {
    const res = await token({
      grant_type: 'client_credentials',
      client_id: 'alda_000000000000000000000000',
      client_secret: 'whatever',
    });
    expect(res.statusCode).toBe(401);
    expect(parse(oauthError, res).error).toBe('invalid_client');
  });

  it('refuses a disabled client, and its earlier tokens stop working', async () => {
    const { clientId, clientSecret } = await aPartner();
    const before = await token({
      grant_type: 'client_credentials',
      client_id: clientId,
      client_secret: clientSecret,
    });
    const accessToken = parse(oauthTokenResponse, before).access_token;
    expect(await partners.authenticate(accessToken)).not.toBeNull();
    await partners.disable(clientId, 'contract ended', { actor: 'test', staffUserId: null });
    const res = await token({
      grant_type: 'client_credentials',
      client_id: clientId,
      client_secret: clientSecret,
    });
    expect(res.statusCode).toBe(401);
    expect(parse(oauthError, res).error).toBe('invalid_client');
    expect(await partners.authenticate(accessToken)).toBeNull();
  });

  it('refuses another grant type with 400 unsupported_grant_type', async () => {
    const { clientId, clientSecret } = await aPartner();
    const res = await token({
      grant_type: 'password',
      client_id: clientId,
      client_secret: clientSecret,
    });
    expect(res.statusCode).toBe(400);
    expect(parse(oauthError, res).error).toBe('unsupported_grant_type');
  });

  it('refuses a scope the client was not given with 400 invalid_scope', async () => {
    const { clientId, clientSecret } = await aPartner(['sim-swap:check']);
    const res = await token({
      grant_type: 'client_credentials',
      client_id: clientId,
      client_secret: clientSecret,
      scope: 'sim-swap',
    });
    expect(res.statusCode).toBe(400);
    expect(parse(oauthError, res).error).toBe('invalid_scope');
  });

  it('answers a missing grant_type, a JSON body or two client authentications with 400 invalid_request', async () => {
    const { clientId, clientSecret } = await aPartner();
    const missing = await token({ client_id: clientId, client_secret: clientSecret });
    expect(parse(oauthError, missing).error).toBe('invalid_request');
    const json = await t.app.inject({
      method: 'POST',
      url: '/oauth/token',
      payload: {
        grant_type: 'client_credentials',
        client_id: clientId,
        client_secret: clientSecret,
      },
    });
    expect(json.statusCode).toBe(400);
    expect(parse(oauthError, json).error).toBe('invalid_request');
    const basic = Buffer.from(`${clientId}:${clientSecret}`).toString('base64');
    const both = await token(
      { grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret },
      { authorization: `Basic ${basic}` },
    );
    expect(both.statusCode).toBe(400);
    expect(parse(oauthError, both).error).toBe('invalid_request');
    const repeated = await t.app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: FORM,
      payload: `grant_type=client_credentials&grant_type=client_credentials&client_id=${clientId}&client_secret=${clientSecret}`,
    });
    expect(repeated.statusCode).toBe(400);
    expect(parse(oauthError, repeated).error).toBe('invalid_request');
  });

  it('keeps only SHA-256 digests of secrets and tokens', async () => {
    const { clientSecret } = await aPartner();
    const dump = JSON.stringify(await t.app.db.select().from(partnerClients));
    expect(dump).not.toContain(clientSecret);
  });
});
