import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import { formatKr } from '@alda/contract/format/money';
import { paymentReturnPath } from '@alda/contract/app-paths';
import type { OrderPlacedResponse } from '@alda/contract/schemas/orders';
import {
  PaymentOutcomeUnknownError,
  type PaymentProvider,
  type ProviderEvent,
  type ProviderPaymentView,
} from '../../adapters/payments/provider';
import type { Db } from '../../db/client';
import { uniqueViolationOf } from '../../db/errors';
import { IDEMPOTENCY_KEY_CONSTRAINT, type OrderRow } from '../../db/schema/orders';
import type { NewNotificationRow } from '../../db/schema/data-transfers';
import type { PaymentRefundRow, PaymentRow } from '../../db/schema/payments';
import { AppError } from '../../errors';
import { notifyPaymentUpdated } from './events';
import { insertNotifications } from '../notifications/notify';
import { insertActions } from '../actions/log';
import { recordAudit } from '../operator/audit';
import { toOrderDto } from '../orders/dto';
import { findOrderByIdempotencyKey } from '../orders/lifecycle';
import { agreementHeldBy, findActiveAgreement } from '../agreements/card-on-file';
import type { PlacePaidOrderInput } from '../orders/placing';
import {
  claimDueRefunds,
  committedRefundOere,
  insertRequestedRefund,
  updateRefund,
} from './refunds-repo';
import { bumpUserVersions } from '../versions/change-versions';
import { isUuid } from '../../uuid';
import {
  findOrder,
  findPayment,
  findPaymentOfOrder,
  findStuckPayments,
  insertOrder,
  insertPayment,
  lockOrder,
  lockPayment,
  recordWebhookEvent,
  updateOrder,
  updatePayment,
} from './repo';
import {
  advancePayment,
  reconciliationOf,
  targetOfEvent,
  targetOfView,
  type Fulfil,
  type PaymentTarget,
  type Reconciliation,
} from './transition';

export interface PaymentServiceDeps {
  db: Db;
  now: () => Date;
  log: FastifyBaseLogger;
  provider: PaymentProvider;
  /** Public address of the web app: the card page returns to `${appUrl}/betaling/<order>`. */
  appUrl: string;
  fulfil: Fulfil;
}

/** The payments core's input: the seam `orders/placing.ts` declares (ADR 0050). */
export type { PlacePaidOrderInput };

export type WebhookOutcome =
  'applied' | 'ignored' | 'duplicate' | 'unknown_payment' | 'amount_mismatch';

/** What a round of reconciliation did (tests and the log). */
export interface ReconcileResult {
  checked: number;
  advanced: number;
}

/**
 * What the provider says about one payment now, for a person looking at it (the staff console):
 * its view and the reconciliation verdict; `not_sent` when it never reached the provider;
 * `unreachable` when the provider did not answer (the caller shows the rest anyway).
 */
export type ProviderCheck =
  | { status: 'known'; view: ProviderPaymentView | null; reconciliation: Reconciliation }
  | { status: 'not_sent'; reconciliation: Reconciliation }
  | { status: 'unreachable' };

/** Who asks for a refund: the audit log's actor (`staff:<email>`) and the staff account. */
export interface RefundRequester {
  actor: string;
  staffUserId: string | null;
}

/**
 * Øre of a payment a person may still refund: a paid payment the provider charged, less its
 * refunds done or pending (`committedOere`); 0 for any other. The one rule of
 * {@link createPaymentService}'s `requestRefund` and of what the staff console offers.
 */
export function refundableOere(
  payment: Pick<PaymentRow, 'state' | 'amountOere' | 'providerPaymentId'>,
  committedOere: number,
): number {
  if (payment.state !== 'paid' || payment.providerPaymentId === null) return 0;
  return Math.max(0, payment.amountOere - committedOere);
}

/** How long a look at the provider's view may take before the page says it is unreachable. */
const PROVIDER_CHECK_TIMEOUT_MS = 5_000;

