import type { Locale } from '@alda/contract/locale';
import type { AuditEntry } from '@alda/contract/schemas/staff';
import type {
  StaffOrderAction,
  StaffOrderActions,
  StaffOrderCounts,
  StaffOrderDetail,
  StaffOrderPorting,
  StaffOrderRow,
  StaffOrdersPage,
  StaffOrdersQuery,
  StaffOrderState,
  StaffPortCorrectionRequest,
} from '@alda/contract/schemas/staff-orders';
import { STAFF_ORDER_COUNTED } from '@alda/contract/schemas/staff-orders';
import type { Db } from '../../db/client';
import { AppError } from '../../errors';
import type { StaffCaller } from '../../plugins/staff-auth';
import { listAudit } from '../operator/audit';
import {
  hasFailed,
  isLate,
  orderInState,
  OperatorError,
  PROVISIONING_VERBS,
  refusal,
  type OperatorOrder,
  type OperatorOrderSummary,
  type OperatorService,
  type OrderStateFilter,
  type ProvisioningVerb,
} from '../operator/service';
import type { ProvisioningOrderSummary, ProvisioningService } from '../provisioning/service';
import { reasonText } from '../provisioning/texts';
import { findUserById } from '../users/records';
import { findLineOfOrder, orderAnchor, orderSearch } from './orders-repo';
import { findServiceOrdersOfOrder } from '../../adapters/network/tmf641/store';

/*
 * The staff console's orders area (issue 31, docs/decisions/0075-staff-console.md): the
 * provisioning queue, one order's timeline, and the commands on it. ONE SET OF RULES: the queue's
 * filters, the commands and their refusals are the operator service's (`npm run operator`), the
 * port correction is the provisioning service's `correctPorting` (the customer's PATCH
 * /api/orders/:id/porting). This file only shapes answers and maps refusals to HTTP:
 *
 * - a command the order's state does not allow → 409 STAFF_ACTION_NOT_ALLOWED (the operator
 *   service's explanation in the log's detail);
 * - an unknown order → 404 NOT_FOUND; bad input → 400.
 *
 * Every command writes exactly one audit entry, `order.<verb>` with `staff:<email>` and the staff
 * account, in the transaction of the change (the provisioning service writes it).
 *
 * Reading the queue and an order is not audited: it shows a name and a number, not the customer's
 * personal data (that is the customers area, which asks for a reason).
 */

export interface StaffOrdersServiceDeps {
  db: Db;
  now: () => Date;
  operator: OperatorService;
  provisioning: Pick<ProvisioningService, 'listOrders' | 'timing' | 'correctPorting'>;
}

/** Where one order stands (the row's `state`). */
export function orderStateOf(order: ProvisioningOrderSummary): StaffOrderState {
  if (order.isComplete) return 'complete';
  if (order.isCancelled) return 'cancelled';
  if (hasFailed(order)) return 'failed';
  switch (order.waitingFor) {
    case 'network':
      return 'waiting-network';
    case 'customer_sim':
      return 'waiting-customer';
    case 'customer_correction':
      return 'rejected';
    case 'month_end':
      return 'month-end';
    case 'none':
      // Open and waiting on no one: stopped (the `failed` filter lists it).
      return 'failed';
  }
}

/** The verbs of the command line in the audit log, and the console's `order.<verb>`. */
const COMMAND_ACTIONS = new Set<string>(
  PROVISIONING_VERBS.flatMap((verb) => [verb, `order.${verb}`]),
);
const PORT_CORRECTION = 'order.port-correction';

