import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { dataEnvelope } from '@alda/contract/envelope';
import { luhnCheckDigit } from '@alda/contract/rules/iccid';
import { tokens } from '@alda/contract/schemas/auth';
import { reservedNumbersResponse } from '@alda/contract/schemas/auth-register';
import { orderPlacedResponse } from '@alda/contract/schemas/orders';
import type { SignupPayloadInput } from '@alda/contract/schemas/signup';
import { paymentAgreements } from '../src/db/schema/agreements';
import { parse } from './helper';
import { registrationForm } from './support/registration';

/** A valid ITU-T E.118 ICCID (19 digits, Luhn) ending in `tail` before its check digit. */
export function iccidEndingIn(tail: string): string {
  const payload = `894298${'1'.repeat(12 - tail.length)}${tail}`;
  return `${payload}${luhnCheckDigit(payload)}`;
}

/** A valid ICCID whose digits end in `0000` (check digit included): the simulator rejects a port. */
export function rejectedIccid(): string {
  for (let i = 0; i < 100_000; i += 1) {
    const payload = `89429811${String(i).padStart(7, '0')}000`;
    if (luhnCheckDigit(payload) === '0') return `${payload}0`;
  }
  throw new Error('no ICCID ending in 0000');
}

let registered = 0;
const base = Math.floor(Math.random() * 5000);

/**
 * A new customer, registered through the API and signed in, with an active card on file (the
 * card flow itself is tested in agreements/payments tests). Answers the user id and headers.
 */
export async function newCustomer(
  app: FastifyInstance,
  options: { agreement?: boolean; locale?: 'fo' | 'en' } = {},
): Promise<{ userId: string; headers: { authorization: string }; phoneNumber: string }> {
  registered += 1;
  const n = base + registered;
  const phoneNumber = `59${String(n).padStart(4, '0')}`;
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/register',
    remoteAddress: `10.77.${Math.floor(n / 250)}.${n % 250}`,
    headers: { 'accept-language': options.locale ?? 'fo' },
    payload: registrationForm({
      lastname: `Hansen${n}`,
      email: `kari${n}-${Date.now()}@example.fo`,
      phoneNumber,
    }),
  });
  if (res.statusCode !== 200) throw new Error(`register: ${res.statusCode} ${res.body}`);
  const accessToken = parse(dataEnvelope(tokens), res).data.accessToken;
  const me = await app.inject({
    method: 'GET',
    url: '/api/auth/me',
    headers: { authorization: `Bearer ${accessToken}` },
  });
  const userId = (me.json() as { data: { id: string } }).data.id;
  if (options.agreement !== false)
    await app.db.insert(paymentAgreements).values({
      userId,
      status: 'active',
      cardBrand: 'Visa',
      cardLast4: '4242',
      cardExpiry: '12/30',
      providerReference: `card-${userId}`,
    });
  return { userId, headers: { authorization: `Bearer ${accessToken}` }, phoneNumber };
}

/** Reserves `msisdn` for the caller (POST /api/auth/reserved-numbers) and answers its id. */
export async function reserve(
  app: FastifyInstance,
  headers: { authorization: string },
  msisdn: string,
): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/reserved-numbers',
    remoteAddress: `10.88.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
    headers,
    payload: { phoneNumber: msisdn },
  });
  const data = parse(dataEnvelope(reservedNumbersResponse), res).data;
  if (!data.reservationId) throw new Error(`${msisdn} not reserved: ${res.body}`);
  return data.reservationId;
}

/** A valid sign-up: individual plan, eSIM, a new number. */
export function signupBody(overrides: Partial<SignupPayloadInput> = {}): SignupPayloadInput {
  return {
    planId: 'individual-5',
    euPackage: false,
    phoneNumberReservationId: null,
    eSim: true,
    hasAcceptedBindingPeriod: true,
    hasAcceptedTerms: true,
    sameAddressConfirmed: false,
    simcardNumber: null,
    porting: null,
    simPickupLocationId: null,
    simShippingAddress: null,
    ...overrides,
  };
}

/** POST /api/subscriptions with an Idempotency-Key. */
export function postSignup(
  app: FastifyInstance,
  headers: { authorization: string },
  body: unknown,
  key: string | null,
  locale = 'en',
) {
  return app.inject({
    method: 'POST',
    url: '/api/subscriptions',
    headers: {
      ...headers,
      'accept-language': locale,
      ...(key === null ? {} : { 'idempotency-key': key }),
    },
    payload: body as Record<string, unknown>,
  });
}

/**
 * A new customer's sign-up, placed: `number` reserved first (a porting sign-up reserves
 * nothing), then POST /api/subscriptions with `body` over the defaults, answered 201. The
 * customer and the order's id.
 */
export async function placeSignup(
  app: FastifyInstance,
  number: string,
  body: Partial<SignupPayloadInput> = {},
) {
  const customer = await newCustomer(app);
  const reservationId = body.porting ? null : await reserve(app, customer.headers, number);
  const res = await postSignup(
    app,
    customer.headers,
    signupBody({ phoneNumberReservationId: reservationId, ...body }),
    randomUUID(),
  );
  expect(res.statusCode, res.body).toBe(201);
  return { ...customer, orderId: parse(dataEnvelope(orderPlacedResponse), res).data.order.id };
}
