import { VAT_PERCENT } from '@alda/contract/constants';
import { faroeDateTime } from '@alda/contract/format/date';
import { splitVat } from '@alda/contract/format/money';
import type { NotificationParams } from '../../db/schema/data-transfers';
import type { ActionPayload } from '../../db/schema/actions';
import type { StoredReceiptLine, ReceiptText } from '../../modules/receipts/issue';
import { DAY, MINUTE, type Calendar } from './calendar';
import type { RowSink } from './copy';
import type { Ids } from './ids';
import type { Person } from './model';
import type { NumberPlan } from './numbers';
import type { Random } from './random';
import { SPECS, type RowOf } from './tables';

/*
 * What every part of the generator shares, and the rows several parts write the same way:
 * orders, payments with their receipts, notifications and activity-log entries.
 */

export interface GenContext {
  random: Random;
  ids: Ids;
  numbers: NumberPlan;
  cal: Calendar;
  seed: number;
  /** argon2id hash of SCALE_PASSWORD, made once. */
  passwordHash: string;
  /** The current batch's rows. */
  out: RowSink;
  receipts: ReceiptSerials;
  reuse: ReuseBuffer;
  /** Lines and users planned so far (ICCIDs, e-mails and record ids are made from them). */
  lineSeq: number;
  userSeq: number;
  /** How often each kind of thing was met so far (see {@link nth}). */
  seen: Map<string, number>;
}

/**
 * The how-many-th `thing` this is (1, 2, …). The rare states of a ratio (a payment pending, an
 * order in provisioning) are given to the first few of their kind too, so even a small data set
 * has every state the schema allows.
 */
export function nth(ctx: GenContext, thing: string): number {
  const n = (ctx.seen.get(thing) ?? 0) + 1;
  ctx.seen.set(thing, n);
  return n;
}

/**
 * Receipt serials (receipts.number `K-yyyy-nnnnnn`): each history month gets a range of its own
 * wide enough for every receipt a month can have, so numbers grow with the month of issue as
 * the app's one sequence makes them; the sequence is set past the largest afterwards.
 */
export class ReceiptSerials {
  private readonly next = new Map<number, number>();
  max = 0;

  constructor(private readonly perMonth: number) {}

  serial(month: number): number {
    const n = (this.next.get(month) ?? 0) + 1;
    this.next.set(month, n);
    const serial = (month + 1) * this.perMonth + n;
    if (serial > this.max) this.max = serial;
    return serial;
  }
}

/**
 * Numbers of live lines a cancelled line of the past may have had before (a number is given out
 * again after its quarantine): a bounded pool of recent lines, each used at most once.
 */
export class ReuseBuffer {
  private readonly items: { msisdn: string; createdMs: number }[] = [];

  constructor(private readonly size: number) {}

  offer(msisdn: string, createdMs: number, random: Random): void {
    if (this.items.length < this.size) this.items.push({ msisdn, createdMs });
    else this.items[random.int(0, this.size - 1)] = { msisdn, createdMs };
  }

  take(random: Random): { msisdn: string; createdMs: number } | undefined {
    if (this.items.length === 0) return undefined;
    const i = random.int(0, this.items.length - 1);
    const item = this.items[i];
    const last = this.items.pop();
    if (last && i < this.items.length) this.items[i] = last;
    return item;
  }
}

/** A time in [from, to). */
export const between = (ctx: GenContext, from: number, to: number) =>
  from + ctx.random.next() * Math.max(0, to - from);

/** A notification, read some time later unless it is recent. */
export function notify(
  ctx: GenContext,
  n: {
    userId: string;
    type: RowOf<typeof SPECS.notifications.table>['type'];
    params: NotificationParams;
    link?: string | null;
    atMs: number;
  },
): void {
  const age = ctx.cal.nowMs - n.atMs;
  const read = ctx.random.chance(age > 7 * DAY ? 0.92 : 0.45);
  const readMs = read ? Math.min(ctx.cal.nowMs, n.atMs + ctx.random.next() * 2 * DAY) : null;
  ctx.out.row(SPECS.notifications, {
    id: ctx.ids.next('notification'),
    userId: n.userId,
    type: n.type,
    params: n.params,
    link: n.link ?? null,
    createdAt: n.atMs,
    readAt: readMs,
  });
}

/** An entry of a customer's activity log. */
export function act(
  ctx: GenContext,
  a: {
    userId: string;
    lineId?: string | null;
    actorUserId?: string | null;
    type: RowOf<typeof SPECS.actions.table>['type'];
    payload?: ActionPayload;
    dataMb?: number | null;
    amountOere?: number | null;
    atMs: number;
  },
): void {
  ctx.out.row(SPECS.actions, {
    id: ctx.ids.next('action'),
    userId: a.userId,
    lineId: a.lineId ?? null,
    actorUserId: a.actorUserId ?? null,
    type: a.type,
    payload: a.payload ?? {},
    dataMb: a.dataMb ?? null,
    amountOere: a.amountOere ?? null,
    createdAt: a.atMs,
  });
}

type OrderRow = RowOf<typeof SPECS.orders.table>;

