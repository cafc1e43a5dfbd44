import { z } from 'zod/mini';
import { id, isoDateTime } from './common';
import { simcardNumber } from '../rules/iccid';
import { PASSWORD_MAX_LENGTH } from '../constants';
import { confirmationCode } from './sessions';

/**
 * Provisioning: how an order reaches the network and completes over days (SPEC §4 "Subscription
 * processing can take days"), and the SIM the customer ends up with. See
 * docs/decisions/0055-provisioning.md.
 */

/** A shop where a physical SIM can be picked up (GET /api/sim-pickup-locations). */
export const simPickupLocation = z.object({
  id,
  /** The town, e.g. 'Tórshavn'. */
  name: z.string(),
  /** Street address and postal code with the place (locality list, SPEC §3). */
  address: z.string(),
  postCode: z.string(),
  city: z.string(),
  /** Opening hours in the caller's language, one line per group of days. */
  openingHours: z.array(z.string()),
});
export type SimPickupLocation = z.infer<typeof simPickupLocation>;
export const simPickupLocationsResponse = z.array(simPickupLocation);
export type SimPickupLocationsResponse = z.infer<typeof simPickupLocationsResponse>;

/**
 * How the SIM of an order reaches the customer: an eSIM profile, a card picked up at a shop, a
 * card sent home, or a card the customer already holds.
 */
export const simDelivery = z.enum(['esim', 'pickup', 'home', 'own_card']);
export type SimDelivery = z.infer<typeof simDelivery>;

/**
 * The steps of an order, in the order they can happen (not every order has every step):
 * - `received`: the order is placed;
 * - `esim_ready`: the eSIM profile is ready to install;
 * - `sim_sent` / `sim_ready_for_pickup`: the card is on its way / waits at the shop;
 * - `port_requested`, `port_date_set`, `port_rejected`, `number_moved`: number porting;
 * - `active`: the line works (the order is complete).
 */
export const provisioningStepKey = z.enum([
  'received',
  'esim_ready',
  'sim_sent',
  'sim_ready_for_pickup',
  'port_requested',
  'port_date_set',
  'port_rejected',
  'number_moved',
  'active',
  'failed',
]);
export type ProvisioningStepKey = z.infer<typeof provisioningStepKey>;

/** One step that has happened. */
export const provisioningStep = z.object({
  step: provisioningStepKey,
  at: isoDateTime,
  /** Why, in the caller's language, when the step went wrong or an operator set it. */
  reason: z.nullable(z.string()),
});
export type ProvisioningStep = z.infer<typeof provisioningStep>;

/**
 * Who the order waits on now:
 * - `network`: the next step happens by itself, expected around `expectedAt`;
 * - `customer_sim`: the customer puts the SIM in and confirms it works (POST …/confirm-sim);
 *   it becomes active by itself at `expectedAt` otherwise;
 * - `customer_correction`: the port was rejected; the customer corrects the SIM card number
 *   (PATCH …/porting);
 * - `none`: complete, cancelled or failed.
 */
export const provisioningWaitingFor = z.enum([
  'network',
  'customer_sim',
  'customer_correction',
  /** A change that takes effect at a month end (a cancellation, a smaller plan; ADR 0056). */
  'month_end',
  'none',
]);
export type ProvisioningWaitingFor = z.infer<typeof provisioningWaitingFor>;

/** Provisioning of an order that sets up a line (new subscription, member, SIM swap). */
export const orderProvisioning = z.object({
  /** What has happened, oldest first. */
  steps: z.array(provisioningStep),
  /** The steps still to come, in order (empty when complete). */
  upcoming: z.array(provisioningStepKey),
  waitingFor: provisioningWaitingFor,
  /** When the next step is expected (network) or happens by itself (customer_sim). */
  expectedAt: z.nullable(isoDateTime),
  /** How the SIM reaches the customer; null for a lifecycle order, which moves no SIM (ADR 0056). */
  delivery: z.nullable(simDelivery),
  /** The shop for `pickup`. */
  pickupLocation: z.nullable(simPickupLocation),
  /** Porting: the number moves from another provider. */
  isPorting: z.boolean(),
  /** The day the number moves, once the other provider has set it. */
  portDate: z.nullable(isoDateTime),
});
export type OrderProvisioning = z.infer<typeof orderProvisioning>;

/** PATCH /api/orders/{id}/porting: the corrected SIM card number at the current provider. */
export const correctPortingRequest = z.strictObject({ simcardNumber });
export type CorrectPortingRequest = z.infer<typeof correctPortingRequest>;

/** SIM of one number (GET /api/subscriptions/{id}/sim). */
export const simDetails = z.object({
  /** The line (member id). */
  lineId: id,
  phoneNumber: z.string(),
  simType: z.enum(['esim', 'physical']),
  /** Physical SIM: the ICCID, masked to its last four digits. */
  iccidMasked: z.nullable(z.string()),
  /**
   * eSIM: the activation code `LPA:1$<SM-DP+ address>$<matching id>` (GSMA SGP.22) for the QR
   * code, and its parts for manual entry.
   */
  esim: z.nullable(
    z.object({
      activationCode: z.string(),
      smdpAddress: z.string(),
      matchingId: z.string(),
      /** Apple's one-tap install link (iOS 17.5+). */
      iosInstallUrl: z.url(),
      /** The profile is installed on a phone (the network has seen it). */
      installed: z.boolean(),
    }),
  ),
  /** A replacement or eSIM switch is being provisioned for this number. */
  pendingOrderId: z.nullable(id),
  /** Listed in the phone book (per number, SPEC §1). */
  phoneBookVisible: z.boolean(),
});
export type SimDetails = z.infer<typeof simDetails>;

/** POST /api/subscriptions/{id}/sim/secrets: PIN and PUK of a physical SIM after re-authentication. */
export const simSecretsRequest = z.strictObject({
  password: z.string().check(z.minLength(1), z.maxLength(200)),
});
export const simSecretsResponse = z.object({ pin: z.string(), puk: z.string() });
export type SimSecretsResponse = z.infer<typeof simSecretsResponse>;

/** POST /api/subscriptions/{id}/sim/replacement: a new physical SIM or a switch to eSIM. */
export const simReplacementRequest = z.strictObject({
  eSim: z.boolean(),
  simPickupLocationId: z.nullable(id),
  /** Sent home to the address on the profile when neither eSIM nor a pickup shop. */
  sendHome: z.boolean(),
  /**
   * Step-up (issue 32, ADR 0076): the caller's password again, or for a customer without one
   * the SMS code of POST /api/auth/sessions/confirmation-code. One of them is required.
   */
  password: z.optional(
    z.string().check(z.minLength(1, 'REQUIRED'), z.maxLength(PASSWORD_MAX_LENGTH, 'TOO_LONG')),
  ),
  code: z.optional(confirmationCode),
});
export type SimReplacementRequest = z.infer<typeof simReplacementRequest>;

/** PATCH /api/subscriptions/{id}/phone-book: phone-book visibility of one number (SPEC §1). */
export const phoneBookRequest = z.strictObject({ phoneBookVisible: z.boolean() });
