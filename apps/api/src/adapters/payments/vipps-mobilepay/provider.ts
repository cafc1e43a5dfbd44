import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import { eq } from 'drizzle-orm';
import { APP_VERSION } from '@alda/contract/constants';
import type { Database, Db } from '../../../db/client';
import { paymentWebhookRegistrations } from '../../../db/schema/payments';
import {
  PaymentOutcomeUnknownError,
  PaymentProviderError,
  WebhookVerificationError,
  type PaymentProvider,
  type ProviderEvent,
  type ProviderPaymentView,
} from '../provider';
import { createVippsClient, VippsHttpError, type VippsCredentials } from './client';
import {
  chargeDueDate,
  clip,
  CURRENCY,
  epaymentAmount,
  epaymentKey,
  paymentReference,
  recurringAmount,
  recurringKey,
} from './rules';
import { verifyVippsWebhook } from './signature';
import { createWebhookSecrets, notifyWebhookSecretsChanged } from './webhook-secrets';

/*
 * Vipps MobilePay behind the PaymentProvider seam (issue 42, docs/decisions/0081-vipps-mobilepay.md).
 *
 * - One-off payments (extra data, top-up, a month paid by hand, fees): ePayment API v1, MobilePay
 *   (`WALLET`) or a free-standing card (`CARD`, `WEB_REDIRECT`); our payment id is the
 *   `reference`. Reserve → capture: an AUTHORIZED payment is captured in full by the payments core
 *   (`capture`) because what was bought is delivered at once; a reservation we will not use is
 *   cancelled (`cancelReservation`).
 * - The payment agreement: Recurring API v3. "Registering" is a drafted agreement the customer
 *   approves in MobilePay; the month's charge is a Recurring charge (`DIRECT_CAPTURE`, due two days
 *   ahead as their rules require) whose `orderId` is our payment id.
 * - Events: ePayment webhooks through the Webhooks API, signed with HMAC-SHA256 (signature.ts); the
 *   Recurring API is polled ("You must implement polling on the agreement"), which the
 *   reconciliation job does for every open payment.
 *
 * The provider's id of a payment says which API holds it: `ep:<reference>`,
 * `ag:<agreementId>` (an agreement being approved), `ch:<agreementId>:<chargeId>`.
 */

export const VIPPS_MOBILEPAY = 'vipps-mobilepay';

/** The ePayment events we ask the Webhooks API for. */
export const EPAYMENT_WEBHOOK_EVENTS = [
  'epayments.payment.created.v1',
  'epayments.payment.aborted.v1',
  'epayments.payment.expired.v1',
  'epayments.payment.cancelled.v1',
  'epayments.payment.captured.v1',
  'epayments.payment.refunded.v1',
  'epayments.payment.authorized.v1',
  'epayments.payment.terminated.v1',
] as const;

/** What a customer may approve a variable monthly charge up to (suggested; they may change it). */
const AGREEMENT_SUGGESTED_MAX_OERE = 150_000;
/** Days a failed Recurring charge is retried by the provider after its due date. */
const CHARGE_RETRY_DAYS = 3;

export interface VippsMobilePayOptions {
  credentials: VippsCredentials;
  db: Db;
  now: () => Date;
  log: FastifyBaseLogger;
  /** The web app's address: the agreement's "manage" page is on it. */
  appUrl: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
}

type ProviderId =
  | { api: 'epayment'; reference: string }
  | { api: 'agreement'; agreementId: string }
  | { api: 'charge'; agreementId: string; chargeId: string };

export function parseProviderId(id: string): ProviderId {
  const [kind, first, second] = id.split(':');
  if (kind === 'ep' && first) return { api: 'epayment', reference: first };
  if (kind === 'ag' && first) return { api: 'agreement', agreementId: first };
  if (kind === 'ch' && first && second)
    return { api: 'charge', agreementId: first, chargeId: second };
  throw new PaymentProviderError(`not a Vipps MobilePay payment id: ${id}`);
}

const enc = encodeURIComponent;

