import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { dataEnvelope } from '@alda/contract/envelope';
import { idParams } from '@alda/contract/schemas/common';
import { orderPlacedResponse, orderResponse } from '@alda/contract/schemas/orders';
import {
  subscriptionsQuery,
  updateSubscriptionRequest,
} from '@alda/contract/schemas/subscriptions';
import { errorResponses } from '../../http';
import { requestLocale } from '../../i18n';
import { requireUser } from '../../plugins/auth';
import { purchaseOf } from '../orders/placing';
import type { LifecycleChangesService } from './changes-service';

const IDEMPOTENCY =
  'Send an `Idempotency-Key` header (400 IDEMPOTENCY_KEY_REQUIRED without): a retry answers the first order, the same key with another request 422 IDEMPOTENCY_KEY_REUSED.';

/** Plan changes, cancellations and their undo (docs/decisions/0056-subscription-lifecycle.md). */
export const lifecycleChangeRoutes: FastifyPluginAsyncZod<{
  service: LifecycleChangesService;
}> = async (app, { service }) => {
  app.patch(
    '/api/subscriptions/:id',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['subscriptions'],
        summary: 'Change the plan of a subscription (SPEC §2 /dagfor-hald/:id, §4; ADR 0056)',
        description:
          "`id` is a member's `id`; the plan is its account's (a family's members share it). Places a `plan_change` order: to a bigger or equal plan (`isSmallerPlan` false: a higher price, or the same price and at least as much data) `plan_upgrade` at once — provisioning completes it after one step and this month's data grows by the difference —, to a smaller one `plan_downgrade` at the next month start (`lifecycle.effectiveAt`; the new month has no rollover; undo with POST /api/orders/{id}/withdraw until then). The month's price is not split (billed at the plan the account has when the month is billed). Only the account owner (403 OWNER_ONLY; 404 NOT_FOUND for a number that is not the caller's business); only to an offered plan of the same type (422 PLAN_NOT_AVAILABLE); 409 PLAN_UNCHANGED to the plan it has; 409 PLAN_CHANGE_BLOCKED while any order of the account is open (also a change waiting for its month end), while the account is being set up, and on talutíð; 409 FAMILY_FULL for a family plan with fewer seats than the family has members. " +
          IDEMPOTENCY +
          ' Answers the order (`paymentUrl` null: nothing is charged now).',
        security: [{ bearerAuth: [] }],
        params: idParams,
        body: updateSubscriptionRequest,
        response: {
          200: dataEnvelope(orderPlacedResponse),
          ...errorResponses(400, 401, 403, 404, 409, 422),
        },
      },
    },
    async (request) => ({
      data: await service.changePlan(
        purchaseOf(request, `PATCH /api/subscriptions/${request.params.id}`),
        request.params.id,
        request.body.planId,
      ),
    }),
  );

  app.delete(
    '/api/subscriptions',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['subscriptions'],
        summary: 'Cancel the current subscription (SPEC §4 cancelled and expires at month end)',
        description:
          "The owner cancels the current account (query `line` picks it as in GET /api/subscriptions; 403 OWNER_ONLY for a member). Places a `cancel_subscription` order effective at `cancellationEffectiveAt`: the end of this month, or, while the 6-month commitment of a number runs (`member.commitmentEndsAt`), the end of its last month; the months between are billed as usual. Until then the members show `cancelled` with `expiresAt`, and the order can be withdrawn (POST /api/orders/{id}/withdraw). At month end every number becomes talutíð (prepaid) with its number kept, on a prepaid account of its user (the owner's for a number without one), and the account is closed. 409 ALREADY_CANCELLED when it already ends, ORDER_PROCESSING while another order of the account is open (withdraw it first), LINE_IS_PREPAID for a talutíð number. " +
          IDEMPOTENCY,
        security: [{ bearerAuth: [] }],
        querystring: subscriptionsQuery,
        response: {
          200: dataEnvelope(orderPlacedResponse),
          ...errorResponses(400, 401, 403, 404, 409, 422),
        },
      },
    },
    async (request) => ({
      data: await service.cancelSubscription(
        purchaseOf(request, `DELETE /api/subscriptions?line=${request.query.line ?? ''}`),
        request.query.line,
      ),
    }),
  );

  app.delete(
    '/api/subscriptions/deactivate-plan/:id',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['subscriptions'],
        summary: 'Take one number off the plan: it becomes talutíð (SPEC §4, §6; ADR 0056)',
        description:
          "`id` is a member's `id`. The owner only (403 OWNER_ONLY). Places a `deactivate_plan` order effective as a cancellation (the end of this month, or of the number's commitment): until then the member shows `cancelled` with `expiresAt`; then the number becomes talutíð with its number kept, on a prepaid account of its user (the owner's for a number without one). On an individual account this is the account's cancellation. 409 LINE_IS_PREPAID when it is talutíð already, ALREADY_CANCELLED when it already ends, ORDER_PROCESSING while another order of the account is open. " +
          IDEMPOTENCY,
        security: [{ bearerAuth: [] }],
        params: idParams,
        response: {
          200: dataEnvelope(orderPlacedResponse),
          ...errorResponses(400, 401, 403, 404, 409, 422),
        },
      },
    },
    async (request) => ({
      data: await service.deactivatePlan(
        purchaseOf(request, `DELETE /api/subscriptions/deactivate-plan/${request.params.id}`),
        request.params.id,
      ),
    }),
  );

  app.delete(
    '/api/subscriptions/delete-number/:id',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['subscriptions'],
        summary: 'The number leaves Alda (SPEC §4, §6; ADR 0056)',
        description:
          "`id` is a member's `id`. The owner, or the number's own user for a talutíð number (403 OWNER_ONLY otherwise). Places a `delete_number` order: a subscription's number leaves when it ends (as a cancellation: the end of this month or of the commitment; withdraw until then), a talutíð number at once — its credit is forfeited. The line is then `cancelled` and its number quarantined for NUMBER_QUARANTINE_DAYS (90) before the number search offers it again. 409 ALREADY_CANCELLED when it already ends, ORDER_PROCESSING while another order of the account is open. " +
          IDEMPOTENCY,
        security: [{ bearerAuth: [] }],
        params: idParams,
        response: {
          200: dataEnvelope(orderPlacedResponse),
          ...errorResponses(400, 401, 403, 404, 409, 422),
        },
      },
    },
    async (request) => ({
      data: await service.deleteNumber(
        purchaseOf(request, `DELETE /api/subscriptions/delete-number/${request.params.id}`),
        request.params.id,
      ),
    }),
  );

  app.post(
    '/api/orders/:id/withdraw',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['orders'],
        summary: 'Undo a change that waits for its month end (ADR 0056)',
        description:
          "Cancels a plan change or cancellation still waiting for its month end (`lifecycle.canWithdraw`, `provisioning.waitingFor` `month_end`): the order is cancelled and the numbers no longer end. The order's customer or the account owner; 404 NOT_FOUND for anyone else's or an unknown id; 409 ORDER_NOT_WAITING once it has taken effect, for a change made at once, or for an order already withdrawn. Answers the order.",
        security: [{ bearerAuth: [] }],
        params: idParams,
        response: { 200: dataEnvelope(orderResponse), ...errorResponses(401, 404, 409) },
      },
    },
    async (request) => ({
      data: await service.withdraw(
        requireUser(request).id,
        request.params.id,
        requestLocale(request),
      ),
    }),
  );
};
