import { rm } from 'node:fs/promises';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oauthError, oauthTokenResponse } from '@alda/contract/schemas/camara';
import type { Database } from '../src/db/client';
import { operatorActions } from '../src/db/schema/provisioning';
import { runOperator } from '../src/operator';
import { createTestApp, parse, usingPostgres, type TestApp } from './helper';
import { operatorCli, startOperatorServer } from './operator-server-helper';

/*
 * Issue 32 (CAMARA SimSwap partners): `npm run operator -- partner add|list|disable`. In-process
 * against a test app's database, and as the real program beside a running PGlite "server"
 * (DATA_DIR/operator.sock), as the other operator commands.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

async function operator(argv: string[]) {
  let out = '';
  let err = '';
  const code = await runOperator(argv, {
    env: { OPERATOR: 'ops-anna' },
    config: t.config,
    database: t.app.database,
    out: (text) => {
      out += text;
    },
    err: (text) => {
      err += text;
    },
  });
  return { code, out, err };
}

const credentialsOf = (out: string) => ({
  clientId: /^client_id: (\S+)$/m.exec(out)?.[1] ?? '',
  clientSecret: /^client_secret: (\S+)$/m.exec(out)?.[1] ?? '',
});

function token(clientId: string, clientSecret: string) {
  return t.app.inject({
    method: 'POST',
    url: '/oauth/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: clientId,
      client_secret: clientSecret,
    }).toString(),
  });
}

describe('npm run operator -- partner (issue 32)', () => {
  it('partner add prints a client_id and client_secret that work at /oauth/token; list and disable', async () => {
    const added = await operator(['partner', 'add', 'Føroya Banki', '--scope', 'sim-swap']);
    expect(added.code, added.err).toBe(0);
    const { clientId, clientSecret } = credentialsOf(added.out);
    expect(clientId).toMatch(/^alda_[0-9a-f]{24}$/);
    expect(clientSecret.length).toBeGreaterThanOrEqual(43);
    expect(added.out).toContain('cannot be shown again');

    const res = await token(clientId, clientSecret);
    expect(res.statusCode, res.body).toBe(200);
    expect(parse(oauthTokenResponse, res).scope).toBe('sim-swap');

    const listed = await operator(['partner', 'list']);
    expect(listed.out).toContain(clientId);
    expect(listed.out).toContain('Føroya Banki');
    expect(listed.out).not.toContain(clientSecret);

    const disabled = await operator(['partner', 'disable', clientId, '--reason', 'contract ended']);
    expect(disabled.code, disabled.err).toBe(0);
    expect(parse(oauthError, await token(clientId, clientSecret)).error).toBe('invalid_client');
    expect((await operator(['partner', 'disable', clientId])).code).toBe(1);

    const audit = await t.app.db
      .select()
      .from(operatorActions)
      .where(eq(operatorActions.target, clientId));
    expect(audit.map((a) => [a.verb, a.operator]).sort()).toEqual([
      ['partner.create', 'ops-anna'],
      ['partner.disable', 'ops-anna'],
    ]);
    expect(JSON.stringify(audit)).not.toContain(clientSecret);
  });

  it('refuses partner add without a known scope, and an unknown client, with usage errors', async () => {
    expect((await operator(['partner', 'add', 'Banki'])).code).toBe(2);
    const wrong = await operator(['partner', 'add', 'Banki', '--scope', 'everything']);
    expect(wrong.code).toBe(2);
    expect(wrong.err).toContain('--scope');
    const unknown = await operator(['partner', 'disable', 'alda_nobody']);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toContain('No partner client alda_nobody');
  });
});

describe.skipIf(usingPostgres)('partner add beside a running server on PGlite (issue 32)', () => {
  let dir = '';
  let held: Database | undefined;
  let socket: { close(): Promise<void> } | undefined;
  beforeAll(async () => {
    ({ dir, database: held, socket } = await startOperatorServer('alda-partners-'));
  }, 60_000);
  afterAll(async () => {
    await socket?.close();
    await held?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('is run by the server and the client is in its database', async () => {
    const { code, stdout, stderr } = await operatorCli(
      ['partner', 'add', 'Banki', '--scope', 'sim-swap'],
      { DATA_DIR: dir, DATABASE_URL: '', OPERATOR: 'ops' },
    );
    expect(code, stderr).toBe(0);
    expect(stderr).not.toContain('open in another process');
    const { clientId } = credentialsOf(stdout);
    expect(clientId).toMatch(/^alda_/);
    const rows = await held!.db
      .select()
      .from(operatorActions)
      .where(eq(operatorActions.target, clientId));
    expect(rows.map((r) => [r.verb, r.operator])).toEqual([['partner.create', 'ops']]);
  }, 60_000);
});