/** An order; the flags follow the timestamps (orders_complete_flag, orders_cancelled_flag). */
export function order(
  ctx: GenContext,
  o: Omit<
    OrderRow,
    'id' | 'isComplete' | 'isCancelled' | 'createdAt' | 'completedAt' | 'cancelledAt'
  > & {
    createdMs: number;
    completedMs?: number | null;
    cancelledMs?: number | null;
  },
): string {
  const id = ctx.ids.next('order');
  const { createdMs, completedMs = null, cancelledMs = null, ...rest } = o;
  ctx.out.row(SPECS.orders, {
    isMainSubscription: false,
    paymentStatus: 'not_required',
    isPorting: false,
    euPackage: false,
    ...rest,
    id,
    isComplete: completedMs !== null,
    isCancelled: cancelledMs !== null,
    createdAt: createdMs,
    completedAt: completedMs,
    cancelledAt: cancelledMs,
  });
  return id;
}

export interface Card {
  brand: string;
  last4: string;
  /** `MM/YY` */
  expiry: string;
}

const CARD_BRANDS = [
  ['Visa', 45],
  ['Mastercard', 40],
  ['Dankort', 15],
] as const;

export function randomCard(ctx: GenContext): Card {
  const now = new Date(ctx.cal.nowMs);
  const month = ctx.random.int(1, 12);
  const year = (now.getUTCFullYear() + ctx.random.int(1, 5)) % 100;
  return {
    brand: ctx.random.weighted(CARD_BRANDS),
    last4: ctx.random.digits(4),
    expiry: `${String(month).padStart(2, '0')}/${String(year).padStart(2, '0')}`,
  };
}

/** The test provider's id of a payment: unique per provider (payments_provider_payment_id_uq). */
export const providerPaymentIdOf = (paymentId: string) => `tp_${paymentId.replace(/-/g, '')}`;

export type PaymentState = 'created' | 'pending' | 'paid' | 'failed' | 'cancelled';

/** A payment through the built-in test provider (the provider `npm start` uses). */
export function payment(
  ctx: GenContext,
  p: {
    orderId: string;
    userId: string;
    amountOere: number;
    method: 'card' | 'agreement';
    state: PaymentState;
    card: Card | null;
    agreementRef?: string | null;
    failureReason?: string | null;
    createdMs: number;
    /** When it reached its state. */
    updatedMs: number;
  },
): string {
  const id = ctx.ids.next('payment');
  const paid = p.state === 'paid';
  ctx.out.row(SPECS.payments, {
    id,
    orderId: p.orderId,
    userId: p.userId,
    amountOere: p.amountOere,
    method: p.method,
    state: p.state,
    provider: 'test',
    providerPaymentId: p.state === 'created' ? null : providerPaymentIdOf(id),
    cardBrand: p.card?.brand ?? null,
    cardLast4: p.card?.last4 ?? null,
    cardExpiry: p.card?.expiry ?? null,
    providerAgreementRef: p.agreementRef ?? null,
    failureReason: p.failureReason ?? null,
    createdAt: p.createdMs,
    updatedAt: p.updatedMs,
    fulfilledAt: paid ? p.updatedMs : null,
  });
  return id;
}

export interface ReceiptItem {
  text: ReceiptText;
  oere: number;
}

/** A receipt as issue.ts writes it: lines with and without VAT, the customer as they are. */
export function receipt(
  ctx: GenContext,
  r: {
    orderId: string;
    paymentId: string;
    customer: Person & { userId: string };
    issuedMs: number;
    items: readonly ReceiptItem[];
    card: Card | null;
  },
): void {
  const gross = r.items.reduce((sum, item) => sum + item.oere, 0);
  const total = splitVat(gross);
  const lines: StoredReceiptLine[] = r.items.map((item) => {
    const price = splitVat(item.oere);
    return {
      description: item.text.fo,
      descriptionEn: item.text.en,
      quantity: 1,
      unitPrice: price,
      total: price,
    };
  });
  const { address } = r.customer;
  const month = Math.max(0, ctx.cal.monthIndexAt(r.issuedMs));
  const { year } = faroeDateTime(r.issuedMs);
  ctx.out.row(SPECS.receipts, {
    id: ctx.ids.next('receipt'),
    number: `K-${year}-${String(ctx.receipts.serial(month)).padStart(6, '0')}`,
    userId: r.customer.userId,
    orderId: r.orderId,
    paymentId: r.paymentId,
    issuedAt: r.issuedMs,
    lines,
    vatRate: VAT_PERCENT,
    netOere: total.net,
    vatOere: total.vat,
    grossOere: total.gross,
    customerName: `${r.customer.firstname} ${r.customer.lastname}`,
    customerAddress: `${address.address}, ${address.postCode} ${address.city}`,
    customerEmail: r.customer.email,
    cardBrand: r.card?.brand ?? null,
    cardLast4: r.card?.last4 ?? null,
  });
}

/** A few seconds to a minute: how long a provider takes to answer. */
export const settleMs = (ctx: GenContext) => ctx.random.int(2_000, MINUTE);
