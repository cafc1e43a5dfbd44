import { z } from 'zod/mini';
import { simcardNumber } from '../rules/iccid';
import { orderKind } from './orders';
import { provisioningStepKey, provisioningWaitingFor, simDelivery } from './provisioning';
import { auditEntry, staffReason } from './staff';

/*
 * The staff console's orders area (issue 31, docs/decisions/0075-staff-console.md): the
 * provisioning queue, one order with its step timeline, and the provisioning commands advance /
 * complete / fail / retry — the same rules as `npm run operator` (apps/api/src/modules/operator/
 * service.ts) — and the port correction entered on the customer's behalf.
 */

const instant = z.iso.datetime({ offset: true });

/**
 * The queue's filters (the operator command's `--state`, same rule):
 * - `processing`: every open order (not complete, cancelled or failed);
 * - `waiting-network`: the next step happens by itself (the network, the worker);
 * - `waiting-customer`: the customer confirms the SIM, or corrects a rejected port's SIM number;
 * - `rejected`: the other provider rejected the port; waiting for the customer's correction;
 * - `failed`: stopped by an operator until retried;
 * - `due-today`: the next step is due before the end of today, Faroese time (overdue included);
 * - `late`: the worker should have performed the next step more than one step period ago;
 * - `all`: also complete and cancelled orders.
 */
export const STAFF_ORDER_COUNTED = [
  'processing',
  'waiting-network',
  'waiting-customer',
  'rejected',
  'failed',
  'due-today',
  'late',
] as const;
export const STAFF_ORDER_FILTERS = [...STAFF_ORDER_COUNTED, 'all'] as const;
export const staffOrderFilter = z.enum(STAFF_ORDER_FILTERS);
export type StaffOrderFilter = z.infer<typeof staffOrderFilter>;

/** GET /api/staff/orders?state=&q=&before=&limit= */
export const staffOrdersQuery = z.object({
  state: z._default(staffOrderFilter, 'processing'),
  /**
   * An order id or its start (8 characters or more), a number or its start, or part of the
   * customer's name or e-mail (any case; Faroese letters folded).
   */
  q: z.optional(z.string().check(z.trim(), z.maxLength(100))),
  /** Paging: the orders older than this one (the last row shown: the page's `nextBefore`). */
  before: z.optional(z.uuid()),
  limit: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(500)), 200),
});
export type StaffOrdersQuery = z.infer<typeof staffOrdersQuery>;
export type StaffOrdersQueryInput = z.input<typeof staffOrdersQuery>;

/**
 * Where one order stands:
 * - `waiting-network`, `waiting-customer` (the SIM to confirm), `rejected` (a port's SIM number to
 *   correct), `month-end` (a plan change or cancellation that waits for the month to end);
 * - `failed` (stopped until retried), `complete`, `cancelled`.
 */
export const STAFF_ORDER_STATES = [
  'waiting-network',
  'waiting-customer',
  'rejected',
  'month-end',
  'failed',
  'complete',
  'cancelled',
] as const;
export const staffOrderState = z.enum(STAFF_ORDER_STATES);
export type StaffOrderState = z.infer<typeof staffOrderState>;

/** One row of the queue. */
export const staffOrderRow = z.object({
  id: z.uuid(),
  createdAt: instant,
  customer: z.object({ id: z.uuid(), name: z.nullable(z.string()) }),
  /** The number the order is for (6 digits). */
  msisdn: z.nullable(z.string()),
  /** With `isPorting` and `delivery`: a new number, a port, a family member, a SIM change … */
  kind: orderKind,
  isPorting: z.boolean(),
  /** eSIM, a card from a shop, sent home, or the customer's own card; null for a lifecycle order. */
  delivery: z.nullable(simDelivery),
  state: staffOrderState,
  waitingFor: provisioningWaitingFor,
  lastStep: z.nullable(provisioningStepKey),
  lastStepAt: z.nullable(instant),
  nextStep: z.nullable(provisioningStepKey),
  /** When the worker performs the next step (null: it waits on the customer or an operator). */
  nextAt: z.nullable(instant),
  /** The next step is more than one step period overdue (the `late` filter's rule). */
  late: z.boolean(),
  /**
   * Why the order stopped or waits on the customer, when its newest step is `failed` or
   * `port_rejected`: the words on that step (a network that failed the step: its own reason,
   * ADR 0082; an operator's reason) or what its code means, in the staff member's language.
   */
  stopReason: z.nullable(z.string()),
});
export type StaffOrderRow = z.infer<typeof staffOrderRow>;

