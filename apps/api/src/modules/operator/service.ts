import type { Db } from '../../db/client';
import type { OperatorActionRow } from '../../db/schema/provisioning';
import type { StatusMessageRow } from '../../db/schema/status-messages';
import { AppError } from '../../errors';
import { isUuid } from '../../uuid';
import type {
  OrderState,
  ProvisioningOrderDescription,
  ProvisioningOrderSummary,
  ProvisioningService,
} from '../provisioning/service';
import { findUserById } from '../users/records';
import {
  endStatusMessage,
  listStatusMessages,
  publishStatusMessage,
  type NewStatusMessage,
} from '../status/messages-service';
import { findOperatorActions, insertOperatorAction } from './repo';

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
}

/** Longest operator name and reason kept (a reason is shown to the customer). */
export const MAX_OPERATOR_LENGTH = 100;
export const MAX_REASON_LENGTH = 500;
const MAX_TITLE_LENGTH = 200;
const MAX_BODY_LENGTH = 2000;

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

export interface PublishInput {
  titleFo: string | undefined;
  titleEn: string | undefined;
  bodyFo: string | undefined;
  bodyEn: string | undefined;
  activeFrom: Date | null;
  activeTo: Date | null;
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
  };
}

/**
 * The states `orders --state` lists (provisioned orders only):
 * - `processing`: not complete, not cancelled, not failed (SPEC §4 "Subscription processing can
 *   take days");
 * - `waiting-network` / `waiting-customer`: processing and waiting on the network / on the
 *   customer (the SIM to confirm, or a SIM card number to correct);
 * - `rejected`: the other provider rejected the port; waiting on the customer's correction;
 * - `failed`: stopped by an operator (`fail`) until retried;
 * - `complete`, `all`.
 */
export const ORDER_STATES = [
  'processing',
  'waiting-network',
  'waiting-customer',
  'rejected',
  'failed',
  'complete',
  'all',
] as const;
export type OrderStateFilter = (typeof ORDER_STATES)[number];

const PROVISIONING_STATE: Record<OrderStateFilter, OrderState> = {
  processing: 'open',
  'waiting-network': 'waiting_network',
  'waiting-customer': 'waiting_customer',
  rejected: 'waiting_customer',
  failed: 'failed',
  complete: 'complete',
  all: 'all',
};

/** An order in the list, with the customer's name. */
export interface OperatorOrderSummary extends ProvisioningOrderSummary {
  customer: string;
}

export interface OperatorOrder extends ProvisioningOrderDescription {
  customer: string;
}

/** The provisioning commands: each records its operator_actions row in its own transaction. */
type ProvisioningVerb = 'advance' | 'complete' | 'fail' | 'retry';

export interface OperatorServiceDeps {
  db: Db;
  now: () => Date;
  provisioning: Pick<
    ProvisioningService,
    'listOrders' | 'describe' | 'advance' | 'complete' | 'fail' | 'retry'
  >;
}

