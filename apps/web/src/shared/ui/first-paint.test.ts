import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  afterFirstPaint,
  FIRST_PAINT_WAIT_MS,
  firstScreenCommitted,
  holdUntilFirstPaint,
} from './first-paint';

/** A browser's PerformanceObserver for largest contentful paints: `report` delivers an entry. */
function fakeLcpObserver(supported = true) {
  const observers: { callback: PerformanceObserverCallback; disconnected: boolean }[] = [];
  class FakeObserver {
    static supportedEntryTypes = supported ? ['paint', 'largest-contentful-paint'] : ['paint'];
    private readonly entry: (typeof observers)[number];
    constructor(callback: PerformanceObserverCallback) {
      this.entry = { callback, disconnected: false };
      observers.push(this.entry);
    }
    observe() {}
    disconnect() {
      this.entry.disconnected = true;
    }
  }
  vi.stubGlobal('PerformanceObserver', FakeObserver);
  return {
    observers,
    report: (startTime: number) => {
      for (const o of observers.filter((x) => !x.disconnected))
        o.callback(
          { getEntries: () => [{ startTime }] } as unknown as PerformanceObserverEntryList,
          {} as PerformanceObserver,
        );
    },
  };
}

/** Whether the promise has settled after pending callbacks and the task they started ran. */
async function settled(promise: Promise<void>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await Promise.resolve();
  await Promise.resolve();
  if (!vi.isFakeTimers()) await new Promise((resolve) => setTimeout(resolve, 1));
  for (let i = 0; i < 4; i++) await Promise.resolve();
  return done;
}

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

// Issue 45: what the first screen does not show (the first poll, home's request inbox, the modal
// host, the other screens' texts) starts once that screen is on the display.
describe('the work held until the first screen is painted (issue 45)', () => {
  it('waits for nothing when nothing holds it (a screen rendered on its own)', async () => {
    expect(await settled(afterFirstPaint())).toBe(true);
  });

  it('opens when the browser reports a largest paint after the first screen was committed', async () => {
    const lcp = fakeLcpObserver();
    vi.spyOn(performance, 'now').mockReturnValue(1_000);
    holdUntilFirstPaint();
    const held = afterFirstPaint();
    expect(await settled(held)).toBe(false);
    firstScreenCommitted();
    // The splash, painted before the commit, does not count.
    lcp.report(400);
    expect(await settled(held)).toBe(false);
    lcp.report(1_060);
    expect(await settled(held)).toBe(true);
    expect(lcp.observers.every((o) => o.disconnected)).toBe(true);
  });

  it(`opens after ${FIRST_PAINT_WAIT_MS} ms when no paint is reported (no such API, nothing larger than the splash)`, async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    fakeLcpObserver(false);
    holdUntilFirstPaint();
    const held = afterFirstPaint();
    firstScreenCommitted();
    await vi.advanceTimersByTimeAsync(FIRST_PAINT_WAIT_MS - 1);
    expect(await settled(held)).toBe(false);
    // Opened; the waiter goes on in a task of its own (a timer's 1 ms).
    await vi.advanceTimersByTimeAsync(2);
    expect(await settled(held)).toBe(true);
  });

  it('lets each waiting piece of work go on in a task of its own, not all in one long task', async () => {
    fakeLcpObserver(false);
    vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden');
    holdUntilFirstPaint();
    const order: string[] = [];
    const first = afterFirstPaint().then(() => {
      order.push('poll');
      // Work the first piece queues runs before the next piece starts: a task boundary.
      void Promise.resolve().then(() => order.push('poll, its microtask'));
    });
    const second = afterFirstPaint().then(() => order.push('inbox'));
    firstScreenCommitted();
    await Promise.all([first, second]);
    expect(order).toEqual(['poll', 'poll, its microtask', 'inbox']);
  });

  it('opens at once in a hidden page, which paints nothing', async () => {
    fakeLcpObserver();
    vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden');
    holdUntilFirstPaint();
    const held = afterFirstPaint();
    firstScreenCommitted();
    expect(await settled(held)).toBe(true);
  });
});
