import type { FastifyInstance } from 'fastify';
import { dataEnvelope } from '@alda/contract/envelope';
import { tokens } from '@alda/contract/schemas/auth';
import { usageRecordsResponse, type UsageRecord } from '@alda/contract/schemas/usage';
import { DEMO_LINE_IDS, DEMO_PASSWORD, DEMO_USERS } from '../src/seed/demo-users';
import { seedDemoData } from '../src/seed/seed';
import type { AppDeps } from '../src/app';
import { createTestApp, parse, type TestApp } from './helper';

/** The moment the accounts tests live in: mid-June 2026 (summer time, UTC+1 in Tórshavn). */
export const NOW = new Date('2026-06-15T12:00:00.000Z');

/** Demo line ids, by whose they are (seed/demo-users.ts). */
export const LINES = DEMO_LINE_IDS;

export type DemoName = 'Jóannes' | 'Sunneva' | 'Guðrun' | 'Rói' | 'Ása';

/** Signs a demo customer in by e-mail and answers the Authorization header. */
export async function signIn(app: FastifyInstance, firstname: DemoName) {
  const user = DEMO_USERS.find((u) => u.firstname === firstname);
  if (!user) throw new Error(`no demo user ${firstname}`);
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/email-login',
    payload: { email: user.email, password: DEMO_PASSWORD },
  });
  if (res.statusCode !== 200)
    throw new Error(`login of ${firstname}: ${res.statusCode} ${res.body}`);
  const { data } = parse(dataEnvelope(tokens), res);
  return { authorization: `Bearer ${data.accessToken}` };
}

/** A test app on the seeded demo at {@link NOW}, with every demo customer signed in. */
export async function createDemoApp(
  env: Record<string, string> = {},
  deps: AppDeps = {},
): Promise<TestApp & { as: Record<DemoName, { authorization: string }> }> {
  const t = await createTestApp(env, { now: () => NOW, ...deps });
  await seedDemoData(t.app.db, NOW);
  const as = {
    Jóannes: await signIn(t.app, 'Jóannes'),
    Sunneva: await signIn(t.app, 'Sunneva'),
    Guðrun: await signIn(t.app, 'Guðrun'),
    Rói: await signIn(t.app, 'Rói'),
    Ása: await signIn(t.app, 'Ása'),
  };
  return { ...t, as };
}

/** The usage feed's service token of the demo apps that take usage ({@link createDemoApp} env). */
export const USAGE_FEED_TOKEN = 'usage-feed-token-for-tests-0123456789';

/** Books records through POST /api/usage/records as the charging system does; answers its counts. */
export async function sendUsage(app: FastifyInstance, records: readonly UsageRecord[]) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/usage/records',
    headers: { authorization: `Bearer ${USAGE_FEED_TOKEN}` },
    payload: { records },
  });
  if (res.statusCode !== 200) throw new Error(`usage feed: ${res.statusCode} ${res.body}`);
  return parse(dataEnvelope(usageRecordsResponse), res).data;
}