/** How many open orders each filter but `all` has: the queue's chips. */
const count = z.int().check(z.nonnegative());
export const staffOrderCounts = z.object(
  Object.fromEntries(STAFF_ORDER_COUNTED.map((filter) => [filter, count])) as Record<
    (typeof STAFF_ORDER_COUNTED)[number],
    typeof count
  >,
);
export type StaffOrderCounts = z.infer<typeof staffOrderCounts>;

export const staffOrdersPage = z.object({
  state: staffOrderFilter,
  /** Newest first, at most `limit`. */
  items: z.array(staffOrderRow),
  /** Pass as `before` for the next (older) page; null on the last page. */
  nextBefore: z.nullable(z.uuid()),
  counts: staffOrderCounts,
  /** PROVISIONING_STEP_S of the server: an order is late this long after its due time. */
  stepS: z.int().check(z.nonnegative()),
});
export type StaffOrdersPage = z.infer<typeof staffOrdersPage>;

/** A step that has happened: who did it and why. */
export const staffOrderTimelineStep = z.object({
  step: provisioningStepKey,
  at: instant,
  /** `network`, `worker`, `customer`, `operator:<name>` (command line) or `staff:<email>`. */
  actor: z.string(),
  /** The network's reason code (`PORT_SIMCARD_MISMATCH`), if any. */
  reasonCode: z.nullable(z.string()),
  /** What the code means, in the staff member's language. */
  codeText: z.nullable(z.string()),
  /**
   * The words on the step: an operator's own (the customer sees them), or — on a step the network
   * failed (`actor` network, `reasonCode` NETWORK_ORDER_FAILED) — the network's reason, for staff
   * only (the customer reads the code's text).
   */
  operatorReason: z.nullable(z.string()),
});
export type StaffOrderTimelineStep = z.infer<typeof staffOrderTimelineStep>;

/**
 * A rejected port and its correction:
 * - `waiting`: the customer has not entered a corrected SIM card number yet;
 * - `entered`: a corrected number was entered (by the customer, or by staff on their behalf);
 *   the port is asked again at the next step time;
 * - `asked-again`: the port was asked again by an operator's retry or advance without a recorded
 *   correction;
 * - `stopped`: the order was failed or completed without a recorded correction.
 */
export const staffPortCorrection = z.object({
  state: z.enum(['waiting', 'entered', 'asked-again', 'stopped']),
  /** The SIM card number the order holds now (the corrected one once `entered`). */
  simcardNumber: z.nullable(z.string()),
  /**
   * When it was entered, when known: a staff member's correction is in the audit log; a
   * customer's is known until the port is asked again (it set the next step one step later).
   */
  at: z.nullable(instant),
  /** `customer` or `staff:<email>`; null when not known. */
  by: z.nullable(z.string()),
});
export type StaffPortCorrection = z.infer<typeof staffPortCorrection>;

export const staffOrderPorting = z.object({
  /** The SIM card number (ICCID) at the other provider, as the order holds it now. */
  simcardNumber: z.nullable(z.string()),
  /** The day the number moves, once the other provider set it. */
  portDate: z.nullable(instant),
  /** The newest rejection by the other provider; null when never rejected. */
  rejection: z.nullable(
    z.object({
      at: instant,
      code: z.nullable(z.string()),
      /** The provider's reason in the staff member's language. */
      reason: z.nullable(z.string()),
    }),
  ),
  /** Null when never rejected. */
  correction: z.nullable(staffPortCorrection),
});
export type StaffOrderPorting = z.infer<typeof staffOrderPorting>;

