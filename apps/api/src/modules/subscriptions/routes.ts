import { serializerCompiler, type FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { dataEnvelope } from '@alda/contract/envelope';
import { idParams } from '@alda/contract/schemas/common';
import {
  addMembersResponse,
  patchSubscriptionsRequest,
} from '@alda/contract/schemas/family-members';
import {
  account,
  familyAccountExistsResponse,
  subscriptionDetailResponse,
  subscriptionsQuery,
  subscriptionsResponse,
  type SubscriptionsResponse,
} from '@alda/contract/schemas/subscriptions';
import { usageHistoryResponse } from '@alda/contract/schemas/usage';
import { errorResponses, sendSerialized } from '../../http';
import { requestLocale } from '../../i18n';
import { requireUser } from '../../plugins/auth';
import { purchaseOf } from '../orders/placing';
import type { AddMemberService } from '../provisioning/add-member-service';
import type { UsageHistoryService } from '../usage/history-service';
import type { EuPackageService } from './eu-package';
import type { SubscriptionService } from './service';

export const subscriptionRoutes: FastifyPluginAsyncZod<{
  service: SubscriptionService;
  euPackage: EuPackageService;
  addMembers: AddMemberService;
  usageHistory: UsageHistoryService;
}> = async (app, { service, euPackage, addMembers, usageHistory }) => {
  // The route's own serializer, so an answer built once is exactly what the route would send.
  const overviewSerializer = serializerCompiler({
    schema: dataEnvelope(subscriptionsResponse),
    method: 'GET',
    url: '/api/subscriptions',
  });
  const serializeOverview = (data: SubscriptionsResponse) => overviewSerializer({ data });
  app.get(
    '/api/subscriptions',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['subscriptions'],
        summary: "The caller's accounts, lines and family (SPEC §3 Subscription state, §7)",
        description:
          "`currentAccount` is the account of the current line, with that line as `currentMember` and the account's other numbers as `otherMembers`; `otherAccounts` are the caller's other accounts; `individuals` the individual accounts the caller owns; `isOwner` whether the caller owns the current account (SPEC §6). Query `line=<6 digits>` picks which of the caller's own numbers is current (404 NOT_FOUND if it is not theirs); without it the caller's oldest line in service is. Members are lines in service; numbers still being set up are processing orders (GET /api/orders). Data in MB with `dataUpdatedAt` from the usage feed. See docs/decisions/0030-accounts-model.md.",
        security: [{ bearerAuth: [] }],
        querystring: subscriptionsQuery,
        response: { 200: dataEnvelope(subscriptionsResponse), ...errorResponses(400, 401, 404) },
      },
    },
    (request, reply) => {
      const userId = requireUser(request).id;
      const { line } = request.query;
      // An answer kept in memory is sent without a promise (issue 45).
      const kept = service.keptOverview(userId, line);
      if (kept !== undefined) {
        sendSerialized(reply, kept);
        return;
      }
      return service.overviewBody(userId, line, serializeOverview).then((body) => {
        sendSerialized(reply, body);
      });
    },
  );

  app.get(
    '/api/subscriptions/family-account-exists',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['subscriptions'],
        summary: 'Does the caller own a family account? (SPEC §7)',
        description:
          'True with its id when the caller owns a family account that is not cancelled (active or still being set up). Used by the transfer flows.',
        security: [{ bearerAuth: [] }],
        response: { 200: dataEnvelope(familyAccountExistsResponse), ...errorResponses(401) },
      },
    },
    async (request) => ({ data: await service.familyAccountExists(requireUser(request).id) }),
  );

  app.get(
    '/api/subscriptions/:id',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['subscriptions'],
        summary:
          'One number in detail: member, plan, monthly price (SPEC §2 family member, manage)',
        description:
          "`id` is a member's `id`. The number's own user and the account owner may read it; another member of the same account gets 403 OWNER_ONLY (SPEC §6); an unknown id or someone else's number 404 NOT_FOUND. `monthlyPrice` is memberPrices at the number's position on the account (SPEC §4).",
        security: [{ bearerAuth: [] }],
        params: idParams,
        response: {
          200: dataEnvelope(subscriptionDetailResponse),
          ...errorResponses(401, 403, 404),
        },
      },
    },
    async (request) => ({
      data: await service.detail(
        requireUser(request).id,
        request.params.id,
        requestLocale(request),
      ),
    }),
  );

  app.get(
    '/api/subscriptions/:id/usage-history',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['subscriptions'],
        summary: "One number's data use: this month day by day and the last 6 months (ADR 0066)",
        description:
          "`id` is a member's `id`; who may read it is as in GET /api/subscriptions/{id} (the number's own user and the account owner; another member of the account 403 OWNER_ONLY; an unknown id or someone else's number 404 NOT_FOUND). Read from the daily aggregates the usage feed writes when it books records (POST /api/usage/records), on Faroese calendar days (Atlantic/Faroe) — never from the raw records. `days`: every day of the current Faroese month up to today, days without use as 0. `months`: the last 6 Faroese months, oldest first, the current one included, each the sum of its days. Data in MB, split into domestic and EU use. `allowanceMb` is the monthly data of the number's plan today (null for talutíð, without a plan, and on an unlimited plan) and `euAllowanceMb` the EU package's (null without the package): plans are not kept per month, so past months are drawn against today's plan. `updatedAt` is when the usage feed last moved the number's balance.",
        security: [{ bearerAuth: [] }],
        params: idParams,
        response: {
          200: dataEnvelope(usageHistoryResponse),
          ...errorResponses(401, 403, 404),
        },
      },
    },
    async (request) => ({
      data: await usageHistory.history(requireUser(request).id, request.params.id),
    }),
  );

  app.patch(
    '/api/subscriptions',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['subscriptions'],
        summary:
          'Switch the EU package of the current account, or add family members to it (SPEC §1, §2, §4, §7; ADR 0056)',
        description:
          'Only the owner of the current account (403 OWNER_ONLY); query `line` picks the current account as in GET. Two forms of body:\n\n' +
          "- `{ euPackage: boolean }` answers 200 with the account as GET /api/subscriptions shows it. Nothing is charged now: the package is billed with the month (GET /api/billing/monthly-price) and the numbers' EU allowance of this month is set or cleared at once. 422 PACKAGE_NOT_AVAILABLE when the plan has no EU package. Setting the value the account already has changes nothing.\n" +
          '- `{ addMembers: [...] }` (1–5 people, each with a name and the number and SIM exactly as in sign-up) answers 201 `{ orders }`: one `add_member` order per person, in order, each with a new line being set up (no user of its own; the name is on the order) that provisioning makes a member (`provisioning` on the order). Send an `Idempotency-Key` header (400 IDEMPOTENCY_KEY_REQUIRED without): a retry answers the orders of the first request, the same key with another body 422 IDEMPOTENCY_KEY_REUSED. Refused on a plan that is not a family plan (422 PLAN_NOT_AVAILABLE), while the account is being set up (409 ORDER_PROCESSING), and 409 FAMILY_FULL unless `maxMembers > members + members being added` holds for every person (SPEC §4 Family capacity; the account is locked, so two requests for the last seat cannot both win). As in sign-up: 400 VALIDATION_FAILED (`addMembers.<i>.simShippingAddress.city` not matching its postal code), 422 PICKUP_LOCATION_NOT_FOUND, 409 AGREEMENT_REQUIRED without a card on file, RESERVATION_EXPIRED, NUMBER_ALREADY_OURS. Nothing is charged now: each member is billed with the month at the next member price (`family.nextMemberPrice`).',
        security: [{ bearerAuth: [] }],
        querystring: subscriptionsQuery,
        body: patchSubscriptionsRequest,
        response: {
          200: dataEnvelope(account),
          201: dataEnvelope(addMembersResponse),
          ...errorResponses(400, 401, 403, 404, 409, 422),
        },
      },
    },
    async (request, reply) => {
      const body = request.body;
      if ('addMembers' in body) {
        const placed = await addMembers.add(
          body.addMembers,
          purchaseOf(request, 'PATCH /api/subscriptions'),
          request.query.line,
        );
        return reply.code(201).send({ data: placed });
      }
      return reply.send({
        data: await euPackage.set(requireUser(request).id, body.euPackage, request.query.line),
      });
    },
  );
};
