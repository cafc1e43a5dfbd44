import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Locale } from '@alda/contract/locale';
import type { OrderKind, OrderPlacedResponse, PaymentMethod } from '@alda/contract/schemas/orders';
import type { Db } from '../../db/client';
import { uniqueViolationOf } from '../../db/errors';
import {
  IDEMPOTENCY_KEY_CONSTRAINT,
  ONE_MONTH_PAYMENT_CONSTRAINT,
  ONE_ORDER_PER_PACKAGE_REQUEST,
  type OrderRow,
} from '../../db/schema/orders';
import { AppError } from '../../errors';
import { requestLocale } from '../../i18n';
import { requireUser } from '../../plugins/auth';
import { findOrderByIdempotencyKey } from './lifecycle';

/** What an order paid by card is for (the payments core's `placePaidOrder` input, ADR 0050). */
export interface PaidOrderDraft {
  kind: OrderKind;
  priceOere: number;
  accountId?: string | null;
  lineId?: string | null;
  msisdn?: string | null;
  planId?: string | null;
  packageId?: string | null;
  billingPeriod?: string | null;
  /** The member's package request the owner pays for (ADR 0068). */
  packageRequestId?: string | null;
}

export interface PlacePaidOrderInput {
  userId: string;
  idempotencyKey: string;
  requestHash: string;
  method: PaymentMethod;
  order: PaidOrderDraft;
  /** What the provider's card page and statement say, e.g. 'Alda: 5 GB eykapakki'. */
  description: string;
  /** The customer's language: the provider's card page speaks it (default Faroese). */
  locale?: Locale;
  /** Asked from the native shell (`X-Alda-Platform: ios|android`): MobilePay may switch apps. */
  native?: boolean;
}

/** The seam to the payments core (`app.payments`, engineer B's `createPaymentService`). */
export interface PaymentPlacer {
  placePaidOrder(input: PlacePaidOrderInput): Promise<OrderPlacedResponse>;
}

/** Longest Idempotency-Key accepted (UUIDs and the like; anything longer is a mistake). */
const MAX_KEY_LENGTH = 200;

/** The request's `Idempotency-Key` header; 400 IDEMPOTENCY_KEY_REQUIRED without a usable one. */
export function idempotencyKeyOf(request: FastifyRequest): string {
  const header = request.headers['idempotency-key'];
  const key = typeof header === 'string' ? header.trim() : '';
  if (key === '' || key.length > MAX_KEY_LENGTH)
    throw new AppError('IDEMPOTENCY_KEY_REQUIRED', { field: 'Idempotency-Key' });
  return key;
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .filter(([, v]) => v !== undefined)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([k, v]) => [k, canonical(v)]),
    );
  return value;
}

/**
 * SHA-256 of what a purchase asks for: the endpoint and the parsed body with sorted keys, so the
 * same request hashes the same whatever the key order or defaults, and the same key sent to
 * another endpoint or with another body is refused (IDEMPOTENCY_KEY_REUSED).
 */
export function requestHashOf(endpoint: string, body: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify({ endpoint, body: canonical(body) }))
    .digest('hex');
}

/** The draft of an order already placed, for a retry that the payments core answers. */
function draftOf(row: OrderRow): PaidOrderDraft {
  return {
    kind: row.kind,
    priceOere: row.priceOere ?? 0,
    accountId: row.accountId,
    lineId: row.lineId,
    msisdn: row.msisdn,
    planId: row.planId,
    packageId: row.packageId,
    billingPeriod: row.billingPeriod,
    packageRequestId: row.packageRequestId,
  };
}

/**
 * What the rules decided: a new order to place, or an order of the same thing whose payment is
 * still open, to answer instead (so a second click cannot pay the same month twice).
 */
export type Prepared = { order: PaidOrderDraft; description: string } | { open: OrderRow };

/** Who asks for a purchase and how: the same for every purchase endpoint. */
export interface Purchase {
  userId: string;
  idempotencyKey: string;
  /** {@link requestHashOf} the endpoint and body. */
  requestHash: string;
  /** The customer's language: the provider's card page speaks it. */
  locale: Locale;
  /** The app runs in the native shell (`X-Alda-Platform: ios` or `android`). */
  native: boolean;
}

