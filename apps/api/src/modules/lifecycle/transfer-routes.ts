import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { dataEnvelope } from '@alda/contract/envelope';
import { idParams } from '@alda/contract/schemas/common';
import { orderPlacedResponse } from '@alda/contract/schemas/orders';
import {
  lineHandover,
  lineHandoversResponse,
  transferToFamilyAccountRequest,
  transferToOwnAccountRequest,
  transferToUserCustomerRequest,
} from '@alda/contract/schemas/subscriptions';
import { errorResponses } from '../../http';
import { requestLocale } from '../../i18n';
import { requireUser } from '../../plugins/auth';
import { purchaseOf } from '../orders/placing';
import type { HandoverService } from './handovers-service';
import type { TransferService } from './transfers-service';

const ONCE =
  'Send an `Idempotency-Key` header (400 IDEMPOTENCY_KEY_REQUIRED without): a retry answers the first order, the same key with another body 422 IDEMPOTENCY_KEY_REUSED.';
const AT_ONCE =
  'A `transfer` order is placed at once (`lifecycle.effectiveAt` now) with its step `received`, a notification and an activity-log entry; provisioning carries it out after one network step (the number shows `processing` meanwhile). Nothing is charged now (`paymentUrl` null).';
const BLOCKED =
  '409 PLAN_CHANGE_BLOCKED while any order of the account or the number is open (SPEC §4; withdraw a pending month-end change first) or for a prepaid number, ORDER_PROCESSING while the number is being set up.';

/**
 * Moving numbers between accounts and handing them to other people (SPEC §2, §7;
 * docs/decisions/0056-subscription-lifecycle.md "Family members", "Hand a number to another
 * person").
 */