export function createOperatorService(deps: OperatorServiceDeps) {
  const { db, now, provisioning } = deps;

  /** `Firstname Lastname <email>` of each user id (an order's customer). */
  async function customers(userIds: readonly string[]): Promise<Map<string, string>> {
    const names = new Map<string, string>();
    for (const id of new Set(userIds)) {
      const user = await findUserById(db, id);
      names.set(id, user ? `${user.firstname} ${user.lastname} <${user.email}>` : id);
    }
    return names;
  }

  async function describe(orderId: string): Promise<OperatorOrder> {
    const order = await provisioning.describe(orderId).catch((error: unknown) => {
      throw explain(error, orderId);
    });
    const names = await customers([order.userId]);
    return { ...order, customer: names.get(order.userId) ?? order.userId };
  }

  /** An unknown order or one in the wrong state, said so the operator can act on it. */
  function explain(error: unknown, orderId: string, verb?: ProvisioningVerb): unknown {
    if (!(error instanceof AppError)) return error;
    if (error.code === 'NOT_FOUND')
      return new OperatorError(
        `No order ${orderId} in provisioning (only new subscriptions, members and SIM changes have steps).`,
      );
    if (error.code === 'ORDER_NOT_WAITING' && verb)
      return new OperatorError(`${verb}: ${error.message}`);
    return error;
  }

  /** Why `verb` does not apply to the order as it stands, or null when it does. */
  function refusal(verb: ProvisioningVerb, order: ProvisioningOrderDescription): string | null {
    if (order.isComplete) return 'it is complete';
    if (order.isCancelled) return 'it is cancelled';
    switch (verb) {
      case 'retry':
        return order.lastStep === 'failed' || order.lastStep === 'port_rejected'
          ? null
          : `only a failed order or a rejected port can be retried; its last step is ${order.lastStep ?? 'none'}`;
      case 'fail':
        return order.lastStep === 'failed' ? 'it has already failed' : null;
      case 'complete':
        return null;
      case 'advance':
        return hasFailed(order) ? 'it has failed (retry it first)' : null;
    }
  }

  async function act(
    verb: ProvisioningVerb,
    operator: string,
    orderId: string,
    reason: string | undefined,
  ): Promise<OperatorOrder> {
    const before = await describe(orderId);
    const why = refusal(verb, before);
    if (why)
      throw new OperatorError(
        `Order ${orderId} cannot be ${PAST[verb]}: ${why} (last step ${before.lastStep ?? 'none'}, waiting for ${before.waitingFor}).`,
      );
    const actor = `operator:${operator}` as const;
    try {
      if (verb === 'fail') await provisioning.fail(orderId, actor, requiredReason(verb, reason));
      else await provisioning[verb](orderId, actor, reason);
    } catch (error) {
      throw explain(error, orderId, verb);
    }
    return describe(orderId);
  }

  return {
    /** Provisioned orders in a state, newest first, with the customer's name. */
    async listOrders(state: OrderStateFilter, limit: number): Promise<OperatorOrderSummary[]> {
      let orders = await provisioning.listOrders(PROVISIONING_STATE[state]);
      if (state === 'rejected') orders = orders.filter((o) => o.lastStep === 'port_rejected');
      orders = orders.slice(0, limit);
      const names = await customers(orders.map((o) => o.userId));
      return orders.map((o) => ({ ...o, customer: names.get(o.userId) ?? o.userId }));
    },

    /** One order with all its steps. */
    describe,

    /** Performs the order's next step now (the worker would do it at its due time). */
    advance(operator: string, orderId: string, reason?: string): Promise<OperatorOrder> {
      return act('advance', operator, orderId, optionalReason(reason));
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
    ): Promise<OperatorOrder> {
      return act('complete', operator, orderId, requiredReason('complete', reason));
    },

    /** Stops the order; the customer sees the reason on GET /api/orders/:id. */
    fail(operator: string, orderId: string, reason: string | undefined): Promise<OperatorOrder> {
      return act('fail', operator, orderId, requiredReason('fail', reason));
    },

    /** A failed order (or a rejected port) performs its step again now. */
    retry(operator: string, orderId: string, reason?: string): Promise<OperatorOrder> {
      return act('retry', operator, orderId, optionalReason(reason));
    },

    /** SPEC §1/§4 "Status messages": a new message, shown by POST /api/status in its window. */
    async publishStatus(operator: string, input: PublishInput): Promise<StatusMessageRow> {
      const message = checkStatusMessage(input);
      // No --from: from now (so `status list` shows when it went out).
      message.activeFrom ??= now();
      if (message.activeTo && message.activeTo <= message.activeFrom)
        throw new OperatorError('--to must be in the future (or after --from).');
      return db.transaction(async (tx) => {
        const row = await publishStatusMessage(tx, message);
        await insertOperatorAction(tx, {
          operator,
          verb: 'status publish',
          target: row.id,
          reason: message.titleEn,
          at: now(),
        });
        return row;
      });
    },

    listStatus(limit: number): Promise<StatusMessageRow[]> {
      return listStatusMessages(db, limit);
    },

    /** Ends a message now: POST /api/status stops showing it. */
    async endStatus(operator: string, id: string, reason?: string): Promise<StatusMessageRow> {
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
        await insertOperatorAction(tx, {
          operator,
          verb: 'status end',
          target: id,
          reason: text ?? null,
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
