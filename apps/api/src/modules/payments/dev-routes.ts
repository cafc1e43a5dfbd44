import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { AppError } from '../../errors';
import type { TestProvider } from '../../adapters/payments/test-provider/provider';
import { sendRouteNotFound } from '../../plugins/error-handler';
import { findPaymentOfOrder } from './repo';

const orderParams = z.object({ orderId: z.uuid() }).strict();

/**
 * Demo mode only, with the built-in test provider (like /dev/month-end): `POST
 * /dev/payments/:orderId/answer` makes the card company answer the slow test card of this
 * order's payment now, instead of after TEST_PROVIDER_SLOW_DELAY_MS. A browser journey asserts
 * the waiting screen for as long as it needs and then lets the payment go on, rather than racing
 * a timer that a busy machine can lose (issue 41); a demo can show both states at its own pace.
 * 404 outside demo mode (as any unknown path) and for an order with no payment at the provider;
 * 409 when its payment is not a slow card still waiting. Hidden from OpenAPI.
 */
export const paymentDevRoutes: FastifyPluginAsyncZod<{
  db: Db;
  testProvider: TestProvider;
  enabled: boolean;
}> = async (app, { db, testProvider, enabled }) => {
  app.post(
    '/dev/payments/:orderId/answer',
    { schema: { hide: true, params: orderParams } },
    async (request, reply) => {
      if (!enabled) return sendRouteNotFound(request, reply);
      const payment = await findPaymentOfOrder(db, request.params.orderId);
      if (!payment?.providerPaymentId || payment.provider !== 'test') {
        throw new AppError('NOT_FOUND', {
          detail: 'no payment of this order at the test provider',
        });
      }
      if (!(await testProvider.answerNow(payment.providerPaymentId))) {
        throw new AppError('CONFLICT', {
          detail: `the payment is ${payment.state}, not a slow card waiting for its answer`,
        });
      }
      return reply.header('cache-control', 'no-store').send({ data: { answered: true } });
    },
  );
};
