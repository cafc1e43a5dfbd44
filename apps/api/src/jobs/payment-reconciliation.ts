import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { ReconcileResult } from '../modules/payments/service';
import { registerRounds } from './rounds';

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
  registerRounds(app, {
    name: 'payment_reconciliation',
    everyMs: options.intervalS * 1000,
    atStart: false,
    run: async () => {
      await options.reconcile({ afterS: options.afterS });
      // Reconciliation may have just heard of a late charge: its refund goes out this round.
      await options.refund();
    },
    failure: 'payment reconciliation round failed',
    log: options.log,
  });
}
