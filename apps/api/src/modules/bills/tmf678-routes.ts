import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ERROR_STATUS } from '@alda/contract/errors';
import { todayInFaroe } from '@alda/contract/format/date';
import { tmfError, type TmfError } from '@alda/contract/schemas/usage-tmf635';
import type { Db } from '../../db/client';
import { AppError } from '../../errors';
import { errorMessage, machineLocale } from '../../i18n';
import { classify } from '../../plugins/error-handler';
import { routeRateLimit } from '../../plugins/security';
import { isUuid } from '../../uuid';
import {
  appliedRateOf,
  customerBillOf,
  TMF678_BASE_PATH,
  tmfAppliedRate,
  tmfCustomerBill,
} from './tmf678';
import {
  findTmfBill,
  findTmfItem,
  listTmfBills,
  listTmfItems,
  type BillFilter,
} from './tmf678-repo';

/*
 * The monthly bills on TMF678 Customer Bill Management v4, read by the operator's finance system
 * (docs/decisions/0098-monthly-bill.md): GET …/customerBill, …/customerBill/{id},
 * …/appliedCustomerBillingRate and …/appliedCustomerBillingRate/{id}. Read only: the month-end job
 * makes the bills. An encapsulated plugin with its own error handler, as TMF635's
 * (modules/usage/tmf635-routes.ts), so every answer here — authentication, a bad query, an
 * outage — is the document's `Error` `{ code, reason, message, status }`, never the self-care
 * envelope. Its own service token (`BILLING_FEED_TOKEN`) and its own rate limit per token.
 */

/**
 * Requests a minute with the token on each route, in each instance's memory. A list page holds
 * up to 1000 bills or items, so this is up to 600,000 a minute: the finance system reads a month
 * of a million customers' bills in a few minutes, and a runaway client is held back.
 */
export const BILLING_FEED_RATE_PER_MIN = 600;

/** Items a list answers unless `limit` says otherwise, and the most it answers. */
export const TMF678_LIMIT_DEFAULT = 100;
export const TMF678_LIMIT_MAX = 1000;

const BEARER = /^Bearer\s+(\S+)\s*$/i;
const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * onRequest hook: the caller must present `BILLING_FEED_TOKEN` as a bearer token, compared in
 * constant time (over SHA-256 digests, so the lengths do not show either). Without a configured
 * token every call is refused: the bills are closed unless an operator opens them.
 */
function billingTokenGuard(token: string | undefined) {
  const expected = token ? digest(token) : null;
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const presented = BEARER.exec(request.headers.authorization ?? '')?.[1];
    if (!expected || !presented || !timingSafeEqual(digest(presented), expected)) {
      reply.header('www-authenticate', 'Bearer realm="alda-billing-feed"');
      throw new AppError('UNAUTHORIZED', {
        detail: expected ? 'bad or missing billing feed token' : 'BILLING_FEED_TOKEN is not set',
      });
    }
  };
}

const errors = {
  400: tmfError.check(
    z.describe('VALIDATION_FAILED: a query parameter out of range, or a filter not supported'),
  ),
  401: tmfError.check(
    z.describe('UNAUTHORIZED: no or a wrong BILLING_FEED_TOKEN, or none configured'),
  ),
  429: tmfError.check(
    z.describe(
      `RATE_LIMITED: over ${BILLING_FEED_RATE_PER_MIN} requests a minute per token, with Retry-After`,
    ),
  ),
  500: tmfError.check(z.describe('INTERNAL')),
  503: tmfError.check(z.describe('DATABASE_UNAVAILABLE or SERVICE_UNAVAILABLE, with Retry-After')),
};

const fields = z
  .string()
  .max(2000)
  .optional()
  .describe('TMF630 attribute selection: accepted and not applied (the whole resource comes back)');
const offset = z.coerce
  .number()
  .int()
  .min(0)
  .max(1_000_000_000)
  .default(0)
  .describe('how many matching items to skip (TMF630)');
const limit = z.coerce
  .number()
  .int()
  .min(0)
  .max(1_000_000_000)
  .default(TMF678_LIMIT_DEFAULT)
  .describe(
    `how many to answer, ${TMF678_LIMIT_DEFAULT} unless given, at most ${TMF678_LIMIT_MAX} (more is answered as ${TMF678_LIMIT_MAX}); 0 answers only the count headers`,
  );
const instant = z.iso
  .datetime({ offset: true })
  .optional()
  .describe('RFC 3339 date-time with Z or an offset');

// Loose, so that a parameter we do not apply is still there to be refused (`refuseUnknown`).
const billQuery = z.looseObject({
  fields,
  offset,
  limit,
  'billingAccount.id': z
    .string()
    .min(1)
    .max(128)
    .optional()
    .describe('the customer number: only this customer’s bills'),
  'billDate.gt': instant,
  'billDate.gte': instant,
  'billDate.lt': instant,
  'billDate.lte': instant,
});