export function createStaffOrdersService(deps: StaffOrdersServiceDeps) {
  const { db, now, operator, provisioning } = deps;
  const stepS = () => provisioning.timing.stepS;

  /**
   * Why the order stopped (a failure) or waits on the customer (a rejected port): the words on
   * the step, else its code's text. A network failure's own words are shown here, to staff.
   */
  function stopReasonOf(order: OperatorOrderSummary, locale: Locale): string | null {
    if (order.lastStep !== 'failed' && order.lastStep !== 'port_rejected') return null;
    const reason = order.lastReason;
    if (!reason) return null;
    return (
      reason.text ??
      (reason.code ? reasonText({ reasonCode: reason.code, reasonText: null }, locale) : null)
    );
  }

  function rowOf(order: OperatorOrderSummary, at: Date, locale: Locale): StaffOrderRow {
    return {
      id: order.orderId,
      createdAt: order.createdAt.toISOString(),
      customer: { id: order.userId, name: order.customerName },
      msisdn: order.msisdn,
      kind: order.kind,
      isPorting: order.isPorting,
      delivery: order.delivery,
      state: orderStateOf(order),
      waitingFor: order.waitingFor,
      lastStep: order.lastStep,
      lastStepAt: order.lastStepAt?.toISOString() ?? null,
      nextStep: order.nextStep,
      nextAt: order.nextAt?.toISOString() ?? null,
      late: isLate(order, at, stepS()),
      stopReason: stopReasonOf(order, locale),
    };
  }

  /** How many open orders each filter has: two queries, counted with the filters' own rule. */
  async function counts(at: Date): Promise<StaffOrderCounts> {
    const open = (
      await Promise.all([provisioning.listOrders('open'), provisioning.listOrders('failed')])
    ).flat();
    const result = Object.fromEntries(STAFF_ORDER_COUNTED.map((f) => [f, 0])) as StaffOrderCounts;
    for (const order of open) {
      for (const filter of STAFF_ORDER_COUNTED) {
        if (orderInState(filter, order, at, stepS())) result[filter] += 1;
      }
    }
    return result;
  }

  /** The operator service's refusal as the HTTP answer the console expects. */
  function httpError(error: unknown): unknown {
    if (!(error instanceof OperatorError)) return error;
    switch (error.kind) {
      case 'not-found':
        return new AppError('NOT_FOUND', { field: 'id', detail: error.message });
      case 'not-allowed':
        return new AppError('STAFF_ACTION_NOT_ALLOWED', { detail: error.message });
      case 'refused':
        return new AppError('VALIDATION_FAILED', { field: 'reason', detail: error.message });
    }
  }

  function actionsOf(order: OperatorOrder): StaffOrderActions {
    const state = (why: ReturnType<typeof refusal>) => ({
      allowed: why === null,
      refusal: why?.code ?? null,
    });
    const correctable =
      !order.isComplete && !order.isCancelled && order.waitingFor === 'customer_correction';
    return {
      advance: state(refusal('advance', order)),
      complete: state(refusal('complete', order)),
      fail: state(refusal('fail', order)),
      retry: state(refusal('retry', order)),
      'port-correction': {
        allowed: correctable,
        refusal: correctable
          ? null
          : order.isComplete
            ? 'complete'
            : order.isCancelled
              ? 'cancelled'
              : 'not-rejected',
      },
    };
  }

  /**
   * The newest rejection of a port and what happened since (contract `staffOrderPorting`). The
   * time a customer entered a correction is not stored with the order (that would need a
   * column); it is read from what the order and the audit log say:
   * - the order waits on the customer again → `waiting`;
   * - a staff member's correction after the rejection (its audit entry) → `entered` by them;
   * - else the first command given after the rejection: a console command's audit entry keeps
   *   where the order stood — waiting on the network again means the customer had corrected it
   *   (due one step after they did) → `entered` by the customer; waiting on the correction means
   *   they had not → `asked-again` (retry, advance) or `stopped` (fail, complete); a command-line
   *   entry does not say, and is read the same as "not corrected";
   * - no command since → `entered` by the customer (a correction is the only other way out of the
   *   wait), its time known while the port is not asked again yet.
   */
  function portingOf(
    order: OperatorOrder,
    history: readonly AuditEntry[],
    locale: Locale,
  ): StaffOrderPorting | null {
    if (!order.isPorting) return null;
    const rejection = order.steps.findLast((s) => s.step === 'port_rejected');
    const base = {
      simcardNumber: order.portingSimcardNumber,
      portDate: order.portDate?.toISOString() ?? null,
    };
    if (!rejection) return { ...base, rejection: null, correction: null };
    const rejectedAt = rejection.at.getTime();
    const since = history
      .filter(
        (e) =>
          new Date(e.at).getTime() >= rejectedAt &&
          (e.action === PORT_CORRECTION || COMMAND_ACTIONS.has(e.action)),
      )
      .sort((a, b) => a.at.localeCompare(b.at));
    const correctedBy = (
      at: string | null,
      by: string,
      simcardNumber = order.portingSimcardNumber,
    ) => ({ state: 'entered', simcardNumber, at, by }) as const;
    const dueLess = (nextAt: unknown) =>
      typeof nextAt === 'string'
        ? new Date(Date.parse(nextAt) - stepS() * 1000).toISOString()
        : null;
    const staffFix = since.find((e) => e.action === PORT_CORRECTION);
    const first = since.find((e) => e.action !== PORT_CORRECTION);
    let correction: StaffOrderPorting['correction'];
    if (order.waitingFor === 'customer_correction' && order.lastStep === 'port_rejected')
      correction = { state: 'waiting', simcardNumber: null, at: null, by: null };
    else if (staffFix && (!first || staffFix.at <= first.at))
      correction = correctedBy(
        staffFix.at,
        staffFix.actor,
        typeof staffFix.details?.simcardNumber === 'string'
          ? staffFix.details.simcardNumber
          : order.portingSimcardNumber,
      );
    else if (first) {
      const before = first.details;
      if (before?.waitingFor === 'network' && before.lastStep === 'port_rejected')
        correction = correctedBy(dueLess(before.nextAt), 'customer');
      else {
        const verb = first.action.replace(/^order\./, '');
        correction = {
          state: verb === 'retry' || verb === 'advance' ? 'asked-again' : 'stopped',
          simcardNumber: order.portingSimcardNumber,
          at: null,
          by: null,
        };
      }
    } else {
      const pending = order.lastStep === 'port_rejected' && order.waitingFor === 'network';
      correction = correctedBy(pending ? dueLess(order.nextAt?.toISOString()) : null, 'customer');
    }
    return {
      ...base,
      rejection: {
        at: rejection.at.toISOString(),
        code: rejection.reasonCode,
        reason: reasonText({ reasonCode: rejection.reasonCode, reasonText: null }, locale),
      },
      correction,
    };
  }

  async function detail(orderId: string, locale: Locale): Promise<StaffOrderDetail> {
    let order: OperatorOrder;
    try {
      order = await operator.describe(orderId);
    } catch (error) {
      throw httpError(error);
    }
    const at = now();
    const [user, line, audit, network] = await Promise.all([
      findUserById(db, order.userId),
      order.lineId ? findLineOfOrder(db, order.lineId) : Promise.resolve(undefined),
      listAudit(db, { targetId: order.orderId, limit: 100 }),
      findServiceOrdersOfOrder(db, order.orderId),
    ]);
    const history = audit.items.filter((e) => e.kind === 'change');
    return {
      ...rowOf(order, at, locale),
      customer: {
        id: order.userId,
        name: order.customerName,
        email: user?.email ?? null,
      },
      line: line ?? null,
      accountId: order.accountId,
      upcoming: order.upcoming,
      steps: order.steps.map((s) => ({
        step: s.step,
        at: s.at.toISOString(),
        actor: s.actor,
        reasonCode: s.reasonCode,
        codeText: s.reasonCode
          ? reasonText({ reasonCode: s.reasonCode, reasonText: null }, locale)
          : null,
        operatorReason: s.reasonText,
      })),
      porting: portingOf(order, history, locale),
      actions: actionsOf(order),
      history,
      networkOrders: network.map((n) => ({
        externalId: n.externalId,
        id: n.tmfId,
        call: n.kind,
        state: n.state,
        errorCode: n.errorCode,
        reason: n.errorReason,
        createdAt: n.createdAt.toISOString(),
        updatedAt: n.updatedAt.toISOString(),
      })),
    };
  }

  return {
    /**
     * The queue: a page of the orders of a filter (the operator command's rule), newest first,
     * with counts per filter. Paging as the audit log's: `before` the last order shown, answered
     * `nextBefore`; a `before` that is no order is left out (the newest page), as the audit does.
     */
    async list(query: StaffOrdersQuery, locale: Locale = 'fo'): Promise<StaffOrdersPage> {
      const at = now();
      const state: OrderStateFilter = query.state;
      const page = await operator.pageOrders(state, {
        limit: query.limit,
        before: await orderAnchor(db, query.before),
        where: orderSearch(query.q ?? ''),
      });
      return {
        state,
        items: page.orders.map((o) => rowOf(o, at, locale)),
        nextBefore: page.nextBefore,
        counts: await counts(at),
        stepS: stepS(),
      };
    },

    detail,

    /**
     * A provisioning command through the operator service — the same refusals and the same one
     * audit entry as `npm run operator`, named `staff:<email>` with the staff account.
     */
    async command(
      verb: ProvisioningVerb,
      orderId: string,
      reason: string | undefined,
      who: StaffCaller,
      locale: Locale,
    ): Promise<StaffOrderDetail> {
      const actor = who.actor as `staff:${string}`;
      try {
        await operator[verb](who.actor, orderId, reason, { actor, staffUserId: who.id });
      } catch (error) {
        throw httpError(error);
      }
      return detail(orderId, locale);
    },

    /**
     * Support enters the corrected SIM card number of a rejected port for the customer: the
     * provisioning service's `correctPorting` (the customer's own rule), audited in its transaction.
     */
    async correctPort(
      orderId: string,
      body: StaffPortCorrectionRequest,
      who: StaffCaller,
      locale: Locale,
    ): Promise<StaffOrderDetail> {
      let order: OperatorOrder;
      try {
        order = await operator.describe(orderId);
      } catch (error) {
        throw httpError(error);
      }
      try {
        await provisioning.correctPorting(order.userId, orderId, body.simcardNumber, locale, {
          actor: who.actor as `staff:${string}`,
          staffUserId: who.id,
          reason: body.reason,
        });
      } catch (error) {
        if (error instanceof AppError && error.code === 'ORDER_NOT_WAITING')
          throw new AppError('STAFF_ACTION_NOT_ALLOWED', {
            detail: `port-correction: ${error.message}`,
          });
        throw error;
      }
      return detail(orderId, locale);
    },
  };
}

export type StaffOrdersService = ReturnType<typeof createStaffOrdersService>;
export type { StaffOrderAction };
