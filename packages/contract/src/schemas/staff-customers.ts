import { z } from 'zod/mini';
import { LOCALES } from '../locale';
import { lockStateName } from './number-protection';
import { lifecycleAction, orderKind, paymentStatus } from './orders';
import { provisioningStepKey, provisioningWaitingFor, simDelivery } from './provisioning';
import { staffReason } from './staff';
import { staffPaymentMethod, staffPaymentState, staffRefundState } from './staff-payments';

/*
 * The staff console's customers area (issue 31, docs/decisions/0075-staff-console.md): search,
 * the reasoned opening of a customer's personal data, the customer view, and the support actions
 * in it (sign the customer out everywhere, resend a message). Amounts are øre with VAT.
 */

const instant = z.iso.datetime({ offset: true });
/** A Faroese number as stored: the 6 national digits. */
const msisdn = z.string().check(z.regex(/^\d{6}$/));

/** GET /api/staff/customers?q= */
export const staffCustomerSearchQuery = z.object({
  /**
   * A phone number (6 digits, with or without +298 and spaces), an e-mail address (or part of
   * one), a name (first and/or last; case and Faroese letters do not matter: "gudrun" finds
   * Guðrun), a SIM card number (ICCID), an order id or a customer id.
   */
  q: z.string().check(z.trim(), z.minLength(2), z.maxLength(200)),
});
export type StaffCustomerSearchQuery = z.infer<typeof staffCustomerSearchQuery>;

/** What the search matched the customer on. */
export const STAFF_CUSTOMER_MATCHES = [
  'phone',
  'email',
  'name',
  'iccid',
  'order',
  'customer',
] as const;
export const staffCustomerMatch = z.enum(STAFF_CUSTOMER_MATCHES);
export type StaffCustomerMatch = z.infer<typeof staffCustomerMatch>;

/** The most customers a search answers. */
export const STAFF_CUSTOMER_SEARCH_LIMIT = 20;

/** One customer found: no address or other personal data beyond what identifies them. */
export const staffCustomerHit = z.object({
  id: z.uuid(),
  name: z.string(),
  email: z.string(),
  /** The numbers the customer uses or owns (not cancelled), 6 digits each. */
  numbers: z.array(msisdn),
  matchedOn: staffCustomerMatch,
});
export type StaffCustomerHit = z.infer<typeof staffCustomerHit>;

export const staffCustomerSearchResult = z.object({
  items: z.array(staffCustomerHit),
  /** More customers matched than {@link STAFF_CUSTOMER_SEARCH_LIMIT}: narrow the search. */
  truncated: z.boolean(),
});
export type StaffCustomerSearchResult = z.infer<typeof staffCustomerSearchResult>;

/** POST /api/staff/customers/:id/access — why the customer's data is opened. */
export const staffCustomerAccessRequest = z.object({ reason: staffReason });
export type StaffCustomerAccessRequest = z.infer<typeof staffCustomerAccessRequest>;

/** The access granted: until this staff session ends (the audit entry is the grant). */
export const staffCustomerAccess = z.object({
  customerId: z.uuid(),
  /** The audit entry `customer.open` that grants it. */
  auditId: z.uuid(),
  openedAt: instant,
});
export type StaffCustomerAccess = z.infer<typeof staffCustomerAccess>;

/** A support action in the customer view (sign out everywhere, resend a message). */
export const staffCustomerActionRequest = z.object({ reason: staffReason });
export type StaffCustomerActionRequest = z.infer<typeof staffCustomerActionRequest>;

export const staffCustomerProfile = z.object({
  id: z.uuid(),
  firstname: z.string(),
  lastname: z.string(),
  email: z.string(),
  /** The number the customer signs in with (6 digits); null when none. */
  phoneNumber: z.nullable(msisdn),
  address: z.nullable(z.string()),
  postCode: z.nullable(z.string()),
  city: z.nullable(z.string()),
  locale: z.enum(LOCALES),
  /** False for a customer who signs in only with SMS codes. */
  hasPassword: z.boolean(),
  createdAt: instant,
});
export type StaffCustomerProfile = z.infer<typeof staffCustomerProfile>;