/**
 * Runs a call that makes something at the provider. The client says when its answer was lost
 * ({@link PaymentOutcomeUnknownError}: a time-out, a dropped connection, a 5xx); it cannot know
 * the id the thing has there if it was made, so it is added here. That id is ours and predictable
 * (the reference, or the charge's `orderId`): reconciliation reads it (ADR 0081, decision 10).
 */
async function makes<T>(providerPaymentId: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!(error instanceof PaymentOutcomeUnknownError) || error.providerPaymentId !== undefined) {
      throw error;
    }
    throw new PaymentOutcomeUnknownError(error.message, { cause: error, providerPaymentId });
  }
}

interface EpaymentAmount {
  currency: string;
  value: number;
}
interface GetPaymentResponse {
  state: 'CREATED' | 'ABORTED' | 'EXPIRED' | 'AUTHORIZED' | 'TERMINATED';
  amount: EpaymentAmount;
  aggregate: {
    authorizedAmount: EpaymentAmount;
    capturedAmount: EpaymentAmount;
    cancelledAmount: EpaymentAmount;
    refundedAmount: EpaymentAmount;
  };
  paymentMethod?: { type?: string };
}
interface PaymentEvent {
  name: string;
  success: boolean;
  amount: EpaymentAmount;
  timestamp: string;
}
interface AgreementResponse {
  id: string;
  status?: 'PENDING' | 'ACTIVE' | 'STOPPED' | 'EXPIRED';
}
interface ChargeResponse {
  id: string;
  status: string;
  amount: number;
  currency?: string;
}

/** The ePayment state, its aggregate and event log in our words (reconciliation, the console). */
export function viewOfEpayment(
  payment: GetPaymentResponse,
  events: readonly PaymentEvent[],
): ProviderPaymentView {
  const wallet = payment.paymentMethod?.type === 'WALLET';
  const card = wallet ? { brand: 'MobilePay', last4: null, expiry: null } : undefined;
  const amount = { currency: payment.amount.currency, oere: payment.amount.value };
  switch (payment.state) {
    case 'CREATED':
      return { state: 'created' };
    case 'ABORTED':
      return { state: 'failed', failureReason: 'cancelled' };
    case 'EXPIRED':
      return { state: 'failed', failureReason: 'expired' };
    case 'TERMINATED':
      return { state: 'failed', failureReason: 'cancelled' };
    case 'AUTHORIZED': {
      const captured =
        payment.aggregate.capturedAmount.value >= payment.aggregate.authorizedAmount.value ||
        events.some((event) => event.name === 'CAPTURED' && event.success);
      return { state: captured ? 'succeeded' : 'authorized', card, amount };
    }
  }
}

/** A Recurring charge's status in our words. */
export function viewOfCharge(charge: ChargeResponse): ProviderPaymentView {
  const amount = { currency: charge.currency ?? CURRENCY, oere: charge.amount };
  switch (charge.status) {
    case 'CHARGED':
    case 'PARTIALLY_CAPTURED':
    case 'PARTIALLY_REFUNDED':
    case 'REFUNDED':
      return { state: 'succeeded', amount };
    case 'RESERVED':
      return { state: 'authorized', amount };
    case 'FAILED':
      return { state: 'failed', failureReason: 'declined' };
    case 'CANCELLED':
      return { state: 'failed', failureReason: 'cancelled' };
    default: // PENDING, DUE, PROCESSING
      return { state: 'pending' };
  }
}

/** An agreement being approved, in our words: active is a registered payment agreement. */
export function viewOfAgreement(agreement: AgreementResponse): ProviderPaymentView {
  switch (agreement.status) {
    case 'ACTIVE':
      return {
        state: 'succeeded',
        agreementRef: agreement.id,
        card: { brand: 'MobilePay', last4: null, expiry: null },
      };
    case 'STOPPED':
      return { state: 'failed', failureReason: 'cancelled' };
    case 'EXPIRED':
      return { state: 'failed', failureReason: 'expired' };
    default:
      return { state: 'created' };
  }
}

