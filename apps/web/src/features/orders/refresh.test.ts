import { describe, expect, it } from 'vitest';
import type { Order } from '@alda/contract/schemas/orders';
import { refreshDelay } from './refresh';

const now = Date.parse('2026-11-22T12:00:00Z');
const order = (provisioning: Partial<NonNullable<Order['provisioning']>> | null) =>
  ({
    provisioning: provisioning && {
      steps: [],
      upcoming: [],
      waitingFor: 'network',
      expectedAt: null,
      delivery: 'esim',
      pickupLocation: null,
      isPorting: false,
      portDate: null,
      ...provisioning,
    },
  }) as Order;

describe('order screen refresh (SPEC §4 "Subscription processing can take days")', () => {
  it('reads the order again just after its next step is expected, at most every 30 s', () => {
    const at = (s: number) => new Date(now + s * 1000).toISOString();
    expect(refreshDelay(order({ expectedAt: at(2) }), now)).toBe(2_500);
    expect(refreshDelay(order({ expectedAt: at(-60) }), now)).toBe(1_000);
    expect(refreshDelay(order({ expectedAt: at(3600) }), now)).toBe(30_000);
  });

  it('waits the full 30 s when the customer, not the network, is next, or nothing is known', () => {
    const soon = new Date(now + 2000).toISOString();
    expect(refreshDelay(order({ waitingFor: 'customer_sim', expectedAt: soon }), now)).toBe(30_000);
    expect(refreshDelay(order(null), now)).toBe(30_000);
  });
});
