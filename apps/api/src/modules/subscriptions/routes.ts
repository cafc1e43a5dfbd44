import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { dataEnvelope } from '@alda/contract/envelope';
import { idParams } from '@alda/contract/schemas/common';
import { z } from 'zod';
import {
  account,
  familyAccountExistsResponse,
  subscriptionDetailResponse,
  subscriptionsQuery,
  subscriptionsResponse,
} from '@alda/contract/schemas/subscriptions';
import { errorResponses } from '../../http';
import { requestLocale } from '../../i18n';
import { requireUser } from '../../plugins/auth';
import type { EuPackageService } from './eu-package';
import type { SubscriptionService } from './service';

/** The EU toggle of PATCH /api/subscriptions (the first form of `patchSubscriptionsRequest`). */
const euPackageRequest = z.object({ euPackage: z.boolean() }).strict();

export const subscriptionRoutes: FastifyPluginAsyncZod<{
  service: SubscriptionService;
  euPackage: EuPackageService;
}> = async (app, { service, euPackage }) => {
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
    async (request) => ({
      data: await service.overview(requireUser(request).id, request.query.line),
    }),
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

  app.patch(
    '/api/subscriptions',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['subscriptions'],
        summary: 'Switch the EU package of the current account on or off (SPEC §1, §7)',
        description:
          "`{ euPackage: boolean }`. Only the owner of the current account (403 OWNER_ONLY); query `line` picks the current account as in GET. Nothing is charged now: the package is billed with the month (GET /api/billing/monthly-price) and the numbers' EU allowance of this month is set or cleared at once. 422 PACKAGE_NOT_AVAILABLE when the plan has no EU package. Setting the value the account already has changes nothing. Answers the account as GET /api/subscriptions shows it.",
        security: [{ bearerAuth: [] }],
        querystring: subscriptionsQuery,
        body: euPackageRequest,
        response: { 200: dataEnvelope(account), ...errorResponses(400, 401, 403, 404, 422) },
      },
    },
    async (request) => ({
      data: await euPackage.set(
        requireUser(request).id,
        request.body.euPackage,
        request.query.line,
      ),
    }),
  );
};