const rateQuery = z.looseObject({
  fields,
  offset,
  limit,
  'bill.id': z.string().max(128).optional().describe('only the items of this bill'),
});

const pagingHeaders =
  'The answer carries `X-Total-Count` (how many match) and `X-Result-Count` (how many are in this answer), as TMF630 pages; the status is 200 also for a part of the list, as the document lists.';

/** Refuses query parameters we do not apply: a filter ignored would answer more than was asked. */
function refuseUnknown(query: object, known: z.ZodObject): void {
  const unknown = Object.keys(query).find((name) => !(name in known.shape));
  if (unknown !== undefined)
    throw new AppError('VALIDATION_FAILED', {
      field: unknown.slice(0, 64),
      detail: 'query parameter not supported',
    });
}

const listHeaders = (reply: FastifyReply, total: number, count: number) =>
  reply.header('x-total-count', String(total)).header('x-result-count', String(count));

export const tmf678BillRoutes: FastifyPluginAsyncZod<{
  db: Db;
  now: () => Date;
  token: string | undefined;
}> = async (app, { db, now, token }) => {
  const rateLimit = await routeRateLimit(app, {
    perMinute: BILLING_FEED_RATE_PER_MIN,
    policy: 'billing-feed',
    keyGenerator: () => 'billing-feed',
  });
  const base = `${app.config.appUrl}${TMF678_BASE_PATH}`;
  const guarded = { onRequest: billingTokenGuard(token), config: rateLimit };

  app.setErrorHandler(async (error: FastifyError | Error, request, reply) => {
    const locale = machineLocale(request);
    const { code, field, message, retryAfter, reason } = classify(error, locale);
    const status = ERROR_STATUS[code];
    if (code === 'DATABASE_UNAVAILABLE')
      request.log.warn({ code, reason }, 'request failed: database unavailable');
    else if (status >= 500) request.log.error({ err: error, code }, 'request failed');
    else request.log.info({ code, field, reason: error.message }, 'request rejected');
    if (retryAfter !== undefined) reply.header('retry-after', String(retryAfter));
    const answer: TmfError = {
      code,
      reason: message ?? errorMessage(code, locale),
      ...(field !== undefined ? { message: field } : {}),
      status: String(status),
    };
    return reply.status(status).type('application/json; charset=utf-8').send(answer);
  });

  /** No such resource: the document's `Error`, logged as the error handler logs a refusal. */
  const notFound = (request: FastifyRequest, reply: FastifyReply) => {
    request.log.info({ code: 'NOT_FOUND', field: 'id' }, 'request rejected');
    return reply.status(404).send({
      code: 'NOT_FOUND',
      reason: errorMessage('NOT_FOUND', machineLocale(request)),
      message: 'id',
      status: '404',
    } satisfies TmfError);
  };

  const today = () => todayInFaroe(now());
  const pageSize = (asked: number) => Math.min(asked, TMF678_LIMIT_MAX);

  app.get(
    `${TMF678_BASE_PATH}/customerBill`,
    {
      ...guarded,
      schema: {
        tags: ['finance system'],
        summary: 'List the monthly bills, TMF678 Customer Bill Management v4 (finance system)',
        description: `listCustomerBill of TMF678 Customer Bill Management v4, for the operator's finance system: \`Authorization: Bearer <BILLING_FEED_TOKEN>\` (401 without the configured token; up to ${BILLING_FEED_RATE_PER_MIN} requests a minute per token). The bills oldest first (by \`billDate\`, then id), so a page walk is not moved by bills issued meanwhile. Filters (TMF630): \`billingAccount.id\` (the customer number), \`billDate.gt\`, \`.gte\`, \`.lt\`, \`.lte\`; any other query parameter is refused (400), never ignored. ${pagingHeaders} A bill names its customer by the customer number only (\`billingAccount\`, \`relatedParty\` of role customer), never by name or e-mail; the bill of a deleted customer is still served. Amounts in DKK to the øre; \`state\` settled (paid), partiallyPaid, or sent (nothing paid). See docs/decisions/0098-monthly-bill.md.`,
        security: [{ bearerAuth: [] }],
        querystring: billQuery,
        response: { 200: z.array(tmfCustomerBill), ...errors },
      },
    },
    async (request, reply) => {
      refuseUnknown(request.query, billQuery);
      const q = request.query;
      const filter: BillFilter = {
        ...(q['billingAccount.id'] !== undefined ? { customerNumber: q['billingAccount.id'] } : {}),
        ...(q['billDate.gt'] !== undefined ? { issuedGt: new Date(q['billDate.gt']) } : {}),
        ...(q['billDate.gte'] !== undefined ? { issuedGte: new Date(q['billDate.gte']) } : {}),
        ...(q['billDate.lt'] !== undefined ? { issuedLt: new Date(q['billDate.lt']) } : {}),
        ...(q['billDate.lte'] !== undefined ? { issuedLte: new Date(q['billDate.lte']) } : {}),
      };
      const page = await listTmfBills(db, filter, q.offset, pageSize(q.limit));
      const day = today();
      const answer = page.rows.map((bill) => customerBillOf(bill, base, day));
      return listHeaders(reply, page.total, answer.length).status(200).send(answer);
    },
  );

  app.get(
    `${TMF678_BASE_PATH}/customerBill/:id`,
    {
      ...guarded,
      schema: {
        tags: ['finance system'],
        summary: 'Read one monthly bill, TMF678 Customer Bill Management v4 (finance system)',
        description:
          'retrieveCustomerBill of TMF678 Customer Bill Management v4, authenticated like the list: the bill as the list answers it, by its `id`. `fields` is accepted and not applied. 404 `NOT_FOUND` (the document’s `Error`) for an id of no bill, also one that is no bill id at all. Its charges: `GET …/appliedCustomerBillingRate?bill.id={id}`.',
        security: [{ bearerAuth: [] }],
        params: z.object({ id: z.string().describe('the bill id, as the list answers it') }),
        querystring: z.object({ fields }),
        response: {
          200: tmfCustomerBill,
          400: errors[400],
          401: errors[401],
          404: tmfError.check(z.describe('NOT_FOUND: no bill has this id')),
          429: errors[429],
          500: errors[500],
          503: errors[503],
        },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const bill = isUuid(id) ? await findTmfBill(db, id) : null;
      if (!bill) return notFound(request, reply);
      return reply.status(200).send(customerBillOf(bill, base, today()));
    },
  );

  app.get(
    `${TMF678_BASE_PATH}/appliedCustomerBillingRate`,
    {
      ...guarded,
      schema: {
        tags: ['finance system'],
        summary:
          'List the charges on the bills, TMF678 Customer Bill Management v4 (finance system)',
        description: `listAppliedCustomerBillingRate of TMF678 Customer Bill Management v4, authenticated like the bills: each item of a bill as an \`AppliedCustomerBillingRate\` (\`isBilled\` true, its \`bill\`), in the bills' order and then in the bill's own. Filter \`bill.id\`: one bill's items; any other query parameter is refused (400). ${pagingHeaders} \`type\` appliedBillingCharge (or appliedBillingCredit for an amount below 0); what it is in the characteristic \`kind\`, the number charged for in \`msisdn\`. \`date\`: when it was paid, else the bill's date.`,
        security: [{ bearerAuth: [] }],
        querystring: rateQuery,
        response: { 200: z.array(tmfAppliedRate), ...errors },
      },
    },
    async (request, reply) => {
      refuseUnknown(request.query, rateQuery);
      const q = request.query;
      const billId = q['bill.id'];
      // An id that is no bill id has no items (and must not reach a uuid column).
      const page =
        billId !== undefined && !isUuid(billId)
          ? { rows: [], total: 0 }
          : await listTmfItems(db, billId, q.offset, pageSize(q.limit));
      const answer = page.rows.map(({ item, bill }) => appliedRateOf(item, bill, base));
      return listHeaders(reply, page.total, answer.length).status(200).send(answer);
    },
  );

  app.get(
    `${TMF678_BASE_PATH}/appliedCustomerBillingRate/:id`,
    {
      ...guarded,
      schema: {
        tags: ['finance system'],
        summary: 'Read one charge of a bill, TMF678 Customer Bill Management v4 (finance system)',
        description:
          'retrieveAppliedCustomerBillingRate of TMF678 Customer Bill Management v4, authenticated like the list: the item as the list answers it, by its `id`. `fields` is accepted and not applied. 404 `NOT_FOUND` for an id of no item.',
        security: [{ bearerAuth: [] }],
        params: z.object({ id: z.string().describe('the item id, as the list answers it') }),
        querystring: z.object({ fields }),
        response: {
          200: tmfAppliedRate,
          400: errors[400],
          401: errors[401],
          404: tmfError.check(z.describe('NOT_FOUND: no bill item has this id')),
          429: errors[429],
          500: errors[500],
          503: errors[503],
        },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const found = isUuid(id) ? await findTmfItem(db, id) : null;
      if (!found) return notFound(request, reply);
      return reply.status(200).send(appliedRateOf(found.item, found.bill, base));
    },
  );

  // What `:id` does not match — an id longer than the router's parameter limit (app.ts), one
  // with a `/` — is no bill or item either: the same 401 or 404, not the self-care envelope.
  for (const resource of ['customerBill', 'appliedCustomerBillingRate'])
    app.get(
      `${TMF678_BASE_PATH}/${resource}/*`,
      { ...guarded, schema: { hide: true } },
      async (request, reply) => notFound(request, reply),
    );
};
