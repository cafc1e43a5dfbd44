import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { dataEnvelope } from '@alda/contract/envelope';
import { monthlyPriceResponse, payMonthRequest } from '@alda/contract/schemas/billing';
import { orderPlacedResponse } from '@alda/contract/schemas/orders';
import { errorResponses } from '../../http';
import { requestLocale } from '../../i18n';
import { requireUser } from '../../plugins/auth';
import { purchaseOf } from '../orders/placing';
import type { BillingService } from './service';

export const billingRoutes: FastifyPluginAsyncZod<{ service: BillingService }> = async (
  app,
  { service },
) => {
  app.get(
    '/api/billing/monthly-price',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['billing'],
        summary: "This month's price of the caller's subscriptions (SPEC §1, §8, §9)",
        description:
          "Lines of the accounts the caller owns: a family plan's numbers at memberPrices by position (SPEC §4), individual plans at their monthly price, prepaid numbers at 0, the EU package where it is on, and the extra lines owed once: an easy number's one-off price (`number_fee`, ADR 0077) and each past month's roaming charges per number (`roaming`, ADR 0078; a paid month shows those its payment charged). Prices with and without VAT (25 %). `period` is the Faroese month; `paidOrderId` the order that paid it, or null.",
        security: [{ bearerAuth: [] }],
        response: { 200: dataEnvelope(monthlyPriceResponse), ...errorResponses(401) },
      },
    },
    async (request) => ({
      data: await service.monthlyPrice(requireUser(request).id, requestLocale(request)),
    }),
  );

  app.post(
    '/api/billing/pay',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['billing'],
        summary: "Pay this month's price by card (SPEC §1)",
        description:
          'Places a `subscription_payment` order for the month\'s total; while a payment of the month is still open, answers that order and its card page instead (no second charge). Send an `Idempotency-Key` header (400 IDEMPOTENCY_KEY_REQUIRED without). 409 ALREADY_PAID when the month is paid, 409 NOTHING_TO_PAY when the total is 0, 409 AGREEMENT_REQUIRED for `payWith: "agreement"` without a card on file, 503 PAYMENT_PROVIDER_UNAVAILABLE.',
        security: [{ bearerAuth: [] }],
        body: payMonthRequest,
        response: {
          201: dataEnvelope(orderPlacedResponse),
          ...errorResponses(400, 401, 409, 422, 503),
        },
      },
    },
    async (request, reply) => {
      const placed = await service.pay(purchaseOf(request, 'POST /api/billing/pay'), request.body);
      return reply.code(201).send({ data: placed });
    },
  );
};