/**
 * The {@link Purchase} of an authenticated purchase request: its user, Idempotency-Key (400
 * without one), the hash of `endpoint` + parsed body, and its language.
 */
export function purchaseOf(request: FastifyRequest, endpoint: string): Purchase {
  return {
    userId: requireUser(request).id,
    idempotencyKey: idempotencyKeyOf(request),
    requestHash: requestHashOf(endpoint, request.body),
    locale: requestLocale(request),
    native: isNativeRequest(request),
  };
}

/** The native shell says which platform it runs on in `X-Alda-Platform`; the web sends none. */
export function isNativeRequest(request: FastifyRequest): boolean {
  const platform = request.headers['x-alda-platform'];
  return platform === 'ios' || platform === 'android';
}

/**
 * Places an order paid by card. A retry (an order with this key exists) goes straight to the
 * payments core, which answers the first answer or IDEMPOTENCY_KEY_REUSED — before the rules
 * are checked again, so a retry of a purchase that since made the month paid or the package
 * withdrawn still gets its first answer. Otherwise `prepare` checks the rules and builds the order.
 */
export async function placeOnce(
  db: Db,
  payments: () => PaymentPlacer,
  args: Purchase & { method: PaymentMethod; prepare: () => Promise<Prepared> },
): Promise<OrderPlacedResponse> {
  const { prepare, ...common } = args;
  const earlier = await findOrderByIdempotencyKey(db, args.userId, args.idempotencyKey);
  if (earlier)
    return payments().placePaidOrder({ ...common, order: draftOf(earlier), description: '' });
  const place = async (): Promise<OrderPlacedResponse> => {
    const prepared = await prepare();
    if ('open' in prepared) {
      // The earlier request's own key and hash: the core answers its order and card page.
      const { open } = prepared;
      if (open.idempotencyKey === null || open.requestHash === null)
        throw new Error(`open order ${open.id} has no idempotency key`);
      return payments().placePaidOrder({
        ...common,
        idempotencyKey: open.idempotencyKey,
        requestHash: open.requestHash,
        order: draftOf(open),
        description: '',
      });
    }
    return payments().placePaidOrder({ ...common, ...prepared });
  };
  try {
    return await place();
  } catch (error) {
    // A simultaneous request (another key) placed the same month — or paid the same package
    // request — between our check and our insert: the rules, checked again, now answer its
    // order (or ALREADY_PAID, CONFLICT).
    const violated = uniqueViolationOf(error);
    if (violated === ONE_MONTH_PAYMENT_CONSTRAINT || violated === ONE_ORDER_PER_PACKAGE_REQUEST)
      return place();
    throw error;
  }
}

/** The order this Idempotency-Key placed, if any; the key sent with another request: 422. */
async function orderOfKey(db: Db, purchase: Purchase): Promise<OrderRow | undefined> {
  const row = await findOrderByIdempotencyKey(db, purchase.userId, purchase.idempotencyKey);
  if (row && row.requestHash !== purchase.requestHash)
    throw new AppError('IDEMPOTENCY_KEY_REUSED', { field: 'Idempotency-Key' });
  return row;
}

/**
 * Places an order that is not paid now (a sign-up, a new SIM: ADR 0055) once per
 * Idempotency-Key. `place` inserts it with the purchase's key and hash; a retry — also one that
 * races the first request into the unique index — answers the order the key placed, and the same
 * key with another body is IDEMPOTENCY_KEY_REUSED.
 */
export async function placeUnpaidOnce(
  db: Db,
  purchase: Purchase,
  place: () => Promise<OrderRow>,
): Promise<OrderRow> {
  const earlier = await orderOfKey(db, purchase);
  if (earlier) return earlier;
  try {
    return await place();
  } catch (error) {
    if (uniqueViolationOf(error) === IDEMPOTENCY_KEY_CONSTRAINT) {
      const winner = await orderOfKey(db, purchase);
      if (winner) return winner;
    }
    throw error;
  }
}