/** Why a command does not apply to the order now (the operator service's rule). */
export const STAFF_ORDER_REFUSALS = [
  'complete',
  'cancelled',
  'not-retryable',
  'already-failed',
  'failed',
  'no-next-step',
  'not-rejected',
] as const;
export const staffOrderRefusal = z.enum(STAFF_ORDER_REFUSALS);
export type StaffOrderRefusal = z.infer<typeof staffOrderRefusal>;

export const STAFF_ORDER_ACTIONS = [
  'advance',
  'complete',
  'fail',
  'retry',
  'port-correction',
] as const;
export const staffOrderAction = z.enum(STAFF_ORDER_ACTIONS);
export type StaffOrderAction = z.infer<typeof staffOrderAction>;

/** Whether the order's state allows a command (null `refusal`) — who may is the role's matter. */
const actionState = z.object({ allowed: z.boolean(), refusal: z.nullable(staffOrderRefusal) });
export const staffOrderActions = z.object({
  advance: actionState,
  complete: actionState,
  fail: actionState,
  retry: actionState,
  'port-correction': actionState,
});
export type StaffOrderActions = z.infer<typeof staffOrderActions>;

/**
 * One service order the TMF641 network adapter placed for the order (ADR 0082): each network
 * call of a step is one, with the state the operator's OSS reports (`acknowledged`, `held`,
 * `inProgress`, `completed`, `failed`, … — TMF641's ServiceOrderStateType).
 */
export const staffNetworkOrder = z.object({
  /** Our idempotency key, the order's `externalId` at the OSS. */
  externalId: z.string(),
  /** The OSS's id of the service order. */
  id: z.string(),
  /** The adapter call: activate, prepareEsim, issueSim, requestPort. */
  call: z.string(),
  state: z.string(),
  /** The OSS's error code and reason of a failed order. */
  errorCode: z.nullable(z.string()),
  reason: z.nullable(z.string()),
  createdAt: instant,
  /** When the state last changed (an event or a polled answer). */
  updatedAt: instant,
});
export type StaffNetworkOrder = z.infer<typeof staffNetworkOrder>;

/** GET /api/staff/orders/:id (and the answer of every command). */
export const staffOrderDetail = z.extend(staffOrderRow, {
  customer: z.object({ id: z.uuid(), name: z.nullable(z.string()), email: z.nullable(z.string()) }),
  line: z.nullable(
    z.object({
      id: z.uuid(),
      msisdn: z.string(),
      status: z.enum(['active', 'processing', 'cancelled']),
    }),
  ),
  accountId: z.nullable(z.uuid()),
  /** The steps still to come, in order (empty when complete or stopped). */
  upcoming: z.array(provisioningStepKey),
  steps: z.array(staffOrderTimelineStep),
  /** Porting only. */
  porting: z.nullable(staffOrderPorting),
  actions: staffOrderActions,
  /** The commands given on this order (command line and console), newest first. */
  history: z.array(auditEntry),
  /** The network's service orders for this order, oldest first (empty with the simulator). */
  networkOrders: z.array(staffNetworkOrder),
});
export type StaffOrderDetail = z.infer<typeof staffOrderDetail>;

/** POST /api/staff/orders/:id/{complete|fail}: the customer sees the reason on the order. */
export const staffOrderReasonRequest = z.object({ reason: staffReason });
export type StaffOrderReasonRequest = z.infer<typeof staffOrderReasonRequest>;

/**
 * POST /api/staff/orders/:id/{advance|retry}: a reason is optional (as for the command); when
 * given on `advance` it is written on the step the customer sees.
 */
export const staffOrderOptionalReasonRequest = z.object({
  reason: z.optional(z.string().check(z.trim(), z.maxLength(500))),
});
export type StaffOrderOptionalReasonRequest = z.infer<typeof staffOrderOptionalReasonRequest>;

/** POST /api/staff/orders/:id/port-correction: the corrected SIM card number, for the customer. */
export const staffPortCorrectionRequest = z.object({ simcardNumber, reason: staffReason });
export type StaffPortCorrectionRequest = z.infer<typeof staffPortCorrectionRequest>;
export type StaffPortCorrectionRequestInput = z.input<typeof staffPortCorrectionRequest>;
