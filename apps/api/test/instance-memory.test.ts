import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { LISTEN_APPLICATION_NAME, openDatabase } from '../src/db/client';
import { recentWrites } from '../src/db/recent-writes';
import { REFERENCE_WRITE_KEY } from '../src/db/reference-memory';
import { userVersions } from '../src/db/schema/data-transfers';
import { sessions } from '../src/db/schema/sessions';
import { plans } from '../src/db/schema/catalog';
import { seedDemoData, seedReferenceData } from '../src/seed/seed';
import { DEMO_PASSWORD } from '../src/seed/demo-users';
import { NOW, signIn } from './demo-accounts';
import {
  createTestApps,
  createTestDatabase,
  demoUser,
  pgliteSnapshot,
  testConfig,
  usingPostgres,
  waitFor,
  type TestApps,
  type TestDatabase,
} from './helper';

/*
 * docs/decisions/0057-instance-memory.md: what every request and poll needs (sessions, change
 * versions, reference data, subscriptions answers) is held in memory per instance and kept true
 * across instances by LISTEN/NOTIFY. On PGlite both "instances" share the one in-process
 * database (the same code path); on PostgreSQL (CI's second pass) they are two apps with their
 * own pools and LISTEN connections on one database.
 */

const POLLS = [
  '/api/notifications?page=0&perPage=15',
  '/api/data-transfers',
  '/api/plans',
  '/api/packages',
] as const;

/** The staleness bound ADR 0057 promises: a change is heard on every instance within 1 s. */
const BOUND_MS = 1_000;

describe('issue 13: a poll that finds nothing changed costs no database query (ADR 0057, SPEC §4 polling)', () => {
  let app: FastifyInstance;
  let database: TestDatabase;
  let queries: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    // The memory itself is under test here, not its self-check (which reads the database).
    const config = testConfig({ READ_CACHE_CHECK: 'false' }, database.url);
    const opened = await openDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      pgliteSnapshot: usingPostgres ? undefined : await pgliteSnapshot(),
      onQuery: (query) => queries.push(query),
    });
    // The built-in test card provider stands in for an outside system: its worker (a round every
    // second) is off, so nothing but the requests under test reaches the count. Filtering its
    // statements by table name let its bare COMMIT through, now and then inside a measured window.
    app = await buildApp(config, {
      database: opened,
      now: () => NOW,
      payments: { testProviderIntervalMs: 0 },
    });
    await app.database.migrate();
    await seedReferenceData(app.db);
    await seedDemoData(app.db, NOW);
    await app.ready();
  });

  afterAll(async () => {
    await app.close();
    await database.drop();
  });

  it('answers 304 to the polls and the catalogue, the kept 200 poll, status and the second GET /api/subscriptions, with 0 queries', async () => {
    // Writes mark their customer (and the catalogue) in the process's one registry of recent
    // writes for 3 s, and test files that share a worker share it: a file before this one may
    // have written for the same demo customer a moment ago, which rightly sends reads to the
    // database. While a mark lasts nothing read is kept in memory either, so the reads below that
    // fill the memory must come after the marks have run out, and so must the measured ones.
    const unmarked = () =>
      waitFor(async () =>
        recentWrites.has(demoUser('Sunneva').id) || recentWrites.has(REFERENCE_WRITE_KEY)
          ? undefined
          : true,
      );
    const auth = await signIn(app, 'Sunneva');
    const headers = { ...auth, 'accept-language': 'fo' };
    await unmarked();
    const etags = new Map<string, string>();
    for (const url of POLLS) {
      const first = await app.inject({ method: 'GET', url, headers });
      expect(first.statusCode, url).toBe(200);
      etags.set(url, String(first.headers.etag));
    }
    const firstOverview = await app.inject({ method: 'GET', url: '/api/subscriptions', headers });
    expect(firstOverview.statusCode).toBe(200);
    const firstTerms = await app.inject({ method: 'GET', url: '/api/content/terms', headers });
    expect(firstTerms.statusCode).toBe(200);
    const statusCheck = () =>
      app.inject({
        method: 'POST',
        url: '/api/status',
        headers,
        payload: {
          currentVersion: '3.0.0',
          deviceMeta: { platform: 'android', osVersion: '15', model: 'Pixel 9', isVirtual: false },
        },
      });
    expect((await statusCheck()).statusCode).toBe(200);

    await unmarked();
    queries = [];
    for (let round = 0; round < 10; round += 1) {
      for (const url of POLLS) {
        const res = await app.inject({
          method: 'GET',
          url,
          headers: { ...headers, 'if-none-match': etags.get(url) },
        });
        expect(res.statusCode, url).toBe(304);
      }
      const overview = await app.inject({ method: 'GET', url: '/api/subscriptions', headers });
      expect(overview.body).toBe(firstOverview.body);
      // A poll without If-None-Match (the first after the app starts) gets the kept answer.
      const full = await app.inject({ method: 'GET', url: POLLS[0], headers });
      expect(full.statusCode).toBe(200);
      expect(full.headers.etag).toBe(etags.get(POLLS[0]));
      const terms = await app.inject({
        method: 'GET',
        url: '/api/content/terms',
        headers: { ...headers, 'if-none-match': String(firstTerms.headers.etag) },
      });
      expect(terms.statusCode).toBe(304);
      expect((await statusCheck()).statusCode).toBe(200);
    }
    expect(queries).toEqual([]);
  });

  it('still sees a change at once: the version moves, the poll is 200 again, the overview is rebuilt', async () => {
    const auth = await signIn(app, 'Sunneva');
    const headers = { ...auth, 'accept-language': 'fo' };
    const url = '/api/notifications?page=0&perPage=15';
    const before = await app.inject({ method: 'GET', url, headers });
    const marked = await app.inject({
      method: 'PATCH',
      url: '/api/notifications/mark-all-as-read',
      headers,
    });
    expect(marked.statusCode).toBe(200);
    const after = await app.inject({
      method: 'GET',
      url,
      headers: { ...headers, 'if-none-match': String(before.headers.etag) },
    });
    expect(after.statusCode).toBe(200);
    expect(after.headers.etag).not.toBe(before.headers.etag);
  });
});

