import { describe, expect, it } from 'vitest';
import type { TFunction } from 'i18next';
import { orderTitle } from './order-title';

const t = ((key: string) => key) as unknown as TFunction;

describe('orderTitle (ADR 0076)', () => {
  it('names a port-out as a move to another provider, not as a cancellation', () => {
    const lifecycle = { action: 'port_out', effectiveAt: '2026-11-25T12:00:00.000Z' } as const;
    expect(orderTitle({ kind: 'cancellation', lifecycle } as never, t)).toBe('orders.portOut');
  });

  it('names every other order by its kind', () => {
    const lifecycle = { action: 'delete_number', effectiveAt: '2026-11-25T12:00:00.000Z' } as const;
    expect(orderTitle({ kind: 'cancellation', lifecycle } as never, t)).toBe(
      'orders.kind.cancellation',
    );
    expect(orderTitle({ kind: 'sim_change', lifecycle: null }, t)).toBe('orders.kind.sim_change');
  });
});
