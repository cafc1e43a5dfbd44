import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import pino from 'pino';
import { createPaymentWatch } from './payment-watch';

/*
 * The watch's pace on a fake clock (issue 61 §2, Vipps MobilePay's polling guidelines): first read
 * after `firstMs`, then every `everyMs` after the previous read ends; it ends when the payment
 * settles, the last holder leaves, a lease runs out, or `maxMs` is up. The payment hub on Prism
 * (test/payments.vipps-guidelines.test.ts) shows the same with real connections.
 */

const log = pino({ level: 'silent' });

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

function watchWith(
  options: Partial<Parameters<typeof createPaymentWatch>[0]> & { settleAfter?: number } = {},
) {
  const reads: number[] = [];
  let outcome: 'open' | 'settled' = 'open';
  const watch = createPaymentWatch({
    firstMs: 5_000,
    everyMs: 2_000,
    maxMs: 600_000,
    leaseMs: 15_000,
    log,
    clock: () => Date.now(),
    poll: async () => {
      reads.push(Date.now());
      if (options.settleAfter !== undefined && reads.length >= options.settleAfter) {
        outcome = 'settled';
      }
      return outcome;
    },
    ...options,
  });
  return { watch, reads };
}

describe('a watched payment is read as their polling guidelines say (issue 61 §2)', () => {
  it('first after 5 s, then every 2 s, one read per round however many watch', async () => {
    const { watch, reads } = watchWith();
    const start = Date.now();
    watch.hold('order-1');
    watch.hold('order-1');
    await vi.advanceTimersByTimeAsync(4_999);
    expect(reads).toEqual([]);
    await vi.advanceTimersByTimeAsync(1 + 2_000 * 3);
    expect(reads.map((at) => at - start)).toEqual([5_000, 7_000, 9_000, 11_000]);
    await watch.close();
  });

  it('ends when the payment settles', async () => {
    const { watch, reads } = watchWith({ settleAfter: 2 });
    watch.hold('order-1');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(reads).toHaveLength(2);
    expect(watch.size).toBe(0);
  });

  it('ends when the last watcher leaves, and not before', async () => {
    const { watch, reads } = watchWith();
    const first = watch.hold('order-1');
    const second = watch.hold('order-1');
    await vi.advanceTimersByTimeAsync(7_000);
    expect(reads).toHaveLength(2);
    first();
    first();
    await vi.advanceTimersByTimeAsync(2_000);
    expect(reads).toHaveLength(3);
    second();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(reads).toHaveLength(3);
    expect(watch.size).toBe(0);
  });

  it('an HTTP read keeps it watched for the lease, then it ends', async () => {
    const { watch, reads } = watchWith({ leaseMs: 10_000 });
    watch.touch('order-1');
    await vi.advanceTimersByTimeAsync(60_000);
    // Reads at 5, 7 and 9 s; at 11 s the lease (10 s) is over.
    expect(reads).toHaveLength(3);
    expect(watch.size).toBe(0);
  });

  it('stops after maxMs however long it is watched; 0 watches nothing', async () => {
    const capped = watchWith({ maxMs: 10_000 });
    capped.watch.hold('order-1');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(capped.reads).toHaveLength(3);
    const off = watchWith({ maxMs: 0 });
    off.watch.hold('order-2');
    off.watch.touch('order-2');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(off.reads).toEqual([]);
  });

  it('keeps its pace when a read fails', async () => {
    let calls = 0;
    const { watch } = watchWith({
      poll: async () => {
        calls += 1;
        throw new Error('provider down');
      },
    });
    watch.hold('order-1');
    await vi.advanceTimersByTimeAsync(9_000);
    expect(calls).toBe(3);
    await watch.close();
  });
});
