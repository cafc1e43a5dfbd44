import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { dataEnvelope } from '@alda/contract/envelope';
import { paymentMethodsResponse, type PaymentMethodsResponse } from '@alda/contract/schemas/orders';
import type { PaymentProvider } from '../../adapters/payments/provider';

/**
 * `GET /api/payments/methods`: how customers can pay with the configured provider (ADR 0081), so
 * the app offers MobilePay only where the provider takes it. The same for everyone and fixed while
 * the process runs: public, and cacheable for an hour.
 */
export const paymentMethodsRoutes: FastifyPluginAsyncZod<{ provider: PaymentProvider }> = async (
  app,
  { provider },
) => {
  const answer: PaymentMethodsResponse = {
    provider: provider.name === 'vipps-mobilepay' ? 'vipps-mobilepay' : 'test',
    methods: [...provider.checkoutMethods],
    agreementVia: provider.agreementVia,
    agreementForPurchases: !provider.agreementChargesLater,
  };
  app.get(
    '/api/payments/methods',
    {
      schema: {
        tags: ['payments'],
        summary: 'How customers can pay',
        description:
          "The configured payment provider's ways to pay a purchase, in the order the app shows them (`mobilepay`, `card`), how a payment agreement is approved (`agreementVia`), and whether purchases other than the monthly payment may be charged to the agreement on file (`agreementForPurchases`: false with Vipps MobilePay, whose Recurring charges are due two days later).",
        response: { 200: dataEnvelope(paymentMethodsResponse) },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=3600');
      return { data: answer };
    },
  );
};
