import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataEnvelope } from '@alda/contract/envelope';
import { tokens } from '@alda/contract/schemas/auth';
import { buildApp } from '../src/app';
import { backupDatabase, BackupError, restoreDatabase } from '../src/backup';
import { openDatabase } from '../src/db/client';
import { DEMO_PASSWORD, DEMO_USERS } from '../src/seed/demo-users';
import { seedDemoData } from '../src/seed/seed';
import { createTestDatabase, parse, testConfig, usingPostgres, type TestDatabase } from './helper';

/*
 * Issue 14 part 8: a backup made by `npm run db:backup` and restored by `npm run db:restore`
 * brings back a working app — same customers, same data, a customer can sign in — on the
 * database this suite runs on (PGlite in a folder, or PostgreSQL with pg_dump / pg_restore).
 */
const NOW = new Date('2026-06-15T12:00:00.000Z');
const CUSTOMER = DEMO_USERS[0]!;

async function startApp(config: ReturnType<typeof testConfig>) {
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const app = await buildApp(config, { database, now: () => NOW });
  await app.database.migrate();
  await app.ready();
  return app;
}

async function signIn(app: Awaited<ReturnType<typeof startApp>>) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/email-login',
    payload: { email: CUSTOMER.email, password: DEMO_PASSWORD },
  });
  expect(res.statusCode).toBe(200);
  return `Bearer ${parse(dataEnvelope(tokens), res).data.accessToken}`;
}

describe(`backup and restore (issue 14, docs/operations.md "Backups"), ${usingPostgres ? 'PostgreSQL' : 'PGlite'}`, () => {
  let dir: string;
  const databases: TestDatabase[] = [];

  const config = async (name: string) => {
    if (usingPostgres) {
      const database = await createTestDatabase();
      databases.push(database);
      return testConfig({}, database.url);
    }
    return testConfig({ DATA_DIR: path.join(dir, name) });
  };

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'alda-backup-'));
  });
  afterAll(async () => {
    for (const database of databases) await database.drop();
    await rm(dir, { recursive: true, force: true });
  });

  let source: ReturnType<typeof testConfig>;

  it('a restored backup is a working app with the same data', async () => {
    source = await config('source');
    const app = await startApp(source);
    let before: string;
    try {
      await seedDemoData(app.db, NOW);
      const authorization = await signIn(app);
      const res = await app.inject({
        method: 'GET',
        url: '/api/subscriptions',
        headers: { authorization },
      });
      expect(res.statusCode).toBe(200);
      before = res.body;
    } finally {
      await app.close();
    }

    const file = path.join(dir, 'alda.backup');
    expect(await backupDatabase(source, file)).toBe(usingPostgres ? 'postgresql' : 'pglite');

    const target = await config('restored');
    await restoreDatabase(target, file);
    const restored = await startApp(target);
    try {
      const authorization = await signIn(restored);
      const res = await restored.inject({
        method: 'GET',
        url: '/api/subscriptions',
        headers: { authorization },
      });
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe(before);
    } finally {
      await restored.close();
    }

    // A second restore over the now-used database is refused without --force, so a typo
    // cannot overwrite production; with force it replaces it.
    await expect(restoreDatabase(target, file)).rejects.toBeInstanceOf(BackupError);
    await restoreDatabase(target, file, { force: true });
    const again = await startApp(target);
    try {
      await signIn(again);
    } finally {
      await again.close();
    }
  }, 120_000);

  it('the npm scripts run it from the command line and say what they did', () => {
    const root = path.resolve(import.meta.dirname, '../../..');
    const npm = (args: string[], env: Record<string, string | undefined>) =>
      spawnSync('npm', ['run', '--silent', ...args], {
        cwd: root,
        env: { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: '', ...env },
        encoding: 'utf8',
      });
    const where = (config: ReturnType<typeof testConfig>) =>
      usingPostgres ? { DATABASE_URL: config.databaseUrl } : { DATA_DIR: config.dataDir };

    const file = path.join(dir, 'cli.backup');
    const backup = npm(['db:backup', '--', file], where(source));
    expect(backup.stderr).toBe('');
    expect(backup.status).toBe(0);
    expect(backup.stdout).toContain(
      `backed up (${usingPostgres ? 'postgresql' : 'pglite'}): ${file}`,
    );

    // Restoring over the source itself is refused: it is not empty.
    const over = npm(['db:restore', '--', file], where(source));
    expect(over.status).toBe(1);
    expect(over.stderr).toMatch(/not empty/);

    const missing = npm(['db:restore', '--', path.join(dir, 'nope')], where(source));
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain('does not exist');
  }, 120_000);
});
