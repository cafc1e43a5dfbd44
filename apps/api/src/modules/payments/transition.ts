import type { PaymentStatus } from '@alda/contract/schemas/orders';
import type {
  ProviderCard,
  ProviderEvent,
  ProviderPaymentView,
} from '../../adapters/payments/provider';
import type { Db, Tx } from '../../db/client';
import type { OrderRow } from '../../db/schema/orders';
import type { PaymentRow, PaymentState } from '../../db/schema/payments';
import { notifyPaymentUpdated } from './events';
import { insertNotifications } from '../notifications/notify';
import type { NewNotificationRow } from '../../db/schema/data-transfers';
import { MONTHLY_PRICE_PATH } from '@alda/contract/app-paths';
import { requestRefund } from './refunds-repo';
import { lockOrder, updateOrder, updatePayment } from './repo';

/** C's fulfilment (modules/payments/fulfilment.ts): the effect of a paid order, run once. */
export type Fulfil = (ctx: {
  tx: Tx;
  order: OrderRow;
  payment: PaymentRow;
  now: Date;
}) => Promise<void>;

/** Where a payment should move to, from a webhook event or the provider's current view. */
export interface PaymentTarget {
  state: Exclude<PaymentState, 'created'>;
  providerPaymentId?: string | undefined;
  card?: ProviderCard | undefined;
  agreementRef?: string | undefined;
  failureReason?: string | undefined;
}

const RANK: Record<PaymentState, number> = {
  created: 0,
  pending: 1,
  paid: 2,
  failed: 2,
  cancelled: 2,
};

/** Forward only: created → pending → paid | failed | cancelled; terminal states never change. */
export function canMove(from: PaymentState, to: PaymentState): boolean {
  return RANK[to] > RANK[from];
}

/**
 * The provider took the money for a payment already closed here (failed or cancelled: the charge
 * answered after we gave up on it): nothing is fulfilled, and the money goes back (ADR 0050).
 */
export function isLateCharge(from: PaymentState, to: PaymentState): boolean {
  return to === 'paid' && (from === 'failed' || from === 'cancelled');
}

/** The order's `payment_status` mirrors its payment (created and pending are both pending). */
export function orderPaymentStatus(state: PaymentState): PaymentStatus {
  return state === 'created' ? 'pending' : state;
}

/** The customer gave up (cancel button, abandoned page): recorded as cancelled, not failed. */
const GAVE_UP = new Set(['cancelled', 'expired']);

const failedState = (reason: string | undefined) =>
  reason !== undefined && GAVE_UP.has(reason) ? 'cancelled' : 'failed';

/** Null for an event that moves nothing (`payment.other`). */
export function targetOfEvent(event: ProviderEvent): PaymentTarget | null {
  const common = {
    providerPaymentId: event.providerPaymentId,
    card: event.card,
    agreementRef: event.agreementRef,
    failureReason: event.failureReason,
  };
  switch (event.type) {
    case 'payment.pending':
    case 'payment.authorized':
      // Reserved, not yet taken: still pending here until our capture is confirmed (ADR 0081).
      return { ...common, state: 'pending' };
    case 'payment.succeeded':
      return { ...common, state: 'paid' };
    case 'payment.failed':
      return { ...common, state: failedState(event.failureReason) };
    case 'payment.other':
      return null;
  }
}

/** Null when the provider has nothing new to say (the card page is still open). */
export function targetOfView(view: ProviderPaymentView): PaymentTarget | null {
  const common = {
    card: view.card,
    agreementRef: view.agreementRef,
    failureReason: view.failureReason,
  };
  switch (view.state) {
    case 'created':
      return null;
    case 'pending':
    case 'authorized':
      return { ...common, state: 'pending' };
    case 'succeeded':
      return { ...common, state: 'paid' };
    case 'failed':
      return { ...common, state: failedState(view.failureReason) };
  }
}

/** The provider's view in our states (`created`: the card page is not submitted yet). */
export function stateOfView(view: ProviderPaymentView): PaymentState {
  return targetOfView(view)?.state ?? 'created';
}

/**
 * What reconciliation concludes for one payment (the staff console's verdict), by the rule the
 * job and the webhooks apply through {@link advancePayment}: the same state is agreement; a
 * forward move (`canMove`) is what the next webhook or reconciliation round does; a late charge
 * is refunded; anything else is left to a person. `view` null: the provider has no such payment
 * (`providerPaymentId` null: it never reached the provider, and the job cancels a created one).
 */
export interface Reconciliation {
  verdict: 'agree' | 'differs';
  ours: PaymentState;
  provider: PaymentState | null;
  next: 'advance' | 'refund' | 'person' | null;
}

export function reconciliationOf(
  payment: Pick<PaymentRow, 'state' | 'providerPaymentId'>,
  view: ProviderPaymentView | null,
): Reconciliation {
  const ours = payment.state;
  const provider = view ? stateOfView(view) : null;
  const differs = (next: Reconciliation['next']): Reconciliation => ({
    verdict: 'differs',
    ours,
    provider,
    next,
  });
  if (provider === null) {
    // Never sent: the job cancels a created payment (`not_sent_to_provider`); a closed one agrees.
    if (payment.providerPaymentId === null) {
      if (ours === 'created') return differs('advance');
      if (ours === 'failed' || ours === 'cancelled') {
        return { verdict: 'agree', ours, provider, next: null };
      }
    }
    return differs('person');
  }
  if (provider === ours) return { verdict: 'agree', ours, provider, next: null };
  if (canMove(ours, provider)) return differs('advance');
  if (isLateCharge(ours, provider)) return differs('refund');
  return differs('person');
}

