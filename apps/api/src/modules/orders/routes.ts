import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { dataEnvelope } from '@alda/contract/envelope';
import { ordersResponse } from '@alda/contract/schemas/orders';
import { errorResponses } from '../../http';
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
    async (request) => ({ data: await service.list(requireUser(request).id) }),
  );
};
