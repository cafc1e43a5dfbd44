import { createHash, randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { z } from 'zod';
import type { Db } from '../../../db/client';
import {
  PaymentProviderError,
  PROVIDER_EVENT_TYPES,
  WebhookVerificationError,
  type PaymentProvider,
  type ProviderEvent,
  type ProviderEventType,
  type ProviderPaymentView,
} from '../provider';
import { signatureHeader, SIGNATURE_HEADER, verifySignature } from '../signature';
import { brandOf, isExpired, type CardBehaviour } from './cards';
import {
  anythingDue,
  claimDueWebhooks,
  findCard,
  findProviderPayment,
  insertCard,
  insertProviderPayment,
  insertWebhooks,
  lockDueSettlements,
  lockProviderPayment,
  lockStaleCheckouts,
  markWebhookDelivered,
  markWebhookFailed,
  stopCard,
  updateProviderPayment,
  type TestProviderPaymentRow,
} from './store';

/** A webhook POST as the provider sends it; tests may deliver it through `app.inject`. */
export interface WebhookRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** Sends one webhook and resolves with the HTTP status (throws when nothing answered). */
export type WebhookDelivery = (request: WebhookRequest) => Promise<{ status: number }>;

export interface TestProviderOptions {
  db: Db;
  now: () => Date;
  log: {
    info(obj: object, msg: string): void;
    warn(obj: object, msg: string): void;
  };
  /** Absolute base of the provider's pages (the API's public address). */
  baseUrl: string;
  webhookUrl: string;
  webhookSecret: string;
  /** How long the slow test card takes to succeed. */
  slowDelayMs: number;
  /** Send every webhook twice. */
  duplicates: boolean;
  /** Hold every webhook back this long before the first attempt. */
  webhookDelayMs: number;
  /** How webhooks are sent; by default an HTTP POST with a 10 s timeout. */
  deliver?: WebhookDelivery | undefined;
}

/** A checkout nobody completed expires after this long (as hosted pages do with real ones). */
export const CHECKOUT_TTL_MS = 60 * 60 * 1000;

/** First retry after 1 s, doubling up to 5 min; after this many attempts the webhook is parked. */
const MAX_ATTEMPTS = 20;
const MAX_BACKOFF_MS = 5 * 60 * 1000;
/** While one worker delivers a webhook, others leave it alone for this long. */
const DELIVERY_LEASE_MS = 30_000;
const DELIVERY_TIMEOUT_MS = 10_000;

const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

/** Ids that sort by creation time, so webhooks due at the same moment go out in order. */
let sequence = 0;
const orderedId = (prefix: string, at: Date) => {
  sequence = (sequence + 1) % 1_000_000;
  return `${prefix}_${String(at.getTime()).padStart(15, '0')}_${String(sequence).padStart(6, '0')}_${randomBytes(4).toString('hex')}`;
};

const cardSchema = z.object({
  brand: z.string().min(1).max(40),
  last4: z.string().regex(/^\d{4}$/),
  expiry: z.string().regex(/^(0[1-9]|1[0-2])\/\d{2}$/),
});

/** The wire format of the test provider's webhooks. */
export const testProviderEventSchema = z.object({
  id: z.string().min(1).max(200),
  type: z.enum(PROVIDER_EVENT_TYPES),
  providerPaymentId: z.string().min(1).max(200),
  reference: z.string().min(1).max(200),
  occurredAt: z.iso.datetime({ offset: true }),
  card: cardSchema.optional(),
  agreementRef: z.string().min(1).max(200).optional(),
  failureReason: z.string().min(1).max(100).optional(),
});

async function deliverOverHttp(request: WebhookRequest): Promise<{ status: number }> {
  const response = await fetch(request.url, {
    method: 'POST',
    headers: request.headers,
    body: request.body,
    signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
  });
  await response.arrayBuffer().catch(() => undefined);
  return { status: response.status };
}

export interface CardSubmission {
  number: string;
  expiry: string;
  behaviour: CardBehaviour;
}

/**
 * The built-in test card provider (`PAYMENT_PROVIDER=test`). It behaves like a separate company:
 * its own tables, its own hosted card page (test-provider/routes.ts), and signed webhooks sent
 * over HTTP from a durable queue with retries and backoff. The API learns about payments only
 * through those webhooks and {@link PaymentProvider.getPayment}.
 */
export function createTestProvider(options: TestProviderOptions) {
  const { db, now, log } = options;
  const deliver = options.deliver ?? deliverOverHttp;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = true;
  /** A test is running a round by hand (`tick()`), with or without the timer. */
  let manual = false;

  function eventOf(
    payment: TestProviderPaymentRow,
    type: ProviderEventType,
    at: Date,
    extra: Partial<ProviderEvent> = {},
  ): ProviderEvent {
    return {
      id: newId('evt'),
      type,
      providerPaymentId: payment.id,
      reference: payment.merchantReference,
      occurredAt: at.toISOString(),
      ...(payment.cardBrand && payment.cardLast4 && payment.cardExpiry
        ? {
            card: {
              brand: payment.cardBrand,
              last4: payment.cardLast4,
              expiry: payment.cardExpiry,
            },
          }
        : {}),
      ...(payment.kind === 'card_setup' && payment.cardId ? { agreementRef: payment.cardId } : {}),
      ...(payment.failureReason ? { failureReason: payment.failureReason } : {}),
      ...extra,
    };
  }

  /** Queues events (twice with duplicates on, late with a delay) in the caller's transaction. */
  async function enqueue(tx: Db, events: ProviderEvent[], at: Date): Promise<void> {
    const due = new Date(at.getTime() + options.webhookDelayMs);
    const copies = options.duplicates ? 2 : 1;
    const rows = [];
    for (const event of events) {
      const body = JSON.stringify(event);
      for (let copy = 0; copy < copies; copy += 1) {
        rows.push({
          id: orderedId('wh', at),
          paymentId: event.providerPaymentId,
          body,
          nextAttemptAt: due,
        });
      }
    }
    await insertWebhooks(tx, rows);
  }

  async function succeed(tx: Db, payment: TestProviderPaymentRow, at: Date) {
    const done = await updateProviderPayment(tx, payment.id, {
      state: 'succeeded',
      settleAt: null,
      updatedAt: at,
    });
    await enqueue(tx, [eventOf(done, 'payment.succeeded', at)], at);
  }

  async function fail(tx: Db, payment: TestProviderPaymentRow, reason: string, at: Date) {
    const done = await updateProviderPayment(tx, payment.id, {
      state: 'failed',
      failureReason: reason,
      settleAt: null,
      updatedAt: at,
    });
    await enqueue(tx, [eventOf(done, 'payment.failed', at)], at);
  }

  /** Puts a payment in processing (pending webhook now) and settles it now or later. */
  async function process(tx: Db, payment: TestProviderPaymentRow, slow: boolean, at: Date) {
    const processing = await updateProviderPayment(tx, payment.id, {
      state: 'processing',
      settleAt: slow ? new Date(at.getTime() + options.slowDelayMs) : null,
      updatedAt: at,
    });
    await enqueue(tx, [eventOf(processing, 'payment.pending', at)], at);
    if (!slow) await succeed(tx, processing, at);
  }

  const provider: PaymentProvider = {
    name: 'test',
    // A card company: its hosted card page only, and an agreement is a card check on it.
    checkoutMethods: ['card'],
    agreementVia: 'card',

    // `method` and `native` do not matter here: the page takes cards (the payments core never
    // asks this provider for a method it does not list in `checkoutMethods`).
    async createCheckout(input) {
      const at = now();
      const payment = await insertProviderPayment(db, {
        id: newId('tp'),
        kind: input.saveCard ? 'card_setup' : 'checkout',
        merchantReference: input.reference,
        amountOere: input.saveCard ? 0 : input.amountOere,
        description: input.description,
        returnUrl: input.returnUrl,
        createdAt: at,
        updatedAt: at,
      });
      return {
        providerPaymentId: payment.id,
        // The page speaks the app's language (as real providers take a language parameter).
        checkoutUrl: `${options.baseUrl}/test-provider/checkout/${payment.id}?lang=${input.locale}`,
      };
    },

    async chargeAgreement(input) {
      const at = now();
      const card = await findCard(db, input.agreementRef);
      const id = newId('tp');
      await db.transaction(async (tx) => {
        const payment = await insertProviderPayment(tx, {
          id,
          kind: 'agreement_charge',
          merchantReference: input.reference,
          amountOere: input.amountOere,
          description: input.description,
          cardId: card?.id ?? null,
          cardBrand: card?.brand ?? null,
          cardLast4: card?.last4 ?? null,
          cardExpiry: card?.expiry ?? null,
          createdAt: at,
          updatedAt: at,
        });
        if (!card) await fail(tx, payment, 'card_not_found', at);
        // Declined like any refused charge: the payments core records it as a failed payment.
        else if (card.stoppedAt !== null) await fail(tx, payment, 'agreement_stopped', at);
        else if (isExpired(card.expiry, at)) await fail(tx, payment, 'expired_card', at);
        else if (card.behaviour === 'decline') await fail(tx, payment, 'declined', at);
        else await process(tx, payment, card.behaviour === 'slow', at);
      });
      kick();
      return { providerPaymentId: id };
    },

    async stopAgreement(agreementRef) {
      // Idempotent: a stopped card stays stopped (its first time kept). A reference this provider
      // never issued has nothing to stop, and nothing can charge it (card_not_found): ended too.
      if (!(await stopCard(db, agreementRef, now()))) {
        log.info({ agreementRef }, 'test provider: stop of an unknown agreement (nothing to stop)');
      }
    },

    verifyWebhook(rawBody: Buffer, headers: IncomingHttpHeaders): ProviderEvent {
      verifySignature(options.webhookSecret, rawBody, headers, now());
      let json: unknown;
      try {
        json = JSON.parse(rawBody.toString('utf8'));
      } catch {
        throw new WebhookVerificationError('body is not JSON');
      }
      const parsed = testProviderEventSchema.safeParse(json);
      if (!parsed.success) throw new WebhookVerificationError('body is not an event');
      return parsed.data;
    },

    async refund(input) {
      const at = now();
      return db.transaction(async (tx) => {
        const payment = await lockProviderPayment(tx, input.providerPaymentId);
        if (!payment) throw new PaymentProviderError('refund: unknown payment');
        if (payment.refundId !== null) {
          // Refunded already: the same request again gets the same refund; another is refused.
          if (payment.refundKey === input.idempotencyKey)
            return { providerRefundId: payment.refundId };
          throw new PaymentProviderError('refund: payment already refunded');
        }
        if (payment.state !== 'succeeded') throw new PaymentProviderError('refund: not charged');
        if (
          !Number.isSafeInteger(input.amountOere) ||
          input.amountOere <= 0 ||
          input.amountOere > payment.amountOere
        ) {
          throw new PaymentProviderError(
            'refund: amount must be more than 0 and at most the charge',
          );
        }
        if (input.amountOere < payment.amountOere) {
          // A partial refund (the staff console). This store keeps one refund per charge (the
          // whole one, below), so a partial one is not written down: its id is derived from the
          // idempotency key, so a retry answers the same refund; the total of several partial
          // refunds is bounded by the merchant, under its payment row lock (ADR 0075).
          const digest = createHash('sha256')
            .update(`${payment.id}:${input.idempotencyKey}`)
            .digest('hex');
          return { providerRefundId: `re_${digest.slice(0, 24)}` };
        }
        const refundId = newId('re');
        await updateProviderPayment(tx, payment.id, {
          refundId,
          refundKey: input.idempotencyKey,
          refundedAt: at,
          updatedAt: at,
        });
        return { providerRefundId: refundId };
      });
    },

    async getPayment(providerPaymentId): Promise<ProviderPaymentView | null> {
      const row = await findProviderPayment(db, providerPaymentId);
      if (!row) return null;
      const card =
        row.cardBrand && row.cardLast4 && row.cardExpiry
          ? { brand: row.cardBrand, last4: row.cardLast4, expiry: row.cardExpiry }
          : undefined;
      const state =
        row.state === 'processing' ? 'pending' : row.state === 'created' ? 'created' : row.state;
      return {
        state,
        card,
        agreementRef: row.kind === 'card_setup' ? (row.cardId ?? undefined) : undefined,
        failureReason: row.failureReason ?? undefined,
      };
    },
  };

  /**
   * The card form was submitted with a valid card (or cancelled: `card` null). Answers the
   * payment as it is afterwards, or null when it does not exist.
   */
  async function submit(
    id: string,
    card: CardSubmission | null,
  ): Promise<TestProviderPaymentRow | null> {
    const at = now();
    const result = await db.transaction(async (tx) => {
      const payment = await lockProviderPayment(tx, id);
      if (!payment) return null;
      if (payment.state !== 'created') return payment;
      if (at.getTime() - payment.createdAt.getTime() > CHECKOUT_TTL_MS) {
        await fail(tx, payment, 'expired', at);
      } else if (!card) {
        await fail(tx, payment, 'cancelled', at);
      } else {
        const last4 = card.number.slice(-4);
        const brand = brandOf(card.number);
        const withCard = await updateProviderPayment(tx, id, {
          cardBrand: brand,
          cardLast4: last4,
          cardExpiry: card.expiry,
          updatedAt: at,
        });
        if (card.behaviour === 'decline') {
          await fail(tx, withCard, 'declined', at);
        } else {
          let current = withCard;
          if (payment.kind === 'card_setup') {
            const stored = await insertCard(tx, {
              id: newId('card'),
              brand,
              last4,
              expiry: card.expiry,
              behaviour: card.behaviour,
              createdAt: at,
            });
            current = await updateProviderPayment(tx, id, { cardId: stored.id });
          }
          await process(tx, current, card.behaviour === 'slow', at);
        }
      }
      return lockProviderPayment(tx, id);
    });
    kick();
    return result ?? null;
  }

  /**
   * The card company's answer to a slow card, now instead of after `slowDelayMs` (demo mode's
   * `POST /dev/payments/:orderId/answer`): a browser journey asserts the waiting screen
   * for as long as it needs and then lets the payment go on, instead of racing a timer (issue
   * 41). Only a slow payment still waiting is answered; false for anything else.
   */
  async function answerNow(id: string): Promise<boolean> {
    const at = now();
    const answered = await db.transaction(async (tx) => {
      const payment = await lockProviderPayment(tx, id);
      if (payment?.state !== 'processing' || payment.settleAt === null) return false;
      await succeed(tx, payment, at);
      return true;
    });
    if (answered) kick();
    return answered;
  }

  /** Settles due slow payments and expires abandoned checkouts. */
  async function settle(): Promise<void> {
    const at = now();
    await db.transaction(async (tx) => {
      for (const payment of await lockDueSettlements(tx, at, 50)) await succeed(tx, payment, at);
      const stale = await lockStaleCheckouts(tx, new Date(at.getTime() - CHECKOUT_TTL_MS), 50);
      for (const payment of stale) await fail(tx, payment, 'expired', at);
    });
  }

  /** Delivers the webhooks that are due; failures are retried with backoff. */
  async function deliverDue(): Promise<number> {
    const claimed = await claimDueWebhooks(db, now(), DELIVERY_LEASE_MS, 20);
    for (const webhook of claimed) {
      if (stopped && !manual) break;
      const at = now();
      let error: string | null = null;
      try {
        const { status } = await deliver({
          url: options.webhookUrl,
          headers: {
            'content-type': 'application/json',
            [SIGNATURE_HEADER]: signatureHeader(options.webhookSecret, at, webhook.body),
          },
          body: webhook.body,
        });
        if (status < 200 || status >= 300) error = `HTTP ${status}`;
      } catch (cause) {
        error = cause instanceof Error ? cause.message : String(cause);
      }
      if (error === null) {
        await markWebhookDelivered(db, webhook.id, now());
      } else {
        const attempts = webhook.attempts + 1;
        const next =
          attempts >= MAX_ATTEMPTS
            ? null
            : new Date(now().getTime() + Math.min(1000 * 2 ** (attempts - 1), MAX_BACKOFF_MS));
        await markWebhookFailed(db, webhook.id, next, error);
        log.warn(
          { webhook: webhook.id, attempts, error, nextAttemptAt: next?.toISOString() ?? null },
          'test provider: webhook delivery failed',
        );
      }
    }
    return claimed.length;
  }

  /**
   * One round of the provider's background work (tests call it; the timer does too). Most
   * seconds nothing is due: one look on the partial indexes says so, and the round ends there
   * instead of opening a transaction that locks nothing.
   */
  async function tick(): Promise<void> {
    const at = now();
    if (!(await anythingDue(db, at, new Date(at.getTime() - CHECKOUT_TTL_MS)))) return;
    await settle();
    while ((await deliverDue()) > 0) {
      // keep going while there is due work
    }
  }

  function runRound(): void {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = tick()
      .catch((error: unknown) => log.warn({ err: error }, 'test provider round failed'))
      .finally(() => {
        running = null;
        if (again) {
          again = false;
          runRound();
        }
      });
  }

  /** Work was queued: deliver it now rather than on the next timer round. */
  function kick(): void {
    if (!stopped) setImmediate(runRound);
  }

  return {
    provider,
    submit,
    answerNow,
    tick: async () => {
      manual = true;
      try {
        await tick();
      } finally {
        manual = false;
      }
    },
    /** Starts the worker: a round every `intervalMs`, plus one right after new work. */
    start(intervalMs = 1000) {
      if (timer) return;
      stopped = false;
      timer = setInterval(runRound, intervalMs);
      timer.unref();
      runRound();
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      timer = null;
      await running;
    },
  };
}

export type TestProvider = ReturnType<typeof createTestProvider>;
