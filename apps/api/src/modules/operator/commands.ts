import type { OperatorActionRow } from '../../db/schema/provisioning';
import type { StatusMessageRow } from '../../db/schema/status-messages';
import { statusMessageStateAt } from '../status/messages-service';
import { cell, formatFields, formatTable, formatTime } from './format';
import {
  hasFailed,
  type OperatorOrder,
  type OperatorService,
  type OrderStateFilter,
  type PublishInput,
} from './service';

/*
 * The operator command's verbs as text: each runs the operator service and answers what to print
 * on stdout. `src/operator.ts` parses the command line and calls these.
 */

function statusRows(rows: readonly StatusMessageRow[], now: Date): string {
  if (rows.length === 0) return 'No status messages.\n';
  const stateOf = (row: StatusMessageRow) => statusMessageStateAt(row, now);
  return formatTable(
    ['id', 'state', 'urgent', 'from', 'to', 'title (en)'],
    rows.map((row) => [
      row.id,
      stateOf(row),
      row.urgent ? 'yes' : '-',
      formatTime(row.activeFrom),
      formatTime(row.activeTo),
      cell(row.titleEn),
    ]),
  );
}

function orderText(order: OperatorOrder): string {
  const fields: [string, string][] = [
    ['order', order.orderId],
    ['created', formatTime(order.createdAt)],
    ['customer', order.customer],
    ['number', cell(order.msisdn)],
    ['kind', `${order.kind}${order.isPorting ? ' (porting)' : ''}`],
    ['delivery', cell(order.delivery)],
    [
      'state',
      order.isComplete
        ? 'complete'
        : order.isCancelled
          ? 'cancelled'
          : hasFailed(order)
            ? 'failed'
            : order.lastStep === 'failed'
              ? 'processing (retried after a failure)'
              : 'processing',
    ],
    ['waiting for', order.waitingFor],
    ['next due', formatTime(order.nextAt)],
    ['next step', cell(order.nextStep)],
    ['upcoming', order.upcoming.length > 0 ? order.upcoming.join(' → ') : '-'],
  ];
  if (order.portDate) fields.push(['port date', formatTime(order.portDate)]);
  const steps =
    order.steps.length === 0
      ? 'No steps yet.\n'
      : formatTable(
          ['time', 'step', 'actor', 'reason'],
          order.steps.map((s) => [
            formatTime(s.at),
            s.step,
            s.actor,
            cell([s.reasonCode, s.reasonText].filter(Boolean).join(': ')),
          ]),
        );
  return `${formatFields(fields)}\n${steps}`;
}

export function createOperatorCommands(service: OperatorService, now: () => Date) {
  return {
    async orders(state: OrderStateFilter, limit: number): Promise<string> {
      const orders = await service.listOrders(state, limit);
      if (orders.length === 0) return `No orders in state ${state}.\n`;
      return formatTable(
        ['id', 'created', 'customer', 'number', 'kind', 'current step', 'waiting for', 'next due'],
        orders.map((o) => [
          o.orderId,
          formatTime(o.createdAt),
          cell(o.customer),
          cell(o.msisdn),
          o.kind,
          cell(o.lastStep),
          o.waitingFor,
          formatTime(o.nextAt),
        ]),
      );
    },

    async order(id: string): Promise<string> {
      return orderText(await service.describe(id));
    },

    async advance(operator: string, id: string, reason?: string): Promise<string> {
      const order = await service.advance(operator, id, reason);
      return `Advanced order ${id} to ${order.lastStep ?? '-'}.\n\n${orderText(order)}`;
    },

    async complete(operator: string, id: string, reason?: string): Promise<string> {
      const order = await service.complete(operator, id, reason);
      return `Completed order ${id}.\n\n${orderText(order)}`;
    },

    async fail(operator: string, id: string, reason?: string): Promise<string> {
      const order = await service.fail(operator, id, reason);
      return `Failed order ${id}; the customer sees the reason.\n\n${orderText(order)}`;
    },

    async retry(operator: string, id: string, reason?: string): Promise<string> {
      const order = await service.retry(operator, id, reason);
      return `Order ${id} is due again at ${formatTime(order.nextAt)} (waiting for ${order.waitingFor}); the provisioning worker performs its step.\n\n${orderText(order)}`;
    },

    async statusPublish(operator: string, input: PublishInput): Promise<string> {
      const row = await service.publishStatus(operator, input);
      const shown = `Published status message ${row.id} (shown from ${formatTime(row.activeFrom)} until ${row.activeTo ? formatTime(row.activeTo) : 'ended'}).\n`;
      // --urgent: say how many customers it told and when it is pushed.
      return row.urgent
        ? `${shown}Urgent: notified ${row.notified} customer${row.notified === 1 ? '' : 's'} with a push device; pushed at ${formatTime(row.activeFrom)} (not to those who switched status pushes off).\n`
        : shown;
    },

    async statusList(limit: number): Promise<string> {
      return statusRows(await service.listStatus(limit), now());
    },

    async statusEnd(operator: string, id: string, reason?: string): Promise<string> {
      const row = await service.endStatus(operator, id, reason);
      return `Ended status message ${row.id} at ${formatTime(row.activeTo)}.\n`;
    },

    async actions(limit: number): Promise<string> {
      const rows: OperatorActionRow[] = await service.listActions(limit);
      if (rows.length === 0) return 'No operator actions yet.\n';
      return formatTable(
        ['at', 'operator', 'verb', 'target', 'reason'],
        rows.map((row) => [
          formatTime(row.at),
          row.operator,
          row.verb,
          cell(row.target),
          cell(row.reason),
        ]),
      );
    },
  };
}

export type OperatorCommands = ReturnType<typeof createOperatorCommands>;
