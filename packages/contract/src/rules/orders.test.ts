import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Order } from '../schemas/orders';
import { backupMainOrder, hasProcessingOrders, isProcessing, visibleOrders } from './orders';

const order = (id: string, flags: Partial<Order> = {}): Order => ({
  id,
  kind: 'new_subscription',
  isComplete: false,
  isCancelled: false,
  isMainSubscription: false,
  planId: 'individual-20',
  phoneNumber: null,
  price: null,
  paymentStatus: 'not_required',
  createdAt: '2026-06-01T12:00:00.000Z',
  completedAt: null,
  ...flags,
});

const arbitraryOrders = fc.array(
  fc.record({
    id: fc.uuid(),
    isComplete: fc.boolean(),
    isCancelled: fc.boolean(),
    isMainSubscription: fc.boolean(),
  }),
  { maxLength: 12 },
);

describe('orders (SPEC §3 "Order", §4 "Orders")', () => {
  it('is processing while isComplete is false (SPEC §4)', () => {
    expect(isProcessing(order('a'))).toBe(true);
    expect(isProcessing(order('b', { isComplete: true }))).toBe(false);
    expect(isProcessing(order('c', { isCancelled: true }))).toBe(false);
  });

  it('hides cancelled orders and keeps the order of the rest (SPEC §3)', () => {
    const list = [order('a'), order('b', { isCancelled: true }), order('c', { isComplete: true })];
    expect(visibleOrders(list).map((o) => o.id)).toEqual(['a', 'c']);
  });

  it('keeps the first incomplete main-subscription order as backup (SPEC §3)', () => {
    const list = [
      order('extra', { kind: 'add_member' }),
      order('done', { isMainSubscription: true, isComplete: true }),
      order('cancelled', { isMainSubscription: true, isCancelled: true }),
      order('first', { isMainSubscription: true }),
      order('second', { isMainSubscription: true }),
    ];
    expect(backupMainOrder(list)?.id).toBe('first');
    expect(
      backupMainOrder([order('x', { isMainSubscription: true, isComplete: true })]),
    ).toBeNull();
  });

  it('blocks plan changes while any order is processing (SPEC §4)', () => {
    expect(hasProcessingOrders([order('a', { isComplete: true }), order('b')])).toBe(true);
    expect(hasProcessingOrders([order('a', { isComplete: true })])).toBe(false);
    expect(hasProcessingOrders([])).toBe(false);
  });

  it('never shows a cancelled order and drops nothing else (SPEC §3, property)', () => {
    fc.assert(
      fc.property(arbitraryOrders, (orders) => {
        const shown = visibleOrders(orders);
        expect(shown.every((o) => !o.isCancelled)).toBe(true);
        expect(shown.length).toBe(orders.filter((o) => !o.isCancelled).length);
      }),
    );
  });

  it('picks as backup a visible, incomplete main order that no earlier order beats (SPEC §3, property)', () => {
    fc.assert(
      fc.property(arbitraryOrders, (orders) => {
        const backup = backupMainOrder(orders);
        const candidates = orders.filter(
          (o) => o.isMainSubscription && !o.isComplete && !o.isCancelled,
        );
        expect(backup).toBe(candidates[0] ?? null);
      }),
    );
  });
});
