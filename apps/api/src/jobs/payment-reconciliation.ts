import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { ReconcileResult } from '../modules/payments/service';

export interface PaymentReconciliationOptions {
  /** Seconds between rounds; 0 turns the job off. */
  intervalS: number;
  /** Payments open (created/pending) and unchanged for longer than this are re-read. */
  afterS: number;
  reconcile: (options: { afterS: number }) => Promise<ReconcileResult>;
  /** Sends the refunds that are due (charges that arrived after a payment was closed). */
  refund: () => Promise<unknown>;
  log: FastifyBaseLogger;
}

/**
 * Reconciliation with the payment provider (docs/decisions/0050-payments.md): every
 * `intervalS` seconds, payments stuck in created/pending are re-read from the provider and moved
 * on through the same transition as webhooks. Started once the app is ready, stopped before the
 * database closes; rounds never overlap, and several instances may run it at once (each payment
 * is locked with SKIP LOCKED). Each round then sends the refunds that are due.
 */
export function registerPaymentReconciliation(
  app: FastifyInstance,
  options: PaymentReconciliationOptions,
): void {
  if (options.intervalS <= 0) return;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<unknown> | null = null;
  app.addHook('onReady', async () => {
    timer = setInterval(() => {
      if (running) return;
      const round = async () => {
        await options.reconcile({ afterS: options.afterS });
        // Reconciliation may have just heard of a late charge: its refund goes out this round.
        await options.refund();
      };
      running = round()
        .catch((error: unknown) =>
          options.log.warn({ err: error }, 'payment reconciliation round failed'),
        )
        .finally(() => {
          running = null;
        });
    }, options.intervalS * 1000);
    timer.unref();
  });
  app.addHook('preClose', async () => {
    if (timer) clearInterval(timer);
    timer = null;
    await running;
  });
}
