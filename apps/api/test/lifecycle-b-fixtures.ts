import { randomUUID } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { dataEnvelope, errorEnvelope } from '@alda/contract/envelope';
import type { NewFamilyMemberInput } from '@alda/contract/schemas/family-members';
import { subscriptionsResponse } from '@alda/contract/schemas/subscriptions';
import { seedDemoData, seedReferenceData } from '../src/seed/seed';
import { signIn, type DemoName } from './demo-accounts';
import { createTestApp, parse, testClock, type TestApp } from './helper';
import { iccidEndingIn } from './provisioning-fixtures';

/*
 * Family members, transfers and hand-overs (docs/decisions/0056-subscription-lifecycle.md): the
 * seeded demo on a test clock that can be moved, with the provisioning worker run by hand.
 */

export type Headers = { authorization: string };

/** The provisioning step time of these tests (the network simulator's default). */
export const STEP_S = 30;

export interface LifecycleApp extends TestApp {
  clock: ReturnType<typeof testClock>;
  as: Record<DemoName, Headers>;
  /** Moves the clock past one provisioning step and runs the worker until nothing is due. */
  provision(): Promise<void>;
}

/** The demo, seeded at the clock's start (mid-June 2026), every demo customer signed in. */
export async function createLifecycleApp(
  start = '2026-06-15T12:00:00.000Z',
  env: Record<string, string> = {},
): Promise<LifecycleApp> {
  const clock = testClock(start);
  const t = await createTestApp(
    {
      ACCESS_TOKEN_TTL_S: '86400',
      RATE_LIMIT_MAX: '0',
      PROVISIONING_STEP_S: String(STEP_S),
      ...env,
    },
    { now: clock.now },
  );
  await seedReferenceData(t.app.db);
  await seedDemoData(t.app.db, clock.now());
  const names: DemoName[] = ['Jóannes', 'Sunneva', 'Guðrun', 'Rói', 'Ása'];
  const as = {} as Record<DemoName, Headers>;
  for (const name of names) as[name] = await signIn(t.app, name);
  return {
    ...t,
    clock,
    as,
    async provision() {
      clock.advance(STEP_S + 1);
      for (let i = 0; i < 5; i += 1) {
        const { performed } = await t.app.provisioning.runDue();
        if (performed === 0) break;
      }
    },
  };
}

let cards = 0;

/** A person to add with a SIM card they already hold (received → active in one step). */
export function memberWithCard(
  firstname: string,
  reservationId: string,
  overrides: Partial<NewFamilyMemberInput> = {},
): NewFamilyMemberInput {
  cards += 1;
  return {
    firstname,
    lastname: 'Joensen',
    phoneNumberReservationId: reservationId,
    eSim: false,
    simcardNumber: iccidEndingIn(String(4000 + cards)),
    porting: null,
    simPickupLocationId: null,
    simShippingAddress: null,
    ...overrides,
  };
}

/** PATCH /api/subscriptions { addMembers } with an Idempotency-Key (a new one by default). */
export function addMembers(
  app: FastifyInstance,
  headers: Headers,
  people: NewFamilyMemberInput[],
  key: string | null = randomUUID(),
) {
  return app.inject({
    method: 'PATCH',
    url: '/api/subscriptions',
    headers: { ...headers, 'accept-language': 'en', ...(key ? { 'idempotency-key': key } : {}) },
    payload: { addMembers: people },
  });
}

/** A PATCH of the lifecycle with an Idempotency-Key (a new one by default). */
export function patchWithKey(
  app: FastifyInstance,
  headers: Headers,
  url: string,
  payload: unknown,
  key: string | null = randomUUID(),
) {
  return app.inject({
    method: 'PATCH',
    url,
    headers: { ...headers, 'accept-language': 'en', ...(key ? { 'idempotency-key': key } : {}) },
    payload: payload as Record<string, unknown>,
  });
}

/** GET /api/subscriptions of a customer. */
export async function overview(app: FastifyInstance, headers: Headers, line?: string) {
  const res = await app.inject({
    method: 'GET',
    url: `/api/subscriptions${line ? `?line=${line}` : ''}`,
    headers,
  });
  expect(res.statusCode, res.body).toBe(200);
  return parse(dataEnvelope(subscriptionsResponse), res).data;
}

/** Asserts an error answer: status and code. */
export function expectError(res: LightMyRequestResponse, status: number, code: string) {
  expect(res.statusCode, res.body).toBe(status);
  expect(errorEnvelope.parse(res.json()).error.code).toBe(code);
}