const EVENT_TYPES: Record<string, ProviderEvent['type']> = {
  AUTHORIZED: 'payment.authorized',
  CAPTURED: 'payment.succeeded',
  ABORTED: 'payment.failed',
  EXPIRED: 'payment.failed',
  CANCELLED: 'payment.failed',
  TERMINATED: 'payment.failed',
};
const FAILURE_REASONS: Record<string, string> = {
  ABORTED: 'cancelled',
  EXPIRED: 'expired',
  CANCELLED: 'cancelled',
  TERMINATED: 'cancelled',
};

/**
 * An ePayment webhook body (`WebhookEvent`) as the payments core's event. A redelivery is the
 * same bytes, so the event id is the body's SHA-256 (the body has no id of its own).
 */
export function eventOfWebhook(rawBody: Buffer): ProviderEvent {
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(rawBody.toString('utf8')) as Record<string, unknown>;
  } catch {
    throw new WebhookVerificationError('body is not JSON');
  }
  const { reference, name, success, amount, timestamp } = body;
  if (typeof reference !== 'string' || typeof name !== 'string' || typeof success !== 'boolean') {
    throw new WebhookVerificationError('not an ePayment event');
  }
  const money = amount as { currency?: unknown; value?: unknown } | undefined;
  // A failed action (a capture that did not go through) moves nothing; nor do CREATED, REFUNDED.
  const type = success ? (EVENT_TYPES[name] ?? 'payment.other') : 'payment.other';
  return {
    id: createHash('sha256').update(rawBody).digest('hex'),
    type,
    providerPaymentId: `ep:${reference}`,
    reference,
    occurredAt: typeof timestamp === 'string' ? timestamp : new Date(0).toISOString(),
    failureReason: type === 'payment.failed' ? FAILURE_REASONS[name] : undefined,
    amount:
      money && typeof money.currency === 'string' && typeof money.value === 'number'
        ? { currency: money.currency, oere: money.value }
        : undefined,
  };
}

export type VippsMobilePayProvider = ReturnType<typeof createVippsMobilePayProvider>;