/** The customer's place on the line's account. */
export const staffFamilyRole = z.enum(['owner', 'member', 'none']);
export type StaffFamilyRole = z.infer<typeof staffFamilyRole>;

/** The port-out attempts the customer view shows per line (the newest). */
export const STAFF_PORT_OUT_ATTEMPTS_SHOWN = 5;

/** One port-out request another provider made for the line's number, and its answer. */
export const staffPortOutAttempt = z.object({
  at: instant,
  /** The recipient provider, as it named itself. */
  provider: z.string(),
  outcome: z.enum(['accepted', 'refused']),
  /**
   * Why it was refused: an error code, usually one of `PORT_OUT_REFUSALS` (rules/number-protection.ts); null when
   * accepted.
   */
  reason: z.nullable(z.string()),
});
export type StaffPortOutAttempt = z.infer<typeof staffPortOutAttempt>;

export const staffCustomerLine = z.object({
  id: z.uuid(),
  msisdn,
  status: z.enum(['active', 'processing', 'cancelled']),
  planId: z.nullable(z.string()),
  /** The plan's name in the staff member's language. */
  planName: z.nullable(z.string()),
  simType: z.enum(['esim', 'physical']),
  iccid: z.nullable(z.string()),
  esimInstalled: z.boolean(),
  prepaid: z.boolean(),
  /** `owner` / `member` of a family account; `none` on an individual or prepaid account. */
  familyRole: staffFamilyRole,
  /** Who uses the number: the customer, a family member (with or without a user of their own). */
  userName: z.nullable(z.string()),
  /** The line is used by the customer (not only paid for). */
  usedByCustomer: z.boolean(),
  dataPaused: z.boolean(),
  createdAt: instant,
  activatedAt: z.nullable(instant),
  /** A cancelled subscription runs until then. */
  expiresAt: z.nullable(instant),
  /**
   * The number lock at the time of the answer (ADR 0076, `lockStateOf`): `unlocking` is still
   * locked and opens at `unlockAt` (null in the other states). Staff cannot shorten the wait.
   */
  lock: z.object({ state: lockStateName, unlockAt: z.nullable(instant) }),
  /** The latest SIM change or eSIM re-issue of the number; null when it has had none. */
  simChangedAt: z.nullable(instant),
  /** Its latest port-out requests, newest first (at most {@link STAFF_PORT_OUT_ATTEMPTS_SHOWN}). */
  portOutAttempts: z.array(staffPortOutAttempt),
});
export type StaffCustomerLine = z.infer<typeof staffCustomerLine>;

export const staffFamilyMember = z.object({
  lineId: z.uuid(),
  msisdn,
  name: z.nullable(z.string()),
  /** The member's own user, when they have one (a child's number may have none). */
  userId: z.nullable(z.uuid()),
  status: z.enum(['active', 'processing', 'cancelled']),
  isOwner: z.boolean(),
});

export const staffCustomerFamily = z.object({
  accountId: z.uuid(),
  status: z.enum(['active', 'processing', 'cancelled']),
  planName: z.nullable(z.string()),
  /** The customer viewed is its owner, or a member. */
  customerRole: z.enum(['owner', 'member']),
  owner: z.object({ id: z.uuid(), name: z.string(), email: z.string() }),
  members: z.array(staffFamilyMember),
});
export type StaffCustomerFamily = z.infer<typeof staffCustomerFamily>;

/** A step of an order's provisioning, with who performed it. */
export const staffOrderStep = z.object({
  step: provisioningStepKey,
  at: instant,
  /** `network`, `worker`, `customer`, or the operator (`operator:<name>`, `staff:<email>`). */
  actor: z.string(),
  /** Why, in the staff member's language (a rejected port's reason, an operator's words). */
  reason: z.nullable(z.string()),
});
export type StaffOrderStep = z.infer<typeof staffOrderStep>;

