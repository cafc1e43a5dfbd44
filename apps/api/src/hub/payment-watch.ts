import type { FastifyBaseLogger } from 'fastify';

/*
 * A payment a customer is watching is read from the provider at the pace of Vipps MobilePay's
 * polling guidelines — "Start after 5 seconds", "Check every 2 seconds" — until it settles, the
 * customer leaves, or `maxMs` is up (a MobilePay payment expires after 10 minutes); the 60-s
 * reconciliation rounds read every other payment (docs/decisions/0081-vipps-mobilepay.md,
 * "Guidelines: polling, 429, webhooks").
 *
 * Watching is per instance: a hub connection listening to the order holds the watch while it
 * listens (released when it stops listening or disconnects), and a read of the order over HTTP
 * (the status screen without the hub) holds it for `leaseMs`. Only the instance that holds it
 * reads the provider. However many watch one order here, it is read once per round. Rounds are
 * timers of this process, spaced from the end of the previous read, never overlapping.
 */

export interface PaymentWatchOptions {
  /** Before the first read of a newly watched order. */
  firstMs: number;
  /** Between the end of one read and the next. */
  everyMs: number;
  /** Longest an order is read at this pace from the start of its watch; 0 turns watching off. */
  maxMs: number;
  /** How long one HTTP read of the order keeps it watched. */
  leaseMs: number;
  /** Reads the order's payment from the provider once; 'settled' ends the watch. */
  poll(orderId: string): Promise<'open' | 'settled'>;
  log: FastifyBaseLogger;
  /** Monotonic milliseconds (tests may replace it). */
  clock?: () => number;
}

interface Watch {
  /** Hub listeners holding it. */
  holders: number;
  /** Held by an HTTP read until then (clock ms). */
  leaseUntil: number;
  startedAt: number;
  timer: NodeJS.Timeout | null;
  /** The read under way, if any. */
  reading: Promise<void> | null;
}

export type PaymentWatch = ReturnType<typeof createPaymentWatch>;

export function createPaymentWatch(options: PaymentWatchOptions) {
  const clock = options.clock ?? (() => performance.now());
  const watches = new Map<string, Watch>();
  let closed = false;
  const on = () => options.maxMs > 0 && !closed;

  const held = (watch: Watch) => watch.holders > 0 || watch.leaseUntil > clock();

  function end(orderId: string, watch: Watch) {
    if (watch.timer) clearTimeout(watch.timer);
    watch.timer = null;
    if (watches.get(orderId) === watch) watches.delete(orderId);
  }

  function schedule(orderId: string, watch: Watch, ms: number) {
    watch.timer = setTimeout(() => {
      watch.timer = null;
      watch.reading = round(orderId, watch).finally(() => {
        watch.reading = null;
      });
    }, ms);
  }

  async function round(orderId: string, watch: Watch) {
    if (!held(watch) || clock() - watch.startedAt > options.maxMs || closed) {
      end(orderId, watch);
      return;
    }
    let outcome: 'open' | 'settled' = 'open';
    try {
      outcome = await options.poll(orderId);
    } catch (error) {
      options.log.warn({ err: error, orderId }, 'watched payment: read failed; tried again');
    }
    if (outcome === 'settled' || !held(watch) || closed) {
      end(orderId, watch);
      return;
    }
    schedule(orderId, watch, options.everyMs);
  }

  function start(orderId: string): Watch {
    let watch = watches.get(orderId);
    if (!watch) {
      watch = { holders: 0, leaseUntil: 0, startedAt: clock(), timer: null, reading: null };
      watches.set(orderId, watch);
      schedule(orderId, watch, options.firstMs);
    }
    return watch;
  }

  return {
    /**
     * A hub listener watches the order until the answer is called (idempotent). A watch whose
     * last holder leaves reads nothing more.
     */
    hold(orderId: string): () => void {
      if (!on()) return () => {};
      const watch = start(orderId);
      watch.holders += 1;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        watch.holders -= 1;
        if (!held(watch) && !watch.reading) end(orderId, watch);
      };
    },
    /** An HTTP read of a pending order: watched for `leaseMs` more. */
    touch(orderId: string): void {
      if (!on()) return;
      const watch = start(orderId);
      watch.leaseUntil = Math.max(watch.leaseUntil, clock() + options.leaseMs);
    },
    /** Orders watched on this instance now. */
    get size() {
      return watches.size;
    },
    /** Stops every watch and waits for the reads under way (the app is closing). */
    async close(): Promise<void> {
      closed = true;
      const reading = [...watches.values()].map((watch) => watch.reading);
      for (const [orderId, watch] of [...watches]) end(orderId, watch);
      await Promise.all(reading);
    },
  };
}