describe('issue 13: two instances on one database keep their memories true (ADR 0057, SPEC §8 tokens)', () => {
  let t: TestApps;
  let a: FastifyInstance;
  let b: FastifyInstance;

  beforeAll(async () => {
    t = await createTestApps(2, {}, { now: () => NOW });
    [a, b] = t.apps as [FastifyInstance, FastifyInstance];
    await seedDemoData(a.db, NOW);
    await Promise.all([a.ready(), b.ready()]);
  });

  afterAll(async () => {
    await t.close();
  });

  const login = async (app: FastifyInstance, email: string) => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/auth/email-login',
      payload: { email, password: DEMO_PASSWORD },
    });
    expect(res.statusCode).toBe(200);
    return res.json<{ data: { accessToken: string; refreshToken: string } }>().data;
  };
  const me = (app: FastifyInstance, accessToken: string) =>
    app.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: { authorization: `Bearer ${accessToken}` },
    });
  /** Resolves with the time it took until `probe` held, failing after the bound. */
  const heardWithin = async (probe: () => Promise<boolean>) => {
    const started = performance.now();
    await waitFor(async () => ((await probe()) ? true : undefined), BOUND_MS);
    return performance.now() - started;
  };

  it('a session signed in on one is accepted on the other, and refreshed there', async () => {
    const tokens = await login(a, demoUser('Rói').email);
    expect((await me(b, tokens.accessToken)).statusCode).toBe(200);
    const refreshed = await b.inject({
      method: 'POST',
      url: '/api/auth/refresh-token',
      payload: { refreshToken: tokens.refreshToken },
    });
    expect(refreshed.statusCode).toBe(200);
  });

  it('logout on one ends the session on both at once', async () => {
    const tokens = await login(a, demoUser('Rói').email);
    // Both instances now remember the session as signed in.
    expect((await me(a, tokens.accessToken)).statusCode).toBe(200);
    expect((await me(b, tokens.accessToken)).statusCode).toBe(200);
    const out = await a.inject({
      method: 'POST',
      url: '/api/auth/logout',
      payload: { refreshToken: tokens.refreshToken },
    });
    expect(out.statusCode).toBeLessThan(300);
    expect((await me(a, tokens.accessToken)).statusCode).toBe(401);
    await heardWithin(async () => (await me(b, tokens.accessToken)).statusCode === 401);
  });

  it('a password change on one ends the other sessions on both', async () => {
    const email = demoUser('Ása').email;
    const keeper = await login(a, email);
    const other = await login(b, email);
    expect((await me(a, other.accessToken)).statusCode).toBe(200);
    expect((await me(b, other.accessToken)).statusCode).toBe(200);
    const changed = await a.inject({
      method: 'POST',
      url: '/api/auth/change-password',
      headers: { authorization: `Bearer ${keeper.accessToken}` },
      payload: { currentPassword: DEMO_PASSWORD, password: 'Nyggjt1234!' },
    });
    expect(changed.statusCode).toBeLessThan(300);
    await heardWithin(async () => (await me(a, other.accessToken)).statusCode === 401);
    await heardWithin(async () => (await me(b, other.accessToken)).statusCode === 401);
    expect((await me(b, keeper.accessToken)).statusCode).toBe(200);
  });

  it('a session ended by another process is refused within the bound (only its NOTIFY tells)', async () => {
    const tokens = await login(a, demoUser('Jóannes').email);
    expect((await me(a, tokens.accessToken)).statusCode).toBe(200);
    expect((await me(b, tokens.accessToken)).statusCode).toBe(200);
    const [session] = await a.db
      .select({ id: sessions.id })
      .from(sessions)
      .where(sql`${sessions.userId} = ${demoUser('Jóannes').id} and ${sessions.revokedAt} is null`);
    if (!session) throw new Error('no session');
    // What another instance (or an operator's SQL) does: the row and the notice, nothing local.
    await a.db.transaction(async (tx) => {
      await tx
        .update(sessions)
        .set({ revokedAt: NOW, revokedReason: 'logout' })
        .where(eq(sessions.id, session.id));
      await tx.execute(sql`select pg_notify('session_revoked', ${JSON.stringify([session.id])})`);
    });
    const took = await heardWithin(
      async () =>
        (await me(a, tokens.accessToken)).statusCode === 401 &&
        (await me(b, tokens.accessToken)).statusCode === 401,
    );
    expect(took).toBeLessThan(BOUND_MS);
  });

  it('a change version moved by another process turns the 304 poll into 200 on both within the bound', async () => {
    const auth = await signIn(a, 'Guðrun');
    const url = '/api/data-transfers';
    const first = await b.inject({ method: 'GET', url, headers: auth });
    const etag = String(first.headers.etag);
    const poll = (app: FastifyInstance) =>
      app.inject({ method: 'GET', url, headers: { ...auth, 'if-none-match': etag } });
    expect((await poll(a)).statusCode).toBe(304);
    expect((await poll(b)).statusCode).toBe(304);
    const userId = demoUser('Guðrun').id;
    await a.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(userVersions)
        .values({ userId, version: 2 })
        .onConflictDoUpdate({
          target: userVersions.userId,
          set: { version: sql`${userVersions.version} + 1` },
        })
        .returning({ version: userVersions.version });
      await tx.execute(
        sql`select pg_notify('user_versions', ${JSON.stringify([[userId, row?.version]])})`,
      );
    });
    await heardWithin(async () => (await poll(a)).statusCode === 200);
    await heardWithin(async () => (await poll(b)).statusCode === 200);
  });

  it('a catalogue change by SQL reaches the cached plan list of both instances (trigger NOTIFY)', async () => {
    const auth = await signIn(a, 'Guðrun');
    const list = async (app: FastifyInstance) =>
      (await app.inject({ method: 'GET', url: '/api/plans', headers: auth })).body;
    const before = await list(b);
    expect(before).toContain('individual-5');
    await list(a);
    await a.db.update(plans).set({ isOffered: false }).where(eq(plans.id, 'individual-5'));
    try {
      await heardWithin(async () => !(await list(a)).includes('individual-5'));
      await heardWithin(async () => !(await list(b)).includes('individual-5'));
    } finally {
      await a.db.update(plans).set({ isOffered: true }).where(eq(plans.id, 'individual-5'));
    }
    await heardWithin(async () => (await list(b)).includes('individual-5'));
  });

  it.skipIf(!usingPostgres)(
    'trusts nothing while its LISTEN connection is down, and starts over when it is back',
    async () => {
      const auth = await signIn(a, 'Sunneva');
      const url = '/api/data-transfers';
      const first = await b.inject({ method: 'GET', url, headers: auth });
      const etag = String(first.headers.etag);
      const poll = (app: FastifyInstance) =>
        app.inject({ method: 'GET', url, headers: { ...auth, 'if-none-match': etag } });
      expect((await poll(b)).statusCode).toBe(304);
      // Cut every LISTEN connection of this database; NOTIFYs sent meanwhile are lost.
      const cut = await a.db.execute(
        sql`select pg_terminate_backend(pid) from pg_stat_activity where application_name = ${LISTEN_APPLICATION_NAME} and datname = current_database()`,
      );
      expect(rowCount(cut)).toBeGreaterThanOrEqual(2);
      // A change without any notice at all: only the database knows.
      const userId = demoUser('Sunneva').id;
      await a.db
        .insert(userVersions)
        .values({ userId, version: 2 })
        .onConflictDoUpdate({
          target: userVersions.userId,
          set: { version: sql`${userVersions.version} + 1` },
        });
      await heardWithin(async () => (await poll(b)).statusCode === 200);
      await heardWithin(async () => (await poll(a)).statusCode === 200);
    },
  );
});

function rowCount(result: unknown): number {
  const rows = (result as { rows?: unknown[] }).rows;
  return Array.isArray(rows) ? rows.length : 0;
}