export const transferRoutes: FastifyPluginAsyncZod<{
  transfers: TransferService;
  handovers: HandoverService;
}> = async (app, { transfers, handovers }) => {
  app.patch(
    '/api/subscriptions/transfer-subscription-to-new-account/:id',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['subscriptions'],
        summary: 'Move a number onto an individual plan of the caller (SPEC §2, §7; ADR 0056)',
        description: `\`id\` is a member id; \`planId\` an offered individual plan (422 PLAN_NOT_AVAILABLE). The number leaves its account for a new individual account **owned by the caller**: the account owner (a family member's number to their own plan; the family's last number: family → individual, the family is closed) or the number's own user (their own number: they pay for it, 409 AGREEMENT_REQUIRED without a card on file). 409 FAMILY_HAS_MEMBERS when the owner moves their own number off a family that keeps other numbers; 403 OWNER_ONLY for another member of the account; 404 NOT_FOUND for anyone else. ${BLOCKED} ${AT_ONCE} ${ONCE}`,
        security: [{ bearerAuth: [] }],
        params: idParams,
        body: transferToOwnAccountRequest,
        response: {
          200: dataEnvelope(orderPlacedResponse),
          ...errorResponses(400, 401, 403, 404, 409, 422),
        },
      },
    },
    async (request) => ({
      data: await transfers.moveToOwnAccount(
        request.params.id,
        request.body,
        purchaseOf(
          request,
          `PATCH /api/subscriptions/transfer-subscription-to-new-account/${request.params.id}`,
        ),
      ),
    }),
  );

  app.patch(
    '/api/subscriptions/transfer-subscription-to-family-account/:id',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['subscriptions'],
        summary: "Move a number into the caller's family account (SPEC §2, §7; ADR 0056)",
        description: `\`id\` is a member id. The number's own user, or the owner of the individual account it is on (403 OWNER_ONLY otherwise; 404 NOT_FOUND for strangers). The caller's family account (GET /api/subscriptions/family-account-exists) is joined — 409 FAMILY_FULL unless maxMembers > members + members being set up (SPEC §4), ORDER_PROCESSING while the family is being set up, CONFLICT when the number is on it already — or, when the caller has none, a family account of the caller is made on \`planInfo.planId\` (an offered family plan, 422 PLAN_NOT_AVAILABLE; 400 VALIDATION_FAILED \`planInfo\` without it; \`planInfo.euPackage\` switches the EU package on, 422 PACKAGE_NOT_AVAILABLE on a plan without one). The account the number leaves is closed when no number is left on it. The caller pays for the family: 409 AGREEMENT_REQUIRED without a card on file. ${BLOCKED} ${AT_ONCE} ${ONCE}`,
        security: [{ bearerAuth: [] }],
        params: idParams,
        body: transferToFamilyAccountRequest,
        response: {
          200: dataEnvelope(orderPlacedResponse),
          ...errorResponses(400, 401, 403, 404, 409, 422),
        },
      },
    },
    async (request) => ({
      data: await transfers.moveToFamily(
        request.params.id,
        request.body,
        purchaseOf(
          request,
          `PATCH /api/subscriptions/transfer-subscription-to-family-account/${request.params.id}`,
        ),
      ),
    }),
  );

  app.patch(
    '/api/subscriptions/transfer-subscription-to-user-customer',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['subscriptions'],
        summary: 'Offer a number to another person (SPEC §7; ADR 0056 hand-over)',
        description: `The account owner or the number's own user (\`subscriptionId\`, a member id; 403 OWNER_ONLY for another member, 404 NOT_FOUND for strangers) offers the number to the Alda user who logs in with \`email\` (404 RECIPIENT_NOT_FOUND; 422 HANDOVER_TO_SELF for the caller's own e-mail) on \`planId\`, an offered individual plan (422 PLAN_NOT_AVAILABLE). Answers 201 with the pending hand-over; the receiver gets a notification linking to \`/yvirtaka/{id}\`. Nothing moves until they accept (POST /api/line-handovers/{id}/accept). 409 CONFLICT while the number has a pending hand-over; ${BLOCKED}`,
        security: [{ bearerAuth: [] }],
        body: transferToUserCustomerRequest,
        response: {
          201: dataEnvelope(lineHandover),
          ...errorResponses(400, 401, 403, 404, 409, 422),
        },
      },
    },
    async (request, reply) => {
      const offered = await handovers.offer(
        requireUser(request).id,
        request.body,
        requestLocale(request),
      );
      return reply.code(201).send({ data: offered });
    },
  );

  app.get(
    '/api/line-handovers',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['subscriptions'],
        summary: 'Pending hand-overs of numbers to and from the caller (ADR 0056)',
        description:
          "Oldest first; `isReceiver` is true for offers to the caller (accept or decline them), false for the caller's own offers (withdraw them). Plan names in the `Accept-Language` language; `monthlyPrice` is what the receiver pays a month from the month after they accept.",
        security: [{ bearerAuth: [] }],
        response: { 200: dataEnvelope(lineHandoversResponse), ...errorResponses(401) },
      },
    },
    async (request) => ({
      data: await handovers.pending(requireUser(request).id, requestLocale(request)),
    }),
  );

  app.get(
    '/api/line-handovers/:id',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['subscriptions'],
        summary: 'One hand-over of a number, for its giver or receiver (SPEC §2 /yvirtaka/:id)',
        description:
          'Whatever its state (pending, accepted, declined, withdrawn). 404 NOT_FOUND for anyone but the two parties.',
        security: [{ bearerAuth: [] }],
        params: idParams,
        response: { 200: dataEnvelope(lineHandover), ...errorResponses(401, 404) },
      },
    },
    async (request) => ({
      data: await handovers.get(requireUser(request).id, request.params.id, requestLocale(request)),
    }),
  );

  app.post(
    '/api/line-handovers/:id/accept',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['subscriptions'],
        summary: 'The receiver takes the number offered (ADR 0056 hand-over)',
        description: `Places a \`hand_over\` transfer order: once provisioning has carried it out the number has the receiver as its user and is on a new individual account of theirs on the offered plan (a new commitment starts; the account it left is closed when no number is left on it). The receiver pays: 409 AGREEMENT_REQUIRED without a card on file. 409 CONFLICT once the hand-over was decided; 403 FORBIDDEN for the giver; 404 NOT_FOUND for anyone else; 422 PLAN_NOT_AVAILABLE when the plan was withdrawn since. ${BLOCKED} ${AT_ONCE} ${ONCE}`,
        security: [{ bearerAuth: [] }],
        params: idParams,
        response: {
          201: dataEnvelope(orderPlacedResponse),
          ...errorResponses(400, 401, 403, 404, 409, 422),
        },
      },
    },
    async (request, reply) => {
      const placed = await handovers.accept(
        request.params.id,
        purchaseOf(request, `POST /api/line-handovers/${request.params.id}/accept`),
      );
      return reply.code(201).send({ data: placed });
    },
  );

  app.delete(
    '/api/line-handovers/:id',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['subscriptions'],
        summary: 'Decline (receiver) or withdraw (giver) a pending hand-over (ADR 0056)',
        description:
          'Nothing moves; the other party gets a notification. Answers the hand-over, now `declined` or `withdrawn`. 409 CONFLICT once it was decided; 404 NOT_FOUND for anyone but the two parties.',
        security: [{ bearerAuth: [] }],
        params: idParams,
        response: { 200: dataEnvelope(lineHandover), ...errorResponses(401, 404, 409) },
      },
    },
    async (request) => ({
      data: await handovers.decline(
        requireUser(request).id,
        request.params.id,
        requestLocale(request),
      ),
    }),
  );
};