export interface TransitionContext {
  now: Date;
  fulfil: Fulfil;
  log: {
    info(obj: object, msg: string): void;
    warn(obj: object, msg: string): void;
    error(obj: object, msg: string): void;
  };
}

/**
 * A charge that succeeded at the provider after the payment was closed here: one refund is
 * requested in this transaction (a redelivered event finds it and adds none); the refund job
 * sends it. Without the provider's id of the charge nothing can be refunded automatically.
 */
async function refundLateCharge(
  tx: Db,
  payment: PaymentRow,
  target: PaymentTarget,
  ctx: TransitionContext,
): Promise<void> {
  const providerPaymentId = payment.providerPaymentId ?? target.providerPaymentId;
  const context = { paymentId: payment.id, orderId: payment.orderId, state: payment.state };
  if (payment.amountOere === 0) return; // a card check charges nothing
  if (!providerPaymentId) {
    ctx.log.error(
      context,
      'payment succeeded at the provider after it was closed here: refund needed',
    );
    return;
  }
  const requested = await requestRefund(tx, {
    paymentId: payment.id,
    userId: payment.userId,
    providerPaymentId,
    amountOere: payment.amountOere,
    now: ctx.now,
  });
  if (requested)
    ctx.log.warn(context, 'payment succeeded at the provider after it was closed here: refunding');
}

/**
 * THE way a payment changes state, shared by webhooks and reconciliation
 * (docs/decisions/0050-payments.md). `payment` must be locked (`FOR UPDATE`) in `tx`. Applies a
 * forward move or ignores (and logs) anything else; mirrors the state on the order; on `paid`
 * sets `fulfilled_at` and fulfils, exactly once because both happen under the row lock in one
 * transaction; and tells the payment hub. Answers the payment as it is afterwards, or null when
 * nothing changed.
 */
export async function advancePayment(
  tx: Db,
  payment: PaymentRow,
  target: PaymentTarget,
  ctx: TransitionContext,
): Promise<PaymentRow | null> {
  if (!canMove(payment.state, target.state)) {
    if (isLateCharge(payment.state, target.state)) {
      await refundLateCharge(tx, payment, target, ctx);
      return null;
    }
    ctx.log.info(
      { paymentId: payment.id, from: payment.state, to: target.state },
      'payment transition ignored (states only move forward)',
    );
    return null;
  }
  const paid = target.state === 'paid';
  const updated = await updatePayment(tx, payment.id, {
    state: target.state,
    updatedAt: ctx.now,
    ...(payment.providerPaymentId === null && target.providerPaymentId
      ? { providerPaymentId: target.providerPaymentId }
      : {}),
    ...(target.card
      ? {
          cardBrand: target.card.brand,
          cardLast4: target.card.last4,
          cardExpiry: target.card.expiry,
        }
      : {}),
    ...(target.agreementRef ? { providerAgreementRef: target.agreementRef } : {}),
    ...(target.state === 'failed' || target.state === 'cancelled'
      ? { failureReason: target.failureReason ?? target.state }
      : {}),
    ...(paid && payment.fulfilledAt === null ? { fulfilledAt: ctx.now } : {}),
  });
  const order = await lockOrder(tx, payment.orderId);
  if (!order) throw new Error(`payment ${payment.id} without its order`);
  const gaveUp = (target.state === 'failed' || target.state === 'cancelled') && !order.isComplete;
  const updatedOrder = await updateOrder(tx, order.id, {
    paymentStatus: orderPaymentStatus(target.state),
    // A purchase whose payment failed will never be carried out: the order ends here.
    ...(gaveUp && !order.isCancelled ? { isCancelled: true, cancelledAt: ctx.now } : {}),
  });
  if (paid && payment.fulfilledAt === null) {
    // The handle is a transaction (`db.transaction`'s); its static type only differs in the
    // relational-query schema parameter, which neither side uses.
    await ctx.fulfil({
      tx: tx as unknown as Tx,
      order: updatedOrder,
      payment: updated,
      now: ctx.now,
    });
  }
  if (
    target.state === 'failed' &&
    order.kind === 'subscription_payment' &&
    payment.method === 'agreement'
  ) {
    // Nobody watches a charge on the agreement (the month end places it, ADR 0081): the customer
    // is told that the month is still to pay, and where.
    await insertNotifications(tx, [monthChargeFailedNotification(order.userId, ctx.now)]);
  }
  await notifyPaymentUpdated(tx, { orderId: order.id, userId: order.userId });
  ctx.log.info(
    { paymentId: payment.id, orderId: order.id, from: payment.state, to: target.state },
    'payment state changed',
  );
  return updated;
}

/** The monthly payment on the agreement did not go through: pay it in the app. */
function monthChargeFailedNotification(userId: string, at: Date): NewNotificationRow {
  return {
    userId,
    type: 'payment',
    params: {
      // Pushed (ADR 0096): the customer must pay the month themselves.
      outcome: 'action',
      title: { fo: 'Mánaðargjaldið er ikki goldið', en: 'The monthly payment did not go through' },
      body: {
        fo: 'Vit kundu ikki taka mánaðargjaldið av gjaldsavtaluni. Gjald mánaðin í appini.',
        en: 'We could not take the monthly payment from your payment agreement. Pay the month in the app.',
      },
    },
    link: MONTHLY_PRICE_PATH,
    createdAt: at,
  };
}