export const staffOrderProvisioning = z.object({
  steps: z.array(staffOrderStep),
  upcoming: z.array(provisioningStepKey),
  waitingFor: provisioningWaitingFor,
  expectedAt: z.nullable(instant),
  delivery: z.nullable(simDelivery),
  isPorting: z.boolean(),
  portDate: z.nullable(instant),
  /** Porting only: the rejection and the customer's correction. */
  porting: z.nullable(
    z.object({
      /** The SIM card number (ICCID) at the other provider, as the order now holds it. */
      simcardNumber: z.nullable(z.string()),
      /** The newest rejection of the port; null when never rejected. */
      rejection: z.nullable(z.object({ at: instant, reason: z.nullable(z.string()) })),
      /**
       * After a rejection: `waiting` — the customer has not corrected the SIM card number yet;
       * `corrected` — they have (`simcardNumber` is the corrected one). Null without a rejection.
       */
      correction: z.nullable(z.enum(['waiting', 'corrected'])),
    }),
  ),
});
export type StaffOrderProvisioning = z.infer<typeof staffOrderProvisioning>;

export const staffCustomerOrder = z.object({
  id: z.uuid(),
  kind: orderKind,
  lifecycleAction: z.nullable(lifecycleAction),
  msisdn: z.nullable(msisdn),
  planName: z.nullable(z.string()),
  /** Øre with VAT charged up front; null when nothing is. */
  priceOere: z.nullable(z.int()),
  paymentStatus,
  isComplete: z.boolean(),
  isCancelled: z.boolean(),
  createdAt: instant,
  completedAt: z.nullable(instant),
  /** The order was placed by this customer (not by the owner of their family account). */
  placedByCustomer: z.boolean(),
  provisioning: z.nullable(staffOrderProvisioning),
});
export type StaffCustomerOrder = z.infer<typeof staffCustomerOrder>;

export const staffCustomerRefund = z.object({
  id: z.uuid(),
  amountOere: z.int().check(z.positive()),
  state: staffRefundState,
  /** Null for the automatic refund of a late charge; `staff:<email>` for a console refund. */
  requestedBy: z.nullable(z.string()),
  reason: z.nullable(z.string()),
  createdAt: instant,
  refundedAt: z.nullable(instant),
});

export const staffCustomerPayment = z.object({
  id: z.uuid(),
  orderId: z.uuid(),
  orderKind,
  amountOere: z.int().check(z.nonnegative()),
  method: staffPaymentMethod,
  state: staffPaymentState,
  /** Card brand and the last four digits only. */
  card: z.nullable(z.object({ brand: z.nullable(z.string()), last4: z.nullable(z.string()) })),
  failureReason: z.nullable(z.string()),
  createdAt: instant,
  refunds: z.array(staffCustomerRefund),
});
export type StaffCustomerPayment = z.infer<typeof staffCustomerPayment>;

export const staffCustomerReceipt = z.object({
  id: z.uuid(),
  number: z.string(),
  grossOere: z.int(),
  issuedAt: instant,
  orderKind,
});
export type StaffCustomerReceipt = z.infer<typeof staffCustomerReceipt>;

/** An in-app notification, in the staff member's language. */
export const staffCustomerNotification = z.object({
  id: z.uuid(),
  type: z.string(),
  title: z.string(),
  body: z.string(),
  createdAt: instant,
  readAt: z.nullable(instant),
});

/**
 * What kind of message the outbox holds, and so whether it can be sent again:
 * - `one_time_code`: an SMS sign-in or confirmation code — single use and short-lived, never
 *   resent (the customer asks for a new code);
 * - `password_reset`: a reset link works once and for an hour — never resent (the customer asks
 *   for a new one); its text is not shown;
 * - `receipt`: sent again through the receipts service (the PDF made anew);
 * - `attachment`: an e-mail with a file the outbox did not keep — cannot be resent;
 * - `message`: any other e-mail (order steps, usage alerts, new-device alerts) — resent as it was.
 */
export const STAFF_MESSAGE_KINDS = [
  'one_time_code',
  'password_reset',
  'receipt',
  'attachment',
  'message',
] as const;
export const staffMessageKind = z.enum(STAFF_MESSAGE_KINDS);
export type StaffMessageKind = z.infer<typeof staffMessageKind>;