/** How long a retry waits for a first request that is still talking to the provider. */
const IN_FLIGHT_WAIT_MS = 10_000;
const PROVIDER_UNAVAILABLE_REASON = 'provider_unavailable';
/**
 * A payment whose placement's answer was lost, and which the provider then said it never made
 * (a 404 for the id it would have had): given up like one the provider refused.
 */
const NOT_MADE_REASON = 'not_made_at_provider';
/** A `created` payment the provider never saw is abandoned after this long at the least. */
const MIN_GRACE_S = 30;
/** Reconciliation reads stuck payments in pages of this size, up to the per-round maximum. */
const RECONCILE_PAGE = 100;
const MAX_RECONCILED_PER_ROUND = 2_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Card payments (docs/decisions/0050-payments.md): placing a paid order (idempotent, outside
 * the DB transaction for the provider call), webhooks (verified, recorded once, forward-only)
 * and reconciliation with the provider. Every state change goes through `advancePayment`.
 */
export function createPaymentService(deps: PaymentServiceDeps) {
  const { db, now, log, provider, fulfil } = deps;

  const answer = (order: OrderRow, payment: PaymentRow | undefined): OrderPlacedResponse => ({
    order: toOrderDto(order),
    paymentUrl: payment?.checkoutUrl ?? null,
  });

  /** The first answer again for a retried request (or 422 when the body differs). */
  async function replay(earlier: OrderRow, requestHash: string): Promise<OrderPlacedResponse> {
    if (earlier.requestHash !== requestHash) throw new AppError('IDEMPOTENCY_KEY_REUSED');
    const deadline = Date.now() + IN_FLIGHT_WAIT_MS;
    for (;;) {
      const payment = await findPaymentOfOrder(db, earlier.id);
      // The first request may still be talking to the provider: wait for its answer.
      const inFlight = payment?.state === 'created' && payment.providerPaymentId === null;
      if (!inFlight || Date.now() > deadline) {
        if (payment?.failureReason === PROVIDER_UNAVAILABLE_REASON) {
          throw new AppError('PAYMENT_PROVIDER_UNAVAILABLE');
        }
        // A checkout whose answer was lost has no page to send the customer to: until
        // reconciliation has read it, the retry is told the provider is unavailable.
        const unknownCheckout =
          payment?.state === 'pending' &&
          payment.method !== 'agreement' &&
          payment.checkoutUrl === null;
        if (unknownCheckout) {
          throw new AppError('PAYMENT_PROVIDER_UNAVAILABLE', { detail: 'outcome unknown' });
        }
        if (inFlight) throw new AppError('PAYMENT_PROVIDER_UNAVAILABLE', { detail: 'in flight' });
        const order = (await findOrder(db, earlier.id)) ?? earlier;
        return answer(order, payment);
      }
      await sleep(100);
    }
  }

  /**
   * The provider did not take the payment: the payment fails and the order is cancelled in one
   * transaction, and the Idempotency-Key is released so the customer's retry can try again.
   */
  async function abandonPlacement(payment: PaymentRow, error: unknown): Promise<never> {
    log.warn({ err: error, paymentId: payment.id }, 'payment provider unavailable');
    await giveUpUnmade(
      payment.id,
      PROVIDER_UNAVAILABLE_REASON,
      (locked) => locked.state === 'created',
    );
    throw new AppError('PAYMENT_PROVIDER_UNAVAILABLE', { cause: error });
  }

  /**
   * A payment the provider never made (it refused the placement, or said 404 for the id a lost
   * answer would have given it): the payment fails and the order is cancelled in one
   * transaction, and the Idempotency-Key is released, so the customer's retry (or the next
   * month-end round) places it anew. No "did not go through" notice: nothing was tried on the
   * customer's card. False when the guard no longer holds under the lock.
   */
  async function giveUpUnmade(
    paymentId: string,
    reason: string,
    guard: (locked: PaymentRow) => boolean,
  ): Promise<boolean> {
    const at = now();
    return db.transaction(async (tx) => {
      const locked = await lockPayment(tx, paymentId, { skipLocked: true });
      if (!locked || !guard(locked)) return false;
      const payment = locked;
      await updatePayment(tx, payment.id, {
        state: 'failed',
        failureReason: reason,
        updatedAt: at,
      });
      await lockOrder(tx, payment.orderId);
      await updateOrder(tx, payment.orderId, {
        paymentStatus: 'failed',
        isCancelled: true,
        cancelledAt: at,
        idempotencyKey: null,
      });
      await notifyPaymentUpdated(tx, { orderId: payment.orderId, userId: payment.userId });
      return true;
    });
  }

  /**
   * The provider's answer to a placement was lost (ADR 0081 "Lost answers"): it may have made
   * the payment. The payment stays open — pending, with the id it has at the provider if it was
   * made — and keeps its Idempotency-Key, so neither a retry nor the next month-end round places
   * it again; reconciliation reads that id and settles it, or gives it up on a 404.
   */
  async function keepUnknown(
    payment: PaymentRow,
    error: PaymentOutcomeUnknownError & { providerPaymentId: string },
  ): Promise<never> {
    log.warn(
      { err: error, paymentId: payment.id, providerPaymentId: error.providerPaymentId },
      'payment provider did not answer: outcome unknown until reconciliation reads it',
    );
    await advance(
      payment.id,
      { state: 'pending', providerPaymentId: error.providerPaymentId },
      (locked) => locked.providerPaymentId === null,
      { skipLocked: false },
    );
    throw new AppError('PAYMENT_PROVIDER_UNAVAILABLE', { cause: error, detail: 'outcome unknown' });
  }

  async function placePaidOrder(input: PlacePaidOrderInput): Promise<OrderPlacedResponse> {
    if (input.idempotencyKey.trim() === '') throw new AppError('IDEMPOTENCY_KEY_REQUIRED');
    const earlier = await findOrderByIdempotencyKey(db, input.userId, input.idempotencyKey);
    if (earlier) return replay(earlier, input.requestHash);

    if (input.method !== 'agreement' && !provider.checkoutMethods.includes(input.method)) {
      throw new AppError('PAYMENT_METHOD_UNAVAILABLE', { field: 'payWith' });
    }
    if (
      input.method === 'agreement' &&
      provider.agreementChargesLater &&
      input.order.kind !== 'subscription_payment'
    ) {
      throw new AppError('PAYMENT_METHOD_UNAVAILABLE', {
        field: 'payWith',
        detail: 'the agreement is charged days later: only the monthly payment may use it',
      });
    }
    let agreementRef: string | null = null;
    if (input.method === 'agreement') {
      const agreement = await findActiveAgreement(db, input.userId);
      if (!agreement?.providerReference) throw new AppError('AGREEMENT_REQUIRED');
      // An agreement belongs to the provider that made it: another provider's id is never sent
      // to this one (after PAYMENT_PROVIDER changed, the customer approves a new agreement).
      if (!agreementHeldBy(agreement, provider.name)) {
        throw new AppError('AGREEMENT_REQUIRED', {
          detail: `the agreement is held by ${agreement.provider ?? 'an unknown provider'}`,
        });
      }
      agreementRef = agreement.providerReference;
    }

    const at = now();
    let placed: { order: OrderRow; payment: PaymentRow };
    try {
      placed = await db.transaction(async (tx) => {
        const order = await insertOrder(tx, {
          userId: input.userId,
          kind: input.order.kind,
          accountId: input.order.accountId ?? null,
          lineId: input.order.lineId ?? null,
          msisdn: input.order.msisdn ?? null,
          planId: input.order.planId ?? null,
          packageId: input.order.packageId ?? null,
          billingPeriod: input.order.billingPeriod ?? null,
          packageRequestId: input.order.packageRequestId ?? null,
          priceOere: input.order.priceOere,
          paymentStatus: 'pending',
          idempotencyKey: input.idempotencyKey,
          requestHash: input.requestHash,
          createdAt: at,
        });
        const payment = await insertPayment(tx, {
          orderId: order.id,
          userId: input.userId,
          amountOere: input.order.priceOere,
          method: input.method,
          provider: provider.name,
          createdAt: at,
          updatedAt: at,
        });
        return { order, payment };
      });
    } catch (error) {
      // A simultaneous request with the same key won the race: answer its order.
      if (uniqueViolationOf(error) === IDEMPOTENCY_KEY_CONSTRAINT) {
        const winner = await findOrderByIdempotencyKey(db, input.userId, input.idempotencyKey);
        if (winner) return replay(winner, input.requestHash);
      }
      throw error;
    }

    // The provider is called outside any transaction: no row stays locked while it answers.
    const { order, payment } = placed;
    let providerPaymentId: string;
    let checkoutUrl: string | null = null;
    try {
      if (agreementRef !== null) {
        ({ providerPaymentId } = await provider.chargeAgreement({
          reference: payment.id,
          amountOere: payment.amountOere,
          description: input.description,
          agreementRef,
        }));
      } else {
        ({ providerPaymentId, checkoutUrl } = await provider.createCheckout({
          reference: payment.id,
          amountOere: payment.amountOere,
          description: input.description,
          returnUrl: `${deps.appUrl}${paymentReturnPath(order.id)}`,
          locale: input.locale ?? 'fo',
          saveCard: input.order.kind === 'payment_agreement',
          method: input.method === 'mobilepay' ? 'mobilepay' : 'card',
          native: input.native ?? false,
        }));
      }
    } catch (error) {
      if (error instanceof PaymentOutcomeUnknownError && error.providerPaymentId !== undefined) {
        return keepUnknown(
          payment,
          error as PaymentOutcomeUnknownError & { providerPaymentId: string },
        );
      }
      return abandonPlacement(payment, error);
    }

    // Only the provider's id and page are stored here: a webhook may already have moved the
    // state on (an agreement charge settles at once), and that must not be overwritten.
    const stored = await updatePayment(db, payment.id, { providerPaymentId, checkoutUrl });
    const current = (await findOrder(db, order.id)) ?? order;
    return answer(current, stored);
  }

  /** Applies a target to one payment under its row lock (reconciliation). */
  async function advance(
    paymentId: string,
    target: PaymentTarget,
    guard: (locked: PaymentRow) => boolean = () => true,
    options: { skipLocked?: boolean } = { skipLocked: true },
  ): Promise<boolean> {
    return db.transaction(async (tx) => {
      // SKIP LOCKED: a payment another instance (or a webhook) is working on is left to it.
      const payment = await lockPayment(tx, paymentId, options);
      if (!payment || !guard(payment)) return false;
      const changed = await advancePayment(tx, payment, target, { now: now(), fulfil, log });
      return changed !== null;
    });
  }

  /**
   * A webhook: verified over the raw body, then in ONE transaction the payment row is locked,
   * the event id recorded (a redelivery is recognised and changes nothing) and the forward-only
   * transition applied.
   */
  async function handleWebhook(
    providerName: string,
    rawBody: Buffer,
    headers: IncomingHttpHeaders,
    pathAndQuery = `/api/payments/webhooks/${providerName}`,
  ): Promise<WebhookOutcome> {
    if (providerName !== provider.name) throw new AppError('NOT_FOUND');
    let event: ProviderEvent;
    try {
      event = await provider.verifyWebhook(rawBody, headers, pathAndQuery);
    } catch (error) {
      log.warn({ err: error, provider: providerName }, 'webhook refused');
      throw new AppError('WEBHOOK_SIGNATURE_INVALID', { cause: error });
    }
    const outcome = await applyWebhook(event);
    // Reserved: take the money now, outside the transaction (the next reconciliation round tries
    // again if this fails).
    // Also for a payment already closed here ('ignored'): its reservation is let go.
    const settles = outcome === 'applied' || outcome === 'ignored';
    if (settles && event.type === 'payment.authorized' && isUuid(event.reference)) {
      await settleAuthorization(event.reference);
    }
    return outcome;
  }

  /**
   * An authorisation or charge, from an event or what reconciliation reads, must be for the
   * payment's amount in DKK (issue 42 §7): the one rule of both.
   */
  function amountDiffers(
    amount: { currency: string; oere: number } | undefined,
    takesMoney: boolean,
    payment: PaymentRow,
  ): boolean {
    if (!amount || !takesMoney) return false;
    return amount.currency !== 'DKK' || amount.oere !== payment.amountOere;
  }

  async function applyWebhook(event: ProviderEvent): Promise<WebhookOutcome> {
    const at = now();
    return db.transaction(async (tx) => {
      let payment = isUuid(event.reference) ? await lockPayment(tx, event.reference) : undefined;
      if (payment && payment.provider !== provider.name) payment = undefined;
      const mismatch =
        payment?.providerPaymentId != null && payment.providerPaymentId !== event.providerPaymentId;
      const fresh = await recordWebhookEvent(tx, {
        provider: provider.name,
        eventId: event.id,
        paymentId: payment?.id ?? null,
        type: event.type,
        receivedAt: at,
      });
      if (!fresh) return 'duplicate';
      if (!payment || mismatch) {
        log.warn(
          {
            eventId: event.id,
            reference: event.reference,
            providerPaymentId: event.providerPaymentId,
          },
          'webhook for an unknown payment ignored',
        );
        return 'unknown_payment';
      }
      const takesMoney = event.type === 'payment.authorized' || event.type === 'payment.succeeded';
      if (amountDiffers(event.amount, takesMoney, payment)) {
        log.error(
          {
            eventId: event.id,
            paymentId: payment.id,
            amountOere: payment.amountOere,
            eventAmount: event.amount,
          },
          'webhook refused: its amount or currency differs from the payment',
        );
        return 'amount_mismatch';
      }
      const target = targetOfEvent(event);
      if (!target) return 'ignored';
      const changed = await advancePayment(tx, payment, target, { now: at, fulfil, log });
      return changed ? 'applied' : 'ignored';
    });
  }

  /**
   * Reserve → capture providers (ADR 0081): a reserved payment is captured in full while it is
   * open here (what it buys is delivered at once), and marked paid when the capture is confirmed;
   * a reservation for a payment already given up here is cancelled instead. The idempotency keys
   * are per payment, so a retry (another webhook, reconciliation, another instance) is never a
   * second capture.
   */
  async function settleAuthorization(paymentId: string): Promise<void> {
    if (!provider.capture) return;
    const payment = await findPayment(db, paymentId);
    if (!payment?.providerPaymentId) return;
    const providerPaymentId = payment.providerPaymentId;
    try {
      if (payment.state === 'created' || payment.state === 'pending') {
        await provider.capture({
          providerPaymentId,
          amountOere: payment.amountOere,
          idempotencyKey: `capture-${payment.id}`,
        });
        await advance(
          payment.id,
          { state: 'paid', providerPaymentId },
          (locked) => locked.providerPaymentId === providerPaymentId,
        );
      } else if (payment.state === 'failed' || payment.state === 'cancelled') {
        await provider.cancelReservation?.({
          providerPaymentId,
          idempotencyKey: `cancel-${payment.id}`,
        });
        log.warn({ paymentId: payment.id }, 'reservation of a closed payment cancelled');
      }
    } catch (error) {
      log.warn({ err: error, paymentId: payment.id }, 'capture failed; reconciliation retries');
    }
  }

  /**
   * One round of reconciliation: payments open for longer than `afterS` are re-read from the
   * provider and moved through the same transition as webhooks; a payment the provider never
   * got (the process died between the insert and the provider call) is cancelled. Each payment
   * is locked with SKIP LOCKED, so several instances can run this at once.
   */
  async function reconcile(options: {
    afterS: number;
    /** Most payments looked at in one round. */
    limit?: number;
    /** Rows per query (tests make it small to page). */
    pageSize?: number;
    /** This open payment only, whatever its age (one a customer is watching: reconcileWatched). */
    payment?: PaymentRow;
  }): Promise<ReconcileResult> {
    const at = now();
    const before = new Date(at.getTime() - options.afterS * 1000);
    const limit = options.limit ?? MAX_RECONCILED_PER_ROUND;
    const pageSize = options.pageSize ?? RECONCILE_PAGE;
    // Every stuck payment gets its turn (payments whose card page is still open stay stuck for a
    // while and must not hold back the ones behind them).
    const stuck: PaymentRow[] = options.payment ? [options.payment] : [];
    while (!options.payment && stuck.length < limit) {
      const last = stuck.at(-1);
      const page = await findStuckPayments(
        db,
        before,
        Math.min(pageSize, limit - stuck.length),
        last && { updatedAt: last.updatedAt, id: last.id },
      );
      stuck.push(...page);
      if (page.length < pageSize) break;
    }
    let advanced = 0;
    for (const payment of stuck) {
      // A payment another provider holds (one made before PAYMENT_PROVIDER changed) is not this
      // provider's to read: it stays as it is for a person (docs/operations.md).
      if (payment.provider !== provider.name) continue;
      let target: PaymentTarget | null;
      if (payment.providerPaymentId === null) {
        const grace = Math.max(options.afterS, MIN_GRACE_S) * 1000;
        if (at.getTime() - payment.createdAt.getTime() < grace) continue;
        target = { state: 'cancelled', failureReason: 'not_sent_to_provider' };
      } else {
        try {
          const view = await provider.getPayment(payment.providerPaymentId);
          const takesMoney = view?.state === 'authorized' || view?.state === 'succeeded';
          if (view && amountDiffers(view.amount, takesMoney, payment)) {
            log.error(
              {
                paymentId: payment.id,
                amountOere: payment.amountOere,
                providerAmount: view.amount,
              },
              'reconciliation: the provider holds another amount or currency; left to a person',
            );
            continue;
          }
          if (view === null) {
            // The provider has no payment under this id: it never made it (a placement whose
            // answer was lost and that never arrived there). Only now is it given up.
            const providerPaymentId = payment.providerPaymentId;
            const unmade = await giveUpUnmade(
              payment.id,
              NOT_MADE_REASON,
              (locked) =>
                locked.providerPaymentId === providerPaymentId &&
                (locked.state === 'created' || locked.state === 'pending'),
            );
            if (unmade) {
              advanced += 1;
              log.warn(
                { paymentId: payment.id, providerPaymentId },
                'reconciliation: the provider never made this payment; given up',
              );
            }
            continue;
          }
          if (view.state === 'authorized') {
            // Reserved but never captured (the capture after the webhook failed, or no webhook).
            await settleAuthorization(payment.id);
          }
          target = targetOfView(view);
        } catch (error) {
          log.warn({ err: error, paymentId: payment.id }, 'reconciliation: provider unavailable');
          continue;
        }
      }
      if (!target) continue;
      // Re-checked under the lock: the placement may have reached the provider meanwhile.
      const sameAsRead = (locked: PaymentRow) =>
        locked.providerPaymentId === payment.providerPaymentId;
      if (await advance(payment.id, target, sameAsRead)) advanced += 1;
    }
    if (advanced > 0) log.info({ checked: stuck.length, advanced }, 'payments reconciled');
    return { checked: stuck.length, advanced };
  }

  /**
   * One round of the refund job (ADR 0050 "Refunds"): refunds that are due are claimed for a
   * lease and sent to the provider outside any transaction, with the refund's id as idempotency
   * key; a refund that goes through is marked and the customer told, in one transaction. A
   * failure is retried with backoff; after REFUND_MAX_ATTEMPTS it is left to a person (logged).
   */
  async function refundDue(options: { limit?: number } = {}): Promise<RefundResult> {
    const claimed = await claimDueRefunds(db, now(), REFUND_LEASE_MS, options.limit ?? 50);
    let refunded = 0;
    for (const refund of claimed) {
      try {
        const { providerRefundId } = await provider.refund({
          providerPaymentId: refund.providerPaymentId,
          amountOere: refund.amountOere,
          idempotencyKey: refund.id,
        });
        const at = now();
        await db.transaction(async (tx) => {
          await updateRefund(tx, refund.id, {
            state: 'refunded',
            providerRefundId,
            refundedAt: at,
            lastError: null,
          });
          await insertNotifications(tx, [refundNotification(refund, at)]);
          // A refund a person made is in the customer's activity log (a payment, negative); the
          // automatic one pays back a purchase that was never made, which the log never showed.
          if (refund.requestedBy !== null) {
            await insertActions(tx, [
              {
                userId: refund.userId,
                type: 'payment',
                payload: {},
                amountOere: -refund.amountOere,
                createdAt: at,
              },
            ]);
          }
          await bumpUserVersions(tx, [refund.userId]);
        });
        refunded += 1;
        log.info({ refundId: refund.id, paymentId: refund.paymentId }, 'payment refunded');
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        // A refund whose answer was lost may have been paid: it is never called failed for
        // that, only sent again with the same idempotency key until the provider answers.
        const unknown = error instanceof PaymentOutcomeUnknownError;
        const last = refund.attempts >= REFUND_MAX_ATTEMPTS && !unknown;
        await updateRefund(db, refund.id, {
          lastError: message.slice(0, 500),
          ...(last
            ? { state: 'failed' }
            : { nextAttemptAt: new Date(now().getTime() + refundBackoffMs(refund.attempts)) }),
        });
        if (last)
          log.error(
            { err: error, refundId: refund.id, paymentId: refund.paymentId },
            'refund failed for good: a person must refund this payment',
          );
        else log.warn({ err: error, refundId: refund.id }, 'refund failed; will retry');
      }
    }
    return { claimed: claimed.length, refunded };
  }

  /**
   * A refund a person asks for (the staff console, ADR 0075): full or partial, of a paid payment,
   * never more in all than was paid. In ONE transaction: the payment row is locked (FOR UPDATE,
   * so two refunds at once are counted one after the other), the amount checked against what is
   * left (paid, less refunds done or pending), the refund written due at once, and the audit
   * entry. The money then leaves the one way refunds leave: the refund job ({@link refundDue})
   * sends it to the provider with the refund's id as the idempotency key.
   */
  async function requestRefund(input: {
    paymentId: string;
    amountOere: number;
    reason: string;
    by: RefundRequester;
  }): Promise<PaymentRefundRow> {
    if (!Number.isSafeInteger(input.amountOere) || input.amountOere <= 0) {
      throw new AppError('VALIDATION_FAILED', {
        field: 'amountOere',
        detail: 'a refund is a positive whole number of øre',
      });
    }
    const at = now();
    return db.transaction(async (tx) => {
      const payment = await lockPayment(tx, input.paymentId);
      if (!payment) throw new AppError('NOT_FOUND');
      if (payment.state !== 'paid' || payment.providerPaymentId === null) {
        throw new AppError('STAFF_ACTION_NOT_ALLOWED', {
          detail: `refund of a ${payment.state} payment`,
        });
      }
      const committed = await committedRefundOere(tx, payment.id);
      if (input.amountOere > refundableOere(payment, committed)) {
        throw new AppError('REFUND_TOO_LARGE', {
          detail: `${committed} already refunded or pending + ${input.amountOere} > ${payment.amountOere} paid`,
        });
      }
      const refund = await insertRequestedRefund(tx, {
        paymentId: payment.id,
        userId: payment.userId,
        providerPaymentId: payment.providerPaymentId,
        amountOere: input.amountOere,
        requestedBy: input.by.actor,
        reason: input.reason,
        now: at,
      });
      await recordAudit(tx, {
        actor: input.by.actor,
        staffUserId: input.by.staffUserId,
        kind: 'change',
        action: 'payment.refund',
        targetType: 'payment',
        targetId: payment.id,
        reason: input.reason,
        details: {
          amountOere: input.amountOere,
          refundId: refund.id,
          paidOere: payment.amountOere,
          refundedBeforeOere: committed,
        },
        at,
      });
      log.info(
        { paymentId: payment.id, refundId: refund.id, amountOere: input.amountOere },
        'refund requested by staff',
      );
      return refund;
    });
  }

  /**
   * The provider's view of one payment now (`getPayment`) and what reconciliation concludes
   * ({@link reconciliationOf}, the rule of the job and the webhooks). Never fails for a provider
   * that does not answer (in time): that is `unreachable`.
   */
  async function checkWithProvider(
    payment: Pick<PaymentRow, 'id' | 'state' | 'providerPaymentId'>,
  ): Promise<ProviderCheck> {
    const providerPaymentId = payment.providerPaymentId;
    if (providerPaymentId === null) {
      return { status: 'not_sent', reconciliation: reconciliationOf(payment, null) };
    }
    let timer: NodeJS.Timeout | undefined;
    try {
      const view = await Promise.race([
        provider.getPayment(providerPaymentId),
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new Error('provider did not answer in time')),
            PROVIDER_CHECK_TIMEOUT_MS,
          );
        }),
      ]);
      return { status: 'known', view, reconciliation: reconciliationOf(payment, view) };
    } catch (error) {
      log.warn({ err: error, paymentId: payment.id }, 'payment check: provider unavailable');
      return { status: 'unreachable' };
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * The payment of an order a customer is watching, read from the provider now by the rule of a
   * reconciliation round (their polling guidelines; hub/payment-watch.ts calls it every
   * PAYMENT_WATCH_EVERY_S). 'settled' when it is no longer open (or there is none): the watch
   * ends. One read of the payment; the provider only while it is open.
   */
  async function reconcileWatched(orderId: string): Promise<'open' | 'settled'> {
    const payment = await findPaymentOfOrder(db, orderId);
    if (!payment || (payment.state !== 'created' && payment.state !== 'pending')) return 'settled';
    // Another provider's (made before a switch): not this one's to read.
    if (payment.provider !== provider.name) return 'settled';
    await reconcile({ afterS: 0, payment });
    return 'open';
  }

  return {
    placePaidOrder,
    handleWebhook,
    reconcile,
    reconcileWatched,
    refundDue,
    requestRefund,
    checkWithProvider,
    /** The configured provider's name: the one whose agreements and payments this core uses. */
    providerName: provider.name,
    /** Ends a payment agreement at the provider (`PaymentProvider.stopAgreement`; idempotent). */
    stopAgreement: (agreementRef: string): Promise<void> => provider.stopAgreement(agreementRef),
  };
}

