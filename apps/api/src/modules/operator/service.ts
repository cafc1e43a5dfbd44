import {
  STATUS_BODY_MAX_LENGTH,
  STATUS_TITLE_MAX_LENGTH,
} from '@alda/contract/schemas/staff-status';
import type { SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { keysetPage } from '../../db/keyset';
import type { OperatorActionRow } from '../../db/schema/provisioning';
import type { StatusMessageRow } from '../../db/schema/status-messages';
import { AppError } from '../../errors';
import { isUuid } from '../../uuid';
import { faroeDateTime, fromFaroeWallClock } from '@alda/contract/format/date';
import { STAFF_ORDER_COUNTED } from '@alda/contract/schemas/staff-orders';
import type {
  OrderState,
  ProvisioningOrderDescription,
  ProvisioningOrderSummary,
  ProvisioningService,
  StaffCommand,
} from '../provisioning/service';
import { findUsersByIds } from '../users/records';
import {
  endStatusMessage,
  listStatusMessages,
  publishStatusMessage,
  type NewStatusMessage,
} from '../status/messages-service';
import { broadcastUrgent, withdrawUrgent } from '../push/broadcast';
import { recordAudit } from './audit';
import { findOperatorActions } from './repo';

/*
 * What `npm run operator` does (docs/decisions/0055-provisioning.md "Operators"): orders in
 * provisioning — list, show, complete, fail, retry, advance — through the provisioning service,
 * and status messages (SPEC §1, §4 "Status messages"). Every change is recorded in
 * operator_actions (who, verb, target, reason, when) in the transaction of the change.
 * `src/operator.ts` parses the command line and prints; this module holds the rules.
 */

/** A refusal the operator can act on: unknown id, missing reason, wrong state. Exit code 1. */
export class OperatorError extends Error {
  override name = 'OperatorError';
  /**
   * What kind of refusal, for callers that answer over HTTP (the staff console, ADR 0075):
   * `not-found` (no such order), `not-allowed` (not in a state for it), `refused` (bad input).
   */
  readonly kind: 'not-found' | 'not-allowed' | 'refused';

  constructor(message: string, kind: OperatorError['kind'] = 'refused') {
    super(message);
    this.kind = kind;
  }
}

/** Longest operator name and reason kept (a reason is shown to the customer). */
export const MAX_OPERATOR_LENGTH = 100;
export const MAX_REASON_LENGTH = 500;
const MAX_TITLE_LENGTH = STATUS_TITLE_MAX_LENGTH;
const MAX_BODY_LENGTH = STATUS_BODY_MAX_LENGTH;

/**
 * Who runs the command: `--as`, else $OPERATOR, else the OS user. Trimmed; never empty (the
 * operator_actions row must say who).
 */
export function operatorName(
  as: string | undefined,
  env: Record<string, string | undefined>,
  osUser: () => string,
): string {
  for (const candidate of [as, env.OPERATOR]) {
    const name = candidate?.trim();
    if (name) return checkOperator(name);
  }
  let user = '';
  try {
    user = osUser().trim();
  } catch {
    // No passwd entry (some containers): the caller must say who they are.
  }
  if (!user) throw new OperatorError('Who is running this? Pass --as <name> or set OPERATOR.');
  return checkOperator(user);
}

function checkOperator(name: string): string {
  if (name.length > MAX_OPERATOR_LENGTH)
    throw new OperatorError(`The operator name is longer than ${MAX_OPERATOR_LENGTH} characters.`);
  return name;
}

/** A reason as given, trimmed; undefined when none. Too long → OperatorError. */
function optionalReason(reason: string | undefined): string | undefined {
  const text = reason?.trim();
  if (!text) return undefined;
  if (text.length > MAX_REASON_LENGTH)
    throw new OperatorError(`The reason is longer than ${MAX_REASON_LENGTH} characters.`);
  return text;
}

/** A reason the customer will read: required. */
function requiredReason(verb: string, reason: string | undefined): string {
  const text = optionalReason(reason);
  if (!text)
    throw new OperatorError(`${verb} needs --reason "...": the customer sees it on the order.`);
  return text;
}

/**
 * Who changes a status message besides the operator name: the staff member of the console (the
 * audit entry's `staffUserId`) and their reason; the command line passes none.
 */
export interface StatusChangeBy {
  staffUserId?: string | null;
  reason?: string | null;
}

export interface PublishInput {
  titleFo: string | undefined;
  titleEn: string | undefined;
  bodyFo: string | undefined;
  bodyEn: string | undefined;
  activeFrom: Date | null;
  activeTo: Date | null;
  /** Also push it to every customer with a push device (`--urgent`; issue 64). */
  urgent?: boolean;
}

/** A published message, and how many customers its urgent notification went to (else 0). */
export interface PublishedStatus extends StatusMessageRow {
  notified: number;
}

function checkStatusMessage(input: PublishInput): NewStatusMessage {
  const fields = [
    ['--title-fo', input.titleFo, MAX_TITLE_LENGTH],
    ['--title-en', input.titleEn, MAX_TITLE_LENGTH],
    ['--body-fo', input.bodyFo, MAX_BODY_LENGTH],
    ['--body-en', input.bodyEn, MAX_BODY_LENGTH],
  ] as const;
  const missing = fields.filter(([, value]) => !value?.trim()).map(([flag]) => flag);
  if (missing.length > 0)
    throw new OperatorError(
      `status publish needs ${missing.join(', ')}: the app shows the message in Faroese and English.`,
    );
  for (const [flag, value, max] of fields) {
    if ((value ?? '').trim().length > max)
      throw new OperatorError(`${flag} is longer than ${max} characters.`);
  }
  if (input.activeFrom && input.activeTo && input.activeTo <= input.activeFrom)
    throw new OperatorError('--to must be after --from (the window is [from, to)).');
  return {
    titleFo: (input.titleFo ?? '').trim(),
    titleEn: (input.titleEn ?? '').trim(),
    bodyFo: (input.bodyFo ?? '').trim(),
    bodyEn: (input.bodyEn ?? '').trim(),
    activeFrom: input.activeFrom,
    activeTo: input.activeTo,
    urgent: input.urgent === true,
  };
}

/**
 * The states `orders --state` lists (provisioned orders only): the console queue's filters, each
 * described at `STAFF_ORDER_FILTERS` (packages/contract/src/schemas/staff-orders.ts), and
 * `complete`. `late` is {@link isLate}; {@link orderInState} is the whole rule of each.
 */
export const ORDER_STATES = [...STAFF_ORDER_COUNTED, 'complete', 'all'] as const;
export type OrderStateFilter = (typeof ORDER_STATES)[number];

const PROVISIONING_STATE: Record<OrderStateFilter, OrderState> = {
  processing: 'open',
  'waiting-network': 'waiting_network',
  'waiting-customer': 'waiting_customer',
  rejected: 'waiting_customer',
  failed: 'failed',
  'due-today': 'open',
  late: 'open',
  complete: 'complete',
  all: 'all',
};

/** The instant today ends in Atlantic/Faroe (the next Faroese midnight). */
export function endOfFaroeDay(now: Date): Date {
  const t = faroeDateTime(now);
  return fromFaroeWallClock(t.year, t.month, t.day + 1);
}

/**
 * LATE, the one rule of it (the console's queue and `orders --state late`): an order is late when
 * it is processing, waits on something the worker does at a due time (the network's next step, or
 * a SIM that becomes active by itself), and that due time passed more than one step period
 * (PROVISIONING_STEP_S) ago. The worker performs due orders every PROVISIONING_POLL_MS and puts
 * an order whose step throws back one step period later, so an order this far past its time is
 * stuck (the worker is down, or its step keeps failing). Orders waiting on the customer, on a
 * month end or stopped by a failure have their own filters and are never late.
 */
export function isLate(order: ProvisioningOrderSummary, now: Date, stepS: number): boolean {
  if (order.isComplete || order.isCancelled || order.nextAt === null) return false;
  if (order.waitingFor !== 'network' && order.waitingFor !== 'customer_sim') return false;
  return order.nextAt.getTime() < now.getTime() - stepS * 1000;
}

/**
 * Whether a provisioned order is in `state` (listed above). The database preselects with
 * PROVISIONING_STATE (repo `listOrdersByState`, the same conditions in SQL); this is the whole
 * rule, so the console's counts and the command's lists agree.
 */
export function orderInState(
  state: OrderStateFilter,
  order: ProvisioningOrderSummary,
  now: Date,
  stepS: number,
): boolean {
  const open = !order.isComplete && !order.isCancelled;
  const processing = open && order.waitingFor !== 'none';
  switch (state) {
    case 'processing':
      return processing;
    case 'waiting-network':
      return open && order.waitingFor === 'network';
    case 'waiting-customer':
      return (
        open && (order.waitingFor === 'customer_sim' || order.waitingFor === 'customer_correction')
      );
    case 'rejected':
      return (
        open && order.waitingFor === 'customer_correction' && order.lastStep === 'port_rejected'
      );
    case 'failed':
      return open && order.waitingFor === 'none';
    case 'due-today':
      return processing && order.nextAt !== null && order.nextAt < endOfFaroeDay(now);
    case 'late':
      return isLate(order, now, stepS);
    case 'complete':
      return order.isComplete;
    case 'all':
      return true;
  }
}

/** An order in the list, with the customer's name. */
export interface OperatorOrderSummary extends ProvisioningOrderSummary {
  /** `Firstname Lastname <email>` (the user id when the customer is gone). */
  customer: string;
  customerName: string | null;
}

export interface OperatorOrder extends ProvisioningOrderDescription {
  customer: string;
  customerName: string | null;
}

/**
 * A console staff member running a provisioning command (ADR 0075): the step's actor and the
 * audit entry's `staffUserId`; the command writes its one audit entry `order.<verb>`.
 */
export type OperatorStaff = StaffCommand;

/* The provisioning commands (PROVISIONING_VERBS, below): each records its operator_actions row
 * in its own transaction. */

export interface OperatorServiceDeps {
  db: Db;
  now: () => Date;
  provisioning: Pick<
    ProvisioningService,
    'listOrders' | 'describe' | 'advance' | 'complete' | 'fail' | 'retry' | 'timing'
  >;
}

export function createOperatorService(deps: OperatorServiceDeps) {
  const { db, now, provisioning } = deps;

  /** `Firstname Lastname <email>` and the name of each user id (an order's customer). */
  async function customers(
    userIds: readonly string[],
  ): Promise<Map<string, { customer: string; customerName: string | null }>> {
    // One query for the whole list (the console's queue polls it, up to 500 orders).
    const found = new Map((await findUsersByIds(db, userIds)).map((user) => [user.id, user]));
    const names = new Map<string, { customer: string; customerName: string | null }>();
    for (const id of new Set(userIds)) {
      const user = found.get(id);
      const name = user ? `${user.firstname} ${user.lastname}` : null;
      names.set(id, {
        customer: user ? `${name} <${user.email}>` : id,
        customerName: name,
      });
    }
    return names;
  }

  const nameOf = (names: Awaited<ReturnType<typeof customers>>, userId: string) =>
    names.get(userId) ?? { customer: userId, customerName: null };

  async function describe(orderId: string): Promise<OperatorOrder> {
    const order = await provisioning.describe(orderId).catch((error: unknown) => {
      throw explain(error, orderId);
    });
    const names = await customers([order.userId]);
    return { ...order, ...nameOf(names, order.userId) };
  }

  /** An unknown order or one in the wrong state, said so the operator can act on it. */
  function explain(error: unknown, orderId: string, verb?: ProvisioningVerb): unknown {
    if (!(error instanceof AppError)) return error;
    if (error.code === 'NOT_FOUND')
      return new OperatorError(
        `No order ${orderId} in provisioning (only new subscriptions, members and SIM changes have steps).`,
        'not-found',
      );
    if (error.code === 'ORDER_NOT_WAITING' && verb)
      return new OperatorError(`${verb}: ${error.message}`, 'not-allowed');
    return error;
  }

  async function act(
    verb: ProvisioningVerb,
    operator: string,
    orderId: string,
    reason: string | undefined,
    staff?: OperatorStaff,
  ): Promise<OperatorOrder> {
    const before = await describe(orderId);
    const why = refusal(verb, before);
    if (why)
      throw new OperatorError(
        `Order ${orderId} cannot be ${PAST[verb]}: ${why.text} (last step ${before.lastStep ?? 'none'}, waiting for ${before.waitingFor}).`,
        'not-allowed',
      );
    const actor = staff ? staff.actor : (`operator:${operator}` as const);
    const staffUserId = staff?.staffUserId ?? null;
    try {
      if (verb === 'fail')
        await provisioning.fail(orderId, actor, requiredReason(verb, reason), staffUserId);
      else await provisioning[verb](orderId, actor, reason, staffUserId);
    } catch (error) {
      throw explain(error, orderId, verb);
    }
    return describe(orderId);
  }

  return {
    /** Provisioned orders in a state, newest first, with the customer's name. */
    async listOrders(state: OrderStateFilter, limit: number): Promise<OperatorOrderSummary[]> {
      const at = now();
      const orders = (await provisioning.listOrders(PROVISIONING_STATE[state]))
        .filter((o) => orderInState(state, o, at, provisioning.timing.stepS))
        .slice(0, limit);
      const names = await customers(orders.map((o) => o.userId));
      return orders.map((o) => ({ ...o, ...nameOf(names, o.userId) }));
    },

    /**
     * A page of the console's queue: the orders in `state` matching `where`, newest first, at
     * most `limit`, older than the order `before` (keyset paging on (created_at, id), as the
     * audit log's; the caller checks that `before` is an order). The database preselects
     * (PROVISIONING_STATE) and {@link orderInState} is the whole rule, so a read may keep fewer
     * than it read: it reads on from its last row until the page and one more are found or no
     * older order is left. `nextBefore`: the last order of the page while there are older ones.
     */
    async pageOrders(
      state: OrderStateFilter,
      page: { limit: number; before?: string | undefined; where?: SQL | undefined },
    ): Promise<{ orders: OperatorOrderSummary[]; nextBefore: string | null }> {
      const at = now();
      const found: ProvisioningOrderSummary[] = [];
      let before = page.before;
      for (;;) {
        const read = await provisioning.listOrders(PROVISIONING_STATE[state], {
          before,
          where: page.where,
          limit: page.limit + 1,
        });
        found.push(...read.filter((o) => orderInState(state, o, at, provisioning.timing.stepS)));
        const last = read.at(-1);
        if (found.length > page.limit || read.length <= page.limit || !last) break;
        before = last.orderId;
      }
      const shown = keysetPage(found, page.limit, (o) => o.orderId);
      const names = await customers(shown.page.map((o) => o.userId));
      return {
        orders: shown.page.map((o) => ({ ...o, ...nameOf(names, o.userId) })),
        nextBefore: shown.nextBefore,
      };
    },

    /** One order with all its steps. */
    describe,

    /** Performs the order's next step now (the worker would do it at its due time). */
    advance(
      operator: string,
      orderId: string,
      reason?: string,
      staff?: OperatorStaff,
    ): Promise<OperatorOrder> {
      return act('advance', operator, orderId, optionalReason(reason), staff);
    },

    /**
     * SPEC §4 "Subscription processing can take days": an operator completes the order by hand
     * (the line becomes active). The reason is required: it is written on the step the customer
     * sees.
     */
    complete(
      operator: string,
      orderId: string,
      reason: string | undefined,
      staff?: OperatorStaff,
    ): Promise<OperatorOrder> {
      return act('complete', operator, orderId, requiredReason('complete', reason), staff);
    },

    /** Stops the order; the customer sees the reason on GET /api/orders/:id. */
    fail(
      operator: string,
      orderId: string,
      reason: string | undefined,
      staff?: OperatorStaff,
    ): Promise<OperatorOrder> {
      return act('fail', operator, orderId, requiredReason('fail', reason), staff);
    },

    /** A failed order (or a rejected port) performs its step again now. */
    retry(
      operator: string,
      orderId: string,
      reason?: string,
      staff?: OperatorStaff,
    ): Promise<OperatorOrder> {
      return act('retry', operator, orderId, optionalReason(reason), staff);
    },

    /**
     * SPEC §1/§4 "Status messages": a new message, shown by POST /api/status in its window. An
     * urgent one is also a notification to every customer with a push device, written in the
     * same transaction and pushed at the message's start (now, or later when scheduled) — even
     * in quiet hours (issue 64): a message that rolls back tells no one.
     */
    async publishStatus(
      operator: string,
      input: PublishInput,
      by: StatusChangeBy = {},
    ): Promise<PublishedStatus> {
      const message = checkStatusMessage(input);
      const reason = optionalReason(by.reason ?? undefined);
      // No --from: from now (so `status list` shows when it went out).
      message.activeFrom ??= now();
      if (message.activeTo && message.activeTo <= message.activeFrom)
        throw new OperatorError('--to must be in the future (or after --from).');
      const activeFrom = message.activeFrom;
      return db.transaction(async (tx) => {
        const row = await publishStatusMessage(tx, message);
        const at = now();
        const notified = row.urgent
          ? await broadcastUrgent(tx, {
              title: { fo: row.titleFo, en: row.titleEn },
              body: { fo: row.bodyFo, en: row.bodyEn },
              statusMessageId: row.id,
              at,
              // Not before the message is shown: a scheduled one's push waits for its start.
              pushAt: activeFrom > at ? activeFrom : at,
            })
          : 0;
        await recordAudit(tx, {
          actor: operator,
          staffUserId: by.staffUserId ?? null,
          kind: 'change',
          action: 'status publish',
          targetType: 'status',
          targetId: row.id,
          // Without a reason of its own the entry says which message it was.
          reason: reason ?? message.titleEn,
          details: {
            titleEn: row.titleEn,
            activeFrom: row.activeFrom?.toISOString() ?? null,
            activeTo: row.activeTo?.toISOString() ?? null,
            urgent: row.urgent,
            ...(row.urgent ? { notified } : {}),
          },
          at,
        });
        return { ...row, notified };
      });
    },

    listStatus(limit: number): Promise<StatusMessageRow[]> {
      return listStatusMessages(db, limit);
    },

    /** Ends a message now: POST /api/status stops showing it. */
    async endStatus(
      operator: string,
      id: string,
      reason?: string,
      by: Pick<StatusChangeBy, 'staffUserId'> = {},
    ): Promise<StatusMessageRow> {
      const text = optionalReason(reason);
      if (!isUuid(id)) throw new OperatorError(`No status message ${id}.`);
      return db.transaction(async (tx) => {
        const at = now();
        const result = await endStatusMessage(tx, id, at);
        if (result.outcome === 'not-found') throw new OperatorError(`No status message ${id}.`);
        if (result.outcome === 'already-ended')
          throw new OperatorError(
            `Status message ${id} has already ended (${result.message.activeTo?.toISOString()}).`,
          );
        // An urgent message ended before it started: its pushes do not go.
        if (result.message.urgent) await withdrawUrgent(tx, id);
        await recordAudit(tx, {
          actor: operator,
          staffUserId: by.staffUserId ?? null,
          kind: 'change',
          action: 'status end',
          targetType: 'status',
          targetId: id,
          reason: text ?? null,
          details: { titleEn: result.message.titleEn, endedAt: at.toISOString() },
          at,
        });
        return result.message;
      });
    },

    listActions(limit: number): Promise<OperatorActionRow[]> {
      return findOperatorActions(db, limit);
    },
  };
}

export type OperatorService = ReturnType<typeof createOperatorService>;

/** The provisioning commands an order can be given (advance, complete, fail, retry). */
export const PROVISIONING_VERBS = ['advance', 'complete', 'fail', 'retry'] as const;
export type ProvisioningVerb = (typeof PROVISIONING_VERBS)[number];

/** Why a command does not apply, as a code (the console says it in its language) and in words. */
export interface Refusal {
  code: 'complete' | 'cancelled' | 'not-retryable' | 'already-failed' | 'failed' | 'no-next-step';
  text: string;
}

/**
 * Why `verb` does not apply to the order as it stands, or null when it does: the one rule the
 * command line and the console follow (the console greys a button with this).
 */
export function refusal(verb: ProvisioningVerb, order: ProvisioningOrderSummary): Refusal | null {
  if (order.isComplete) return { code: 'complete', text: 'it is complete' };
  if (order.isCancelled) return { code: 'cancelled', text: 'it is cancelled' };
  switch (verb) {
    case 'retry':
      return order.lastStep === 'failed' || order.lastStep === 'port_rejected'
        ? null
        : {
            code: 'not-retryable',
            text: `only a failed order or a rejected port can be retried; its last step is ${order.lastStep ?? 'none'}`,
          };
    case 'fail':
      return order.lastStep === 'failed'
        ? { code: 'already-failed', text: 'it has already failed' }
        : null;
    case 'complete':
      return null;
    case 'advance':
      if (hasFailed(order)) return { code: 'failed', text: 'it has failed (retry it first)' };
      return order.nextStep === null ? { code: 'no-next-step', text: 'it has no next step' } : null;
  }
}

/**
 * Stopped by `fail` and not retried since: a retry leaves the `failed` step as the last one and
 * makes the order wait on the network again.
 */
export function hasFailed(order: ProvisioningOrderSummary): boolean {
  return (
    !order.isComplete &&
    !order.isCancelled &&
    order.lastStep === 'failed' &&
    order.waitingFor === 'none'
  );
}

const PAST: Record<ProvisioningVerb, string> = {
  advance: 'advanced',
  complete: 'completed',
  fail: 'failed',
  retry: 'retried',
};