export const staffCustomerMessage = z.object({
  id: z.uuid(),
  channel: z.enum(['sms', 'email']),
  /** The address or number (`298` + 6 digits) it went to. */
  to: z.string(),
  subject: z.nullable(z.string()),
  /** The plain text; null for codes and reset links (staff do not need them, nor should see them). */
  text: z.nullable(z.string()),
  kind: staffMessageKind,
  resendable: z.boolean(),
  createdAt: instant,
  /**
   * Where it stands (docs/decisions/0084-sms-smpp.md): `kept` by the built-in outbox (never sent:
   * development and demo), or an SMS over SMPP `queued` (waiting for the SMSC), `sent` (the SMSC
   * accepted it), `delivered` (its receipt said so) or `failed`, with the SMSC's error in `error`.
   * `at`: when it got there.
   */
  delivery: z.object({
    state: z.enum(['kept', 'queued', 'sent', 'delivered', 'failed']),
    error: z.nullable(z.string()),
    at: instant,
  }),
});
export type StaffCustomerMessage = z.infer<typeof staffCustomerMessage>;

export const staffCustomerSession = z.object({
  id: z.uuid(),
  deviceName: z.nullable(z.string()),
  platform: z.nullable(z.enum(['ios', 'android', 'web'])),
  model: z.nullable(z.string()),
  userAgent: z.nullable(z.string()),
  country: z.nullable(z.string()),
  createdAt: instant,
  lastSeenAt: instant,
  revokedAt: z.nullable(instant),
  /** Why it ended (as the sessions table records it); `signed_out` includes staff's sign-out. */
  revokedReason: z.nullable(
    z.enum(['logout', 'reuse', 'password_reset', 'password_change', 'signed_out']),
  ),
});
export type StaffCustomerSession = z.infer<typeof staffCustomerSession>;

/** An entry of the customer's own activity log, its sentence in the staff member's language. */
export const staffCustomerActivity = z.object({
  id: z.uuid(),
  type: z.string(),
  text: z.string(),
  msisdn: z.nullable(msisdn),
  /** Who did it when it was not the customer (the family owner). */
  actorName: z.nullable(z.string()),
  amountOere: z.nullable(z.int()),
  createdAt: instant,
});

/** GET /api/staff/customers/:id — the customer view. */
export const staffCustomerView = z.object({
  profile: staffCustomerProfile,
  lines: z.array(staffCustomerLine),
  family: z.nullable(staffCustomerFamily),
  orders: z.array(staffCustomerOrder),
  payments: z.array(staffCustomerPayment),
  receipts: z.array(staffCustomerReceipt),
  notifications: z.array(staffCustomerNotification),
  /**
   * SMS and e-mails sent to the customer's number(s) and address, as far as the platform keeps
   * them (`kept`): the built-in outbox adapters and the SMPP adapter's queue do; a mail server or
   * the HTTP SMS gateway keeps its own log elsewhere.
   */
  messages: z.object({
    kept: z.object({ sms: z.boolean(), email: z.boolean() }),
    items: z.array(staffCustomerMessage),
  }),
  sessions: z.array(staffCustomerSession),
  activity: z.array(staffCustomerActivity),
});
export type StaffCustomerView = z.infer<typeof staffCustomerView>;

/** POST /api/staff/customers/:id/sign-out-everywhere */
export const staffSignOutEverywhereResult = z.object({
  /** Sessions that were live and have now ended. */
  ended: z.int().check(z.nonnegative()),
});
export type StaffSignOutEverywhereResult = z.infer<typeof staffSignOutEverywhereResult>;

/** POST /api/staff/customers/:id/messages/:messageId/resend */
export const staffResendResult = z.object({
  channel: z.enum(['sms', 'email']),
  /** Where it went (the receipt goes to the customer's address as it is now). */
  to: z.string(),
  kind: staffMessageKind,
});
export type StaffResendResult = z.infer<typeof staffResendResult>;
