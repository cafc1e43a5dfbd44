import type { TFunction } from 'i18next';
import type { Order } from '@alda/contract/schemas/orders';

/**
 * An order's heading: its kind, except a port-out (ADR 0076), which is a cancellation by kind
 * but reads as what happened to the number: it moved to another provider.
 */
export function orderTitle(order: Pick<Order, 'kind' | 'lifecycle'>, t: TFunction): string {
  return order.lifecycle?.action === 'port_out'
    ? t('orders.portOut')
    : t(`orders.kind.${order.kind}`);
}
