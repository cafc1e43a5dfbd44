import { formatDateTime } from '@alda/contract/format/date';
import { formatPhoneNumber } from '@alda/contract/format/phone';
import type { StaffOrderRow } from '@alda/contract/schemas/staff-orders';

/*
 * How the orders area shows times, numbers and an order's kind: times as `DD.MM.YYYY HH:mm` in
 * Tórshavn and numbers as '55 78 12' (the contract's formatters, as the customer app shows them).
 */

export { formatDateTime, formatPhoneNumber };

/** A SIM card number in groups of four digits, as printed on the card. */
export const formatIccid = (iccid: string) => iccid.replace(/(\d{4})(?=\d)/g, '$1 ');

/**
 * The key of an order's kind under `kind.*`: a new line is a new number or a port (ADR 0055), the
 * rest as the order's own kind.
 */
export function kindKey(
  order: Pick<StaffOrderRow, 'kind' | 'isPorting'>,
): `${StaffOrderRow['kind']}` | 'port' | 'add_member_port' {
  if (order.kind === 'new_subscription' && order.isPorting) return 'port';
  if (order.kind === 'add_member' && order.isPorting) return 'add_member_port';
  return order.kind;
}

/** Who did a step or gave a command: a known actor, a staff member's e-mail or an operator. */
export type ActorLabel =
  | { key: 'network' | 'worker' | 'customer' }
  | { key: 'operator'; name: string }
  | { key: 'staff'; name: string };

export function actorOf(actor: string): ActorLabel {
  if (actor === 'network' || actor === 'worker' || actor === 'customer') return { key: actor };
  if (actor.startsWith('staff:')) return { key: 'staff', name: actor.slice('staff:'.length) };
  if (actor.startsWith('operator:'))
    return { key: 'operator', name: actor.slice('operator:'.length) };
  // The command line's own name (the audit log's `operator` without a prefix).
  return { key: 'operator', name: actor };
}