export function createVippsMobilePayProvider(options: VippsMobilePayOptions) {
  const { db, now, log } = options;
  const client = createVippsClient({
    credentials: options.credentials,
    now,
    fetch: options.fetch,
    timeoutMs: options.timeoutMs,
    // Their `Vipps-System-Version`: the version of the app they are talking to.
    systemVersion: APP_VERSION,
  });
  const { call } = client;
  // In memory, following every registration (webhook-secrets.ts): a webhook reads no database.
  const secrets = createWebhookSecrets({ db, provider: VIPPS_MOBILEPAY, log });

  /** A 404 from a GET: the provider does not know it. */
  async function getOrNull<T>(path: string): Promise<T | null> {
    try {
      return await call<T>('GET', path);
    } catch (error) {
      if (error instanceof VippsHttpError && error.status === 404) return null;
      throw error;
    }
  }

  const provider: PaymentProvider = {
    name: VIPPS_MOBILEPAY,
    checkoutMethods: ['mobilepay', 'card'],
    agreementVia: 'mobilepay',
    agreementChargesLater: true,

    async createCheckout(input) {
      const reference = paymentReference(input.reference);
      if (input.saveCard) {
        // The payment agreement: a Recurring agreement the customer approves in MobilePay.
        const answer = await call<{ agreementId: string; vippsConfirmationUrl?: string }>(
          'POST',
          '/recurring/v3/agreements',
          {
            idempotencyKey: recurringKey(reference),
            body: {
              pricing: {
                type: 'VARIABLE',
                currency: CURRENCY,
                suggestedMaxAmount: AGREEMENT_SUGGESTED_MAX_OERE,
              },
              interval: { unit: 'MONTH', count: 1 },
              merchantRedirectUrl: input.returnUrl,
              merchantAgreementUrl: `${options.appUrl}/min-brukari/gjaldsavtala`,
              productName: clip(input.description, 45),
              isApp: input.native,
            },
          },
        );
        if (!answer.vippsConfirmationUrl) {
          throw new PaymentProviderError('Vipps MobilePay gave the agreement no confirmation URL');
        }
        return {
          providerPaymentId: `ag:${answer.agreementId}`,
          checkoutUrl: answer.vippsConfirmationUrl,
        };
      }
      const wallet = input.method === 'mobilepay';
      const answer = await makes(`ep:${reference}`, () =>
        call<{ redirectUrl?: string; reference: string }>('POST', '/epayment/v1/payments', {
          idempotencyKey: epaymentKey(reference),
          body: {
            amount: epaymentAmount(input.amountOere),
            paymentMethod: { type: wallet ? 'WALLET' : 'CARD' },
            reference,
            returnUrl: input.returnUrl,
            // The app switch to MobilePay and back is for the native shell; a card is always paid
            // on their web page ("CARD has to be combined with a userFlow of WEB_REDIRECT").
            userFlow: wallet && input.native ? 'NATIVE_REDIRECT' : 'WEB_REDIRECT',
            paymentDescription: clip(input.description, 100, 3),
          },
        }),
      );
      if (!answer.redirectUrl) {
        throw new PaymentProviderError('Vipps MobilePay gave the payment no redirect URL');
      }
      return { providerPaymentId: `ep:${reference}`, checkoutUrl: answer.redirectUrl };
    },

    async chargeAgreement(input) {
      const reference = paymentReference(input.reference);
      // "If provided, [orderId] will be the chargeId for this charge": the charge's id is ours,
      // so a lost answer leaves the payment open under it (reconciliation GETs it).
      const answer = await makes(`ch:${input.agreementRef}:${reference}`, () =>
        call<{ chargeId?: string }>(
          'POST',
          `/recurring/v3/agreements/${enc(input.agreementRef)}/charges`,
          {
            idempotencyKey: recurringKey(reference),
            body: {
              amount: recurringAmount(input.amountOere),
              transactionType: 'DIRECT_CAPTURE',
              description: clip(input.description, 45),
              due: chargeDueDate(now()),
              retryDays: CHARGE_RETRY_DAYS,
              orderId: reference,
            },
          },
        ),
      );
      const chargeId = answer.chargeId ?? reference;
      return { providerPaymentId: `ch:${input.agreementRef}:${chargeId}` };
    },

    async verifyWebhook(rawBody: Buffer, headers: IncomingHttpHeaders, pathAndQuery: string) {
      verifyVippsWebhook({
        rawBody,
        headers,
        pathAndQuery,
        secrets: await secrets.current(),
        now: now(),
      });
      return eventOfWebhook(rawBody);
    },

    async getPayment(providerPaymentId) {
      const id = parseProviderId(providerPaymentId);
      switch (id.api) {
        case 'epayment': {
          const path = `/epayment/v1/payments/${enc(id.reference)}`;
          const payment = await getOrNull<GetPaymentResponse>(path);
          if (!payment) return null;
          const events = (await getOrNull<PaymentEvent[]>(`${path}/events`)) ?? [];
          return viewOfEpayment(payment, events);
        }
        case 'agreement': {
          const agreement = await getOrNull<AgreementResponse>(
            `/recurring/v3/agreements/${enc(id.agreementId)}`,
          );
          // The agreement is the one we drafted, whatever id format their answer shows.
          return agreement ? viewOfAgreement({ ...agreement, id: id.agreementId }) : null;
        }
        case 'charge': {
          const charge = await getOrNull<ChargeResponse>(
            `/recurring/v3/agreements/${enc(id.agreementId)}/charges/${enc(id.chargeId)}`,
          );
          return charge ? viewOfCharge(charge) : null;
        }
      }
    },

    async refund(input) {
      const id = parseProviderId(input.providerPaymentId);
      if (id.api === 'epayment') {
        await call('POST', `/epayment/v1/payments/${enc(id.reference)}/refund`, {
          idempotencyKey: epaymentKey(input.idempotencyKey),
          body: { modificationAmount: epaymentAmount(input.amountOere) },
        });
        return { providerRefundId: `ep:${id.reference}:${input.idempotencyKey}` };
      }
      if (id.api === 'charge') {
        await call(
          'POST',
          `/recurring/v3/agreements/${enc(id.agreementId)}/charges/${enc(id.chargeId)}/refund`,
          {
            idempotencyKey: recurringKey(input.idempotencyKey),
            body: { amount: recurringAmount(input.amountOere), description: 'Alda: endurgjald' },
          },
        );
        return { providerRefundId: `ch:${id.chargeId}:${input.idempotencyKey}` };
      }
      throw new PaymentProviderError('an agreement approval took no money to refund');
    },

    async stopAgreement(agreementRef) {
      try {
        await call('PATCH', `/recurring/v3/agreements/${enc(agreementRef)}`, {
          idempotencyKey: recurringKey(`stop-${agreementRef}`),
          body: { status: 'STOPPED' },
        });
      } catch (error) {
        // Already stopped or expired at the provider: ended, which is what was asked.
        if (error instanceof VippsHttpError && error.status === 409) return;
        throw error;
      }
    },

    async capture(input) {
      const id = parseProviderId(input.providerPaymentId);
      // A Recurring charge is DIRECT_CAPTURE: nothing to capture.
      if (id.api !== 'epayment') return;
      await call('POST', `/epayment/v1/payments/${enc(id.reference)}/capture`, {
        idempotencyKey: epaymentKey(input.idempotencyKey),
        body: { modificationAmount: epaymentAmount(input.amountOere) },
      });
    },

    async cancelReservation(input) {
      const id = parseProviderId(input.providerPaymentId);
      if (id.api !== 'epayment') return;
      await call('POST', `/epayment/v1/payments/${enc(id.reference)}/cancel`, {
        idempotencyKey: epaymentKey(input.idempotencyKey),
      });
    },
  };

  /**
   * Registers our webhook URL with the Webhooks API for the ePayment events and keeps the secret
   * it answers in the database; every instance then reads it into memory (NOTIFY). Answers what
   * was registered.
   */
  async function registerWebhook(url: string) {
    const answer = await call<{ id: string; secret: string }>('POST', '/webhooks/v1/webhooks', {
      body: { url, events: [...EPAYMENT_WEBHOOK_EVENTS] },
    });
    if (!answer?.id || !answer.secret) {
      throw new PaymentProviderError('the Webhooks API answered no id or secret');
    }
    const secret = answer.secret;
    await db.transaction(async (tx) => {
      await tx
        .insert(paymentWebhookRegistrations)
        .values({
          provider: VIPPS_MOBILEPAY,
          id: answer.id,
          url,
          events: [...EPAYMENT_WEBHOOK_EVENTS],
          secret,
          createdAt: now(),
        })
        .onConflictDoUpdate({
          target: [paymentWebhookRegistrations.provider, paymentWebhookRegistrations.id],
          set: { url, secret, events: [...EPAYMENT_WEBHOOK_EVENTS] },
        });
      // Every instance reads the secrets again when this commits.
      await notifyWebhookSecretsChanged(tx);
    });
    log.info({ webhookId: answer.id, url }, 'Vipps MobilePay webhook registered');
    return { id: answer.id, url, events: [...EPAYMENT_WEBHOOK_EVENTS] };
  }

  /** The webhooks the Webhooks API has for this sales unit, and which of them we hold a secret of. */
  async function listWebhooks() {
    const answer = await call<{ webhooks?: { id: string; url: string; events: string[] }[] }>(
      'GET',
      '/webhooks/v1/webhooks',
    );
    const ours = await db
      .select({ id: paymentWebhookRegistrations.id })
      .from(paymentWebhookRegistrations)
      .where(eq(paymentWebhookRegistrations.provider, VIPPS_MOBILEPAY));
    const known = new Set(ours.map((row) => row.id));
    return (answer?.webhooks ?? []).map((hook) => ({ ...hook, secretKept: known.has(hook.id) }));
  }

  return {
    provider,
    registerWebhook,
    listWebhooks,
    /**
     * Keeps the webhook secrets in memory in step with every instance's registrations (LISTEN);
     * started when the app is ready, the answer stops it.
     */
    listenForSecrets: (database: Pick<Database, 'listen'>) => secrets.listen(database),
  };
}
