import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataEnvelope } from '@alda/contract/envelope';
import { tokens } from '@alda/contract/schemas/auth';
import { DEMO_PASSWORD, DEMO_USERS } from '../src/seed/demo-users';
import { createTestDatabase, TEST_JWT_SECRET, type TestDatabase } from './helper';

/*
 * The production path end to end: `node build.mjs` bundles src/main.ts, and the bundle migrates,
 * seeds, listens, serves, and shuts down cleanly on SIGTERM. Run twice on the same persistent
 * database to prove data survives a restart and the demo seed runs only once.
 */

const apiDir = fileURLToPath(new URL('..', import.meta.url));
const bundle = path.join(apiDir, 'dist', 'main.js');

interface Running {
  child: ChildProcess;
  url: string;
  output: () => string;
  exited: Promise<number | null>;
}

async function start(env: Record<string, string>): Promise<Running> {
  const child = spawn(process.execPath, [bundle], {
    cwd: os.tmpdir(),
    env: {
      PATH: process.env.PATH ?? '',
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      // No balancer to wait for (the drain itself: shutdown-drain.test.ts).
      SHUTDOWN_DRAIN_MS: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 30_000);
    const poll = setInterval(() => {
      const match =
        /running at (http:\/\/[^\s]+)/.exec(output) ??
        /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match?.[1] && output.includes('listening')) {
        clearInterval(poll);
        clearTimeout(timer);
        resolve(match[1].replace('localhost', '127.0.0.1'));
      }
    }, 50);
    void exited.then((code) => {
      clearInterval(poll);
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
  return { child, url, output: () => output, exited };
}

async function stop(running: Running): Promise<number | null> {
  running.child.kill('SIGTERM');
  return running.exited;
}

describe('the bundled server (npm start)', () => {
  let dataDir: string;
  let database: TestDatabase;
  let env: Record<string, string>;

  beforeAll(async () => {
    await promisify(execFile)(process.execPath, [path.join(apiDir, 'build.mjs')], { cwd: apiDir });
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'alda-data-'));
    database = await createTestDatabase();
    env = {
      DEMO_MODE: 'true',
      DATA_DIR: dataDir,
      JWT_SECRET: TEST_JWT_SECRET,
      WEB_DIST: path.join(dataDir, 'no-web'),
      ...(database.url ? { DATABASE_URL: database.url } : {}),
    };
  }, 60_000);
  afterAll(async () => {
    await database.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('migrates, seeds the demo, prints the logins, serves, and exits 0 on SIGTERM', async () => {
    const running = await start(env);
    try {
      const output = running.output();
      expect(output).toContain('demo data seeded');
      for (const demo of DEMO_USERS) expect(output).toContain(demo.email);
      expect(output).toContain(`password ${DEMO_PASSWORD}`);

      expect((await fetch(`${running.url}/readyz`)).status).toBe(200);
      const login = await fetch(`${running.url}/api/auth/email-login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: DEMO_USERS[0]?.email, password: DEMO_PASSWORD }),
      });
      expect(login.status).toBe(200);
      dataEnvelope(tokens).parse(await login.json());
      const terms = await fetch(`${running.url}/api/content/terms`);
      expect(terms.status).toBe(200);
    } finally {
      expect(await stop(running)).toBe(0);
    }
    expect(running.output()).toContain('shutting down: draining, then closing the server');
  }, 60_000);

  it('keeps its data across a restart and does not seed the demo twice', async () => {
    const running = await start(env);
    try {
      expect(running.output()).not.toContain('demo data seeded');
      const login = await fetch(`${running.url}/api/auth/email-login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'accept-language': 'en' },
        body: JSON.stringify({ email: DEMO_USERS[1]?.email, password: DEMO_PASSWORD }),
      });
      expect(login.status).toBe(200);
    } finally {
      expect(await stop(running)).toBe(0);
    }
  }, 60_000);

  it('refuses to start on bad configuration, naming the variable', async () => {
    const attempt = start({ ...env, PORT: 'not-a-port' });
    await expect(attempt).rejects.toThrow(
      /server exited with 1[\s\S]*Invalid configuration:[\s\S]*PORT/,
    );
  }, 30_000);
});