export interface RefundResult {
  claimed: number;
  refunded: number;
}

/** How long a claimed refund is left to the instance sending it before it comes due again. */
const REFUND_LEASE_MS = 60_000;
/** Attempts before a refund is left to a person. */
export const REFUND_MAX_ATTEMPTS = 8;
/** 1 min, 2 min, 4 min … capped at 6 h. */
const refundBackoffMs = (attempts: number) =>
  Math.min(60_000 * 2 ** Math.max(0, attempts - 1), 6 * 3_600_000);

/**
 * The customer is told their money is on its way back: for a purchase that was not made (the
 * automatic refund of a late charge), or a refund customer service made (full or partial).
 */
function refundNotification(refund: PaymentRefundRow, at: Date): NewNotificationRow {
  // Only the automatic refund says why: the purchase it was for was not made.
  const automatic = refund.requestedBy === null;
  return {
    userId: refund.userId,
    type: 'payment',
    params: {
      title: { fo: 'Endurgoldið', en: 'Refunded' },
      body: {
        fo: `Vit hava goldið ${formatKr(refund.amountOere, 'fo')} aftur á kortið hjá tær.${automatic ? ' Keypið varð ikki gjørt.' : ''}`,
        en: `We have paid ${formatKr(refund.amountOere, 'en')} back to your card.${automatic ? ' The purchase was not made.' : ''}`,
      },
    },
    link: '/',
    createdAt: at,
  };
}

export type PaymentService = ReturnType<typeof createPaymentService>;
