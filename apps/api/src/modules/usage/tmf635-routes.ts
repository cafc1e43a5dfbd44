import type { FastifyBaseLogger, FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { USAGE_RECORDS_MAX } from '@alda/contract/constants';
import { ERROR_STATUS } from '@alda/contract/errors';
import { splitVat } from '@alda/contract/format/money';
import type { Locale } from '@alda/contract/locale';
import { toWireNumber } from '@alda/contract/rules/phone';
import {
  TMF635_BASE_PATH,
  tmfError,
  tmfUsageAnswer,
  tmfUsageBatchAnswer,
  tmfUsageRequest,
  type TmfError,
  type TmfUsageAnswer,
  type TmfUsageBatchAnswer,
  type TmfUsageOutcome,
} from '@alda/contract/schemas/usage-tmf635';
import type { UsageRecordRow } from '../../db/schema/balances';
import { errorMessage, machineLocale } from '../../i18n';
import { classify } from '../../plugins/error-handler';
import { feedRateLimit, serviceTokenGuard } from './routes';
import type { BookedBatch, UsageService } from './service';
import { RECORD_ID, readUsage, type ReadUsage, type UsageRefusal } from './tmf635';

/*
 * The usage feed on TMF635 Usage Management v4 (issue 43 §2, issue 61 §3,
 * docs/decisions/0083-usage-tmf635.md): POST /tmf-api/usageManagement/v4/usage and
 * GET …/usage/{id}. An encapsulated plugin with its own error handler, so every answer here —
 * authentication, a body that is no JSON, an outage — is the document's `Error`
 * `{ code, reason, message, status }`, never the self-care envelope. Same token, sink and rate
 * limit as POST /api/usage/records (ADR 0031), which stays.
 */

/**
 * A TMF635 Usage is some 0.5–1 kB of JSON, so a full batch of 1000 is larger than the API's
 * 256 KiB body limit for forms.
 */
const BODY_LIMIT_BYTES = 2 * 1024 * 1024;

const errors = {
  400: tmfError.check(
    z.describe(
      'USAGE_NOT_A_USAGE, USAGE_BATCH_SIZE, USAGE_INVALID, USAGE_NUMBER_INVALID, USAGE_VOLUME_MISSING, USAGE_UNIT_UNSUPPORTED, USAGE_ZONE_UNSUPPORTED, USAGE_CURRENCY_UNSUPPORTED (one Usage), or BAD_REQUEST (no JSON)',
    ),
  ),
  401: tmfError.check(
    z.describe('UNAUTHORIZED: no or a wrong USAGE_FEED_TOKEN, or none configured'),
  ),
  413: tmfError.check(z.describe('PAYLOAD_TOO_LARGE: over 2 MiB')),
  415: tmfError.check(z.describe('UNSUPPORTED_MEDIA_TYPE: not application/json')),
  422: tmfError.check(z.describe('UNKNOWN_NUMBER: no live line has the number (one Usage)')),
  429: tmfError.check(z.describe('RATE_LIMITED: over USAGE_FEED_RATE_PER_MIN, with Retry-After')),
  500: tmfError.check(z.describe('INTERNAL')),
  503: tmfError.check(z.describe('DATABASE_UNAVAILABLE or SERVICE_UNAVAILABLE, with Retry-After')),
};

/** The document's `Error` for a refusal, its reason in the caller's language. */
function errorOf(refusal: UsageRefusal, locale: Locale): TmfError {
  return {
    code: refusal.code,
    reason: errorMessage(refusal.code, locale),
    message:
      refusal.value === undefined
        ? refusal.field
        : `${refusal.field}: ${JSON.stringify(refusal.value)}`,
    status: String(ERROR_STATUS[refusal.code]),
  };
}

/** DKK amounts of an øre amount with VAT. */
function money(oere: number) {
  const { gross, net } = splitVat(oere);
  return {
    taxIncludedRatingAmount: { unit: 'DKK', value: gross / 100 },
    taxExcludedRatingAmount: { unit: 'DKK', value: net / 100 },
  };
}

/**
 * A stored record as a TMF635 Usage, the same for POST and GET: what was stored, not an echo of
 * what was sent. Data: the volume in whole MB booked and Alda's charge for it (`status: rated`).
 * Other use: its quantity, the other party and the charging system's own amount (`rated` with
 * one, `received` without).
 */
function usageOf(row: UsageRecordRow, href: string): TmfUsageAnswer {
  const data = row.usageType === 'data';
  const quantity = data
    ? { name: 'dataVolume', valueType: 'Quantity', value: { amount: row.usedMb, units: 'MB' } }
    : row.unit === 's'
      ? { name: 'duration', valueType: 'Quantity', value: { amount: row.quantity, units: 's' } }
      : { name: 'count', valueType: 'number', value: row.quantity };
  const rated = data
    ? [
        {
          // Billed with a later monthly payment (ADR 0078), not now.
          isBilled: false,
          ratingDate: row.receivedAt.toISOString(),
          usageRatingTag:
            row.chargedMb + row.writtenOffMb > 0 ? 'non included usage' : 'included usage',
          ...money(row.chargeOere),
        },
      ]
    : row.ratedOere !== null
      ? [
          {
            isBilled: false,
            ratingDate: row.receivedAt.toISOString(),
            usageRatingTag: 'usage',
            ...money(row.ratedOere),
          },
        ]
      : undefined;
  return {
    id: row.recordId,
    href,
    ...(row.description !== null ? { description: row.description } : {}),
    usageDate: row.occurredAt.toISOString(),
    usageType: row.usageType,
    status: rated ? 'rated' : 'received',
    usageCharacteristic: [
      ...(row.msisdn !== null
        ? [{ name: 'msisdn', valueType: 'string', value: toWireNumber(row.msisdn) }]
        : []),
      quantity,
      { name: 'roamingZone', valueType: 'string', value: row.kind },
      ...(row.otherParty !== null
        ? [{ name: 'otherParty', valueType: 'string', value: row.otherParty }]
        : []),
    ],
    ...(rated ? { ratedProductUsage: rated } : {}),
    '@type': 'Usage',
  };
}

/** Requests of up to this many Usages are booked together with others (`bookTogether`). */
const TOGETHER_MAX = 50;

const NOTHING_BOOKED: BookedBatch = {
  fresh: new Set(),
  duplicates: [],
  rejected: [],
  stored: new Map(),
};

export const tmf635UsageRoutes: FastifyPluginAsyncZod<{
  service: UsageService;
  token: string | undefined;
}> = async (app, { service, token }) => {
  const limit = await feedRateLimit(app);
  const base = `${app.config.appUrl}${TMF635_BASE_PATH}/usage`;
  const hrefOf = (id: string) => `${base}/${encodeURIComponent(id)}`;

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

  /**
   * Reads every Usage on its own, stores and books them in one call of the sink (one
   * transaction), and tells each one's outcome, in the order sent, with the rows of other use
   * stored just now.
   */
  async function take(
    items: readonly unknown[],
  ): Promise<{ taken: Taken[]; stored: BookedBatch['stored'] }> {
    const reads = items.map(readUsage);
    // The first Usage with an id counts; a later one with the same id is a duplicate.
    const first = new Map<string, number>();
    reads.forEach((read, index) => {
      if (read.kind !== 'refused' && !first.has(read.id)) first.set(read.id, index);
    });
    const records = reads.flatMap((read, index) =>
      read.kind !== 'refused' && first.get(read.id) === index ? [read.record] : [],
    );
    // A few records (a single Usage above all) are booked together with other requests
    // arriving at once (ADR 0093); a large batch is a transaction of its own.
    const batch =
      records.length === 0
        ? NOTHING_BOOKED
        : records.length <= TOGETHER_MAX
          ? await service.bookTogether(records, 'tmf635')
          : await service.book(records, 'tmf635');
    // Refused before booking (unreadable): counted with the sink's own.
    const refusedHere = reads.filter((read) => read.kind === 'refused').length;
    if (refusedHere > 0)
      app.metrics.usage('tmf635', { booked: 0, duplicate: 0, refused: refusedHere });
    const unknown = new Set(batch.rejected.map((r) => r.recordId));
    const taken = reads.map((read, index): Taken => {
      if (read.kind === 'refused') return { read, outcome: 'refused', refusal: read.refusal };
      if (first.get(read.id) !== index) return { read, outcome: 'duplicate' };
      if (unknown.has(read.id))
        return { read, outcome: 'refused', refusal: { code: 'UNKNOWN_NUMBER', field: 'msisdn' } };
      return { read, outcome: batch.fresh.has(read.id) ? 'booked' : 'duplicate' };
    });
    return { taken, stored: batch.stored };
  }

  app.post(
    `${TMF635_BASE_PATH}/usage`,
    {
      onRequest: serviceTokenGuard(token),
      config: limit,
      bodyLimit: BODY_LIMIT_BYTES,
      // The schema documents the body; each Usage is read on its own (`readUsage`), so that a
      // bad record is refused alone, with its reason, and the others are booked.
      validatorCompiler: () => (data: unknown) => ({ value: data }),
      schema: {
        tags: ['usage feed'],
        summary:
          'Send rated use — data, calls, SMS, … — TMF635 Usage Management v4 (charging system → self-care)',
        description:
          "createUsage of TMF635 Usage Management v4, authenticated like POST /api/usage/records (`Authorization: Bearer <USAGE_FEED_TOKEN>`; up to `USAGE_FEED_RATE_PER_MIN` requests a minute per token). Body: one `Usage` (`Usage_Create`, `id` optional), or a JSON array of 1–1000 (a batch). `id`: the charging system's record id when sent (the idempotency key); without one, the id is made from the use (type, number, `usageDate`, quantity, zone, other party), so the same use sent again is a duplicate. Read: `usageDate` (required), `usageType` (`data` books on the line's data; every other type — `voice`, `sms`, … — is stored for the bill), characteristics `dataVolume` (data: a Quantity `{amount, units}`, or a number with `dataVolumeUnit`; B, KB, MB, GB, KiB, MiB, GiB, 1024-based, rounded to whole MB), `duration` (voice: ms, s, min, h; whole seconds), `count` (1 if absent), `otherParty`, `roamingZone` (`domestic` default, `eu`; other use also `world`) and `msisdn` (or a `relatedParty` of role subscriber/customer/user whose id is the number), `ratedProductUsage[].taxIncludedRatingAmount` (DKK; else taxExcluded + 25 % VAT). One Usage: 201 with the Usage as stored and its `href`, 200 with the first booking for an `id` received before, or an `Error`. A batch: 200 with each Usage's outcome (booked, duplicate, refused with its `Error`); bad records are refused alone. `Error.reason` in English unless `Accept-Language` asks for Faroese. See docs/decisions/0083-usage-tmf635.md.",
        security: [{ bearerAuth: [] }],
        body: tmfUsageRequest,
        response: {
          200: z.union([tmfUsageAnswer, tmfUsageBatchAnswer]),
          201: tmfUsageAnswer,
          ...errors,
        },
      },
    },
    async (request, reply) => {
      const locale = machineLocale(request);
      const body: unknown = request.body;
      const refuse = (refusal: UsageRefusal) =>
        reply.status(ERROR_STATUS[refusal.code]).send(errorOf(refusal, locale));

      /** The whole body refused: one line, as the error handler's. */
      const refuseBody = (code: 'USAGE_BATCH_SIZE' | 'USAGE_NOT_A_USAGE', value?: string) => {
        request.log.info({ code, field: 'body', reason: value }, 'request rejected');
        return refuse({ code, field: 'body', ...(value !== undefined ? { value } : {}) });
      };

      if (Array.isArray(body)) {
        if (body.length === 0 || body.length > USAGE_RECORDS_MAX)
          return refuseBody('USAGE_BATCH_SIZE', `${body.length} Usages`);
        const { taken } = await take(body);
        const answer = batchAnswer(taken, locale);
        logReceived(request.log, taken, answer);
        return reply.status(200).send(answer);
      }

      if (typeof body !== 'object' || body === null) return refuseBody('USAGE_NOT_A_USAGE');
      const { taken, stored } = await take([body]);
      logReceived(request.log, taken, batchAnswer(taken, locale));
      const [one] = taken;
      if (!one) throw new Error('one Usage taken, no outcome');
      const { read, outcome, refusal } = one;
      if (refusal) return refuse(refusal);
      if (read.kind === 'refused') throw new Error('a refused Usage without its refusal');
      // A Usage stored just now is answered as the booking left it; a repeat as first booked,
      // read.
      const row = stored.get(read.id) ?? (await service.booked([read.id]))[0];
      if (!row) throw new Error('a booked Usage is not stored');
      return reply
        .status(outcome === 'booked' ? 201 : 200)
        .header('location', hrefOf(row.recordId))
        .send(usageOf(row, hrefOf(row.recordId)));
    },
  );

  /** No Usage with this id: the document's `Error`, logged as the error handler logs a refusal. */
  const notFound = (request: FastifyRequest, reply: FastifyReply) => {
    request.log.info({ code: 'NOT_FOUND', field: 'id' }, 'request rejected');
    return reply.status(404).send({
      code: 'NOT_FOUND',
      reason: errorMessage('NOT_FOUND', machineLocale(request)),
      message: 'id',
      status: '404',
    } satisfies TmfError);
  };

  app.get(
    `${TMF635_BASE_PATH}/usage/:id`,
    {
      onRequest: serviceTokenGuard(token),
      config: limit,
      schema: {
        tags: ['usage feed'],
        summary: 'Read back a Usage sent before, TMF635 Usage Management v4',
        description:
          "retrieveUsage of TMF635 Usage Management v4, authenticated like the POST: the Usage as stored (the same as the POST answered), by the `id` the POST answered — the charging system's own, or the one made from the use. `fields` is not applied: the whole Usage is answered. 404 `NOT_FOUND` for an id never received (or refused: a refused Usage is not stored).",
        security: [{ bearerAuth: [] }],
        params: z.object({ id: z.string().describe('the Usage id the POST answered') }),
        response: {
          200: tmfUsageAnswer,
          401: errors[401],
          404: tmfError.check(z.describe('NOT_FOUND: no Usage with this id was stored')),
          429: errors[429],
          500: errors[500],
          503: errors[503],
        },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const [row] = RECORD_ID.test(id) ? await service.booked([id]) : [];
      if (!row) return notFound(request, reply);
      return reply.status(200).send(usageOf(row, hrefOf(row.recordId)));
    },
  );

  // What `:id` does not match — an id longer than the router's parameter limit (the 128 of
  // RECORD_ID, app.ts), one with a `/`, none — is no Usage either: the same 401 or 404, not the
  // self-care envelope of an unknown path.
  app.get(
    `${TMF635_BASE_PATH}/usage/*`,
    { onRequest: serviceTokenGuard(token), config: limit, schema: { hide: true } },
    async (request, reply) => notFound(request, reply),
  );
};

/** What became of one Usage. */
interface Taken {
  read: ReadUsage;
  outcome: TmfUsageOutcome;
  refusal?: UsageRefusal;
}

/** The batch answer: the counts and each Usage's outcome, in the order sent. */
function batchAnswer(taken: readonly Taken[], locale: Locale): TmfUsageBatchAnswer {
  const count = (outcome: TmfUsageOutcome) => taken.filter((t) => t.outcome === outcome).length;
  return {
    booked: count('booked'),
    duplicates: count('duplicate'),
    skipped: count('skipped'),
    refused: count('refused'),
    results: taken.map(({ read, outcome, refusal }, index) => ({
      index,
      ...(read.id !== undefined ? { id: read.id } : {}),
      outcome,
      ...(refusal ? { error: errorOf(refusal, locale) } : {}),
    })),
  };
}

/**
 * One line per request: the counts, how many were stored on no line (a Usage naming no number: a
 * mapping to check), and which records were refused and why (ids and codes only: the numbers
 * stay out of the log).
 */
function logReceived(
  log: FastifyBaseLogger,
  taken: readonly Taken[],
  answer: TmfUsageBatchAnswer,
): void {
  const refusals = answer.results
    .filter((r) => r.error)
    .slice(0, 20)
    .map((r) => ({ index: r.index, id: r.id, code: r.error?.code }));
  const onNoLine = taken.filter(
    ({ read, outcome }) =>
      outcome === 'booked' && read.kind === 'other' && read.record.phoneNumber === null,
  ).length;
  log.info(
    {
      received: answer.results.length,
      booked: answer.booked,
      duplicates: answer.duplicates,
      skipped: answer.skipped,
      refused: answer.refused,
      ...(onNoLine > 0 ? { onNoLine } : {}),
      ...(refusals.length > 0 ? { refusals } : {}),
    },
    'TMF635 usage received',
  );
}
