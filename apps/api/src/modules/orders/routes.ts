import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { dataEnvelope } from '@alda/contract/envelope';
import { idParams } from '@alda/contract/schemas/common';
import { orderResponse, ordersResponse } from '@alda/contract/schemas/orders';
import { errorResponses } from '../../http';
import { requestLocale } from '../../i18n';
import { requireUser } from '../../plugins/auth';
import type { OrderService } from './service';

export const orderRoutes: FastifyPluginAsyncZod<{ service: OrderService }> = async (
  app,
  { service },
) => {
  app.get(
    '/api/orders',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['orders'],
        summary: "The caller's orders (SPEC §3 Order, §4 Orders, §7)",
        description:
          'Orders the caller placed and orders on accounts they own, newest first. An order is processing while `isComplete` is false (this can take days). Cancelled orders are included; the app hides them (`visibleOrders` in `@alda/contract/rules/orders`). `memberName` names the person a new family number is for.',
        security: [{ bearerAuth: [] }],
        response: { 200: dataEnvelope(ordersResponse), ...errorResponses(401) },
      },
    },
    async (request) => ({
      data: await service.list(requireUser(request).id, requestLocale(request)),
    }),
  );

  app.get(
    '/api/orders/:id',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['orders'],
        summary: "One of the caller's orders (the HTTP fallback of the payment flow, SPEC §4)",
        description:
          "The order with its `paymentStatus` (pending, paid, failed, cancelled or not_required) and `isComplete`. The app reads it when the payment hub is not connected or no PaymentUpdated arrived. Orders the caller placed or on accounts they own; 404 NOT_FOUND for anyone else's or an unknown id.",
        security: [{ bearerAuth: [] }],
        params: idParams,
        response: { 200: dataEnvelope(orderResponse), ...errorResponses(401, 404) },
      },
    },
    async (request) => {
      const order = await service.get(
        requireUser(request).id,
        request.params.id,
        requestLocale(request),
      );
      // The status screen polls this when the hub is not there: its payment is watched the same.
      if (order.paymentStatus === 'pending') app.paymentHub.watchedOverHttp(order.id);
      return { data: order };
    },
  );
};
