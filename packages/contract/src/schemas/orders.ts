import { z } from 'zod/mini';
import { id, isoDateTime, priceBreakdown } from './common';
import { phoneNumber } from '../rules/phone';
import { orderProvisioning } from './provisioning';

/**
 * What an order does. Orders are carried out by provisioning and can take days (SPEC §4
 * "Subscription processing can take days"); an order is processing while `isComplete` is false.
 */
export const orderKind = z.enum([
  'new_subscription',
  'add_member',
  'transfer',
  'plan_change',
  'eu_package',
  'extra_package',
  'top_up',
  'cancellation',
  /** Registering or changing the card on file (a zero-amount card check with the provider). */
  'payment_agreement',
  /** Paying a month's subscription price by card (docs/decisions/0050-payments.md). */
  'subscription_payment',
  /** A replacement SIM or a switch to eSIM for a number (provisioned like a new line). */
  'sim_change',
]);
export type OrderKind = z.infer<typeof orderKind>;

/**
 * What a lifecycle order does (docs/decisions/0056-subscription-lifecycle.md): the `kind` says
 * plan change, cancellation or transfer; this says which.
 * - `plan_upgrade` (at once) and `plan_downgrade` (at month end, the rollover is deleted);
 * - `cancel_subscription` (the whole account), `deactivate_plan` (one number), both ending in
 *   prepaid (talutíð) with the number kept, and `delete_number` (the number leaves us);
 * - `move_to_own_account` (an individual plan of the caller's), `move_to_family_account` (the
 *   caller's family plan, made if needed) and `hand_over` (another person's individual plan,
 *   once they accepted).
 */
export const lifecycleAction = z.enum([
  'plan_upgrade',
  'plan_downgrade',
  'cancel_subscription',
  'deactivate_plan',
  'delete_number',
  'move_to_own_account',
  'move_to_family_account',
  'hand_over',
  /** The number moves to another provider (an inbound port-out request, ADR 0076). */
  'port_out',
]);
export type LifecycleAction = z.infer<typeof lifecycleAction>;

/** A lifecycle order's change: what it does and when it takes effect. */
export const orderLifecycle = z.object({
  action: lifecycleAction,
  /** When the change takes effect: at once (placement) or at a month end. */
  effectiveAt: isoDateTime,
  /** The plan before the change, when the change sets another one. */
  fromPlanId: z.nullable(id),
  /** True while the customer can still undo it (POST /api/orders/{id}/withdraw). */
  canWithdraw: z.boolean(),
});
export type OrderLifecycle = z.infer<typeof orderLifecycle>;

/** Where the card payment of an order stands (the payment hub's PaymentUpdated carries it). */
export const paymentStatus = z.enum(['not_required', 'pending', 'paid', 'failed', 'cancelled']);
export type PaymentStatus = z.infer<typeof paymentStatus>;

/**
 * How a purchase is paid: `card` opens the provider's hosted card page; `mobilepay` the MobilePay
 * wallet (only where the provider offers it, see {@link paymentMethodsResponse}); `agreement`
 * charges the payment agreement on file (the customer's active card or MobilePay agreement)
 * without leaving the app.
 */
export const paymentMethod = z.enum(['card', 'mobilepay', 'agreement']);
export type PaymentMethod = z.infer<typeof paymentMethod>;

/** The methods a customer can pay a purchase with when not charging the agreement on file. */
export const checkoutMethod = z.enum(['card', 'mobilepay']);
export type CheckoutMethod = z.infer<typeof checkoutMethod>;

/**
 * GET /api/payments/methods: what the configured payment provider offers (ADR 0081). `methods`
 * in the order the app shows them; `agreementVia` is how a payment agreement is approved (a card
 * check on the card page, or an agreement approved in MobilePay).
 */
export const paymentMethodsResponse = z.object({
  provider: z.enum(['test', 'vipps-mobilepay']),
  methods: z.array(checkoutMethod).check(z.minLength(1)),
  agreementVia: checkoutMethod,
  /**
   * Whether purchases other than the monthly payment may be charged to the agreement on file
   * (false with Vipps MobilePay: its agreement charges are due days later).
   */
  agreementForPurchases: z.boolean(),
});
export type PaymentMethodsResponse = z.infer<typeof paymentMethodsResponse>;

/** Base path of the payment hub (SPEC §7 "A payment hub base path exists"). */
export const PAYMENT_HUB_PATH = '/api/hubs/payment';

/** SPEC §3 "Order". Cancelled orders are hidden by the app. */
export const order = z.object({
  id,
  kind: orderKind,
  isComplete: z.boolean(),
  isCancelled: z.boolean(),
  /** True for the order that creates the account's main subscription. */
  isMainSubscription: z.boolean(),
  /** Plan ordered, null for orders without one (packages, top-ups). */
  planId: z.nullable(id),
  /** Number concerned (6 digits), once known. */
  phoneNumber: z.nullable(phoneNumber),
  /** What the order costs now, or null when nothing is charged up front. */
  price: z.nullable(priceBreakdown),
  paymentStatus,
  createdAt: isoDateTime,
  completedAt: z.nullable(isoDateTime),
  /**
   * Who the number is for when it is not the customer (a family member being added), so a
   * member in processing can be shown by name (SPEC §3 "Family members in processing").
   */
  memberName: z.optional(z.nullable(z.string())),
  /**
   * The line (member id) the order sets up or changes, once it exists: its SIM is GET
   * /api/subscriptions/{lineId}/sim (the eSIM of an order being provisioned is installed there).
   */
  lineId: z.optional(z.nullable(id)),
  /** The extra package an `extra_package` order buys (GET /api/packages names it). */
  packageId: z.optional(z.nullable(id)),
  /**
   * How the line of a `new_subscription`, `add_member` or `sim_change` order is being set up:
   * its steps so far, who it waits on and what comes next (docs/decisions/0055-provisioning.md).
   */
  provisioning: z.optional(z.nullable(orderProvisioning)),
  /** What a plan change, cancellation or transfer does and when (null for other orders). */
  lifecycle: z.optional(z.nullable(orderLifecycle)),
});
export type Order = z.infer<typeof order>;

/** GET /api/orders/{id}: one of the caller's orders (the HTTP fallback of the payment flow). */
export const orderResponse = order;
export type OrderResponse = z.infer<typeof orderResponse>;

/** GET /api/orders: newest first. */
export const ordersResponse = z.array(order);
export type OrdersResponse = z.infer<typeof ordersResponse>;

/**
 * Answer of every call that places an order (create subscription, add member, buy a package …).
 * When `paymentUrl` is set the app opens it (the provider's hosted card page), then listens to
 * the order on the payment hub until PaymentUpdated arrives (SPEC §4 "Payment flow").
 */
export const orderPlacedResponse = z.object({
  order,
  /** The provider's hosted card page (absolute URL); null when paid with the card on file. */
  paymentUrl: z.nullable(z.url()),
});
export type OrderPlacedResponse = z.infer<typeof orderPlacedResponse>;

/**
 * Payment hub: the single argument of the client methods ListenToOrder(order) and
 * StopListeningToOrder(order) is the order's id (SPEC §7 Payment hub).
 */
export const hubOrderArgument = id;

/** Payment hub server event PaymentUpdated (SPEC §7: payload shape not shown). */
export const paymentUpdated = z.object({
  orderId: id,
  status: paymentStatus,
  /** The order as it is after the payment change. */
  order,
  updatedAt: isoDateTime,
});
export type PaymentUpdated = z.infer<typeof paymentUpdated>;
