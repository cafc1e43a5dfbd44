import type { FastifyBaseLogger, FastifyError } from 'fastify';
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
import { errorMessage, requestLocale } from '../../i18n';
import { classify } from '../../plugins/error-handler';
import { serviceTokenGuard } from './routes';
import type { BookedBatch, UsageService } from './service';
import { readUsage, type ReadUsage, type UsageRefusal } from './tmf635';

/*
 * The usage feed on TMF635 Usage Management v4 (issue 43 §2, docs/decisions/0083-usage-tmf635.md):
 * POST /tmf-api/usageManagement/v4/usage. An encapsulated plugin with its own error handler, so
 * every answer here — authentication, a body that is no JSON, an outage — is the document's
 * `Error` `{ code, reason, message, status }`, never the self-care envelope. Same token and sink
 * as POST /api/usage/records (ADR 0031), which stays.
 */

/**
 * A TMF635 Usage is some 0.5–1 kB of JSON, so a full batch of 1000 is larger than the API's
 * 256 KiB body limit for forms.
 */
const BODY_LIMIT_BYTES = 2 * 1024 * 1024;

const errors = {
  400: tmfError.check(
    z.describe(
      'USAGE_NOT_A_USAGE, USAGE_BATCH_SIZE, USAGE_ID_MISSING, USAGE_INVALID, USAGE_NUMBER_INVALID, USAGE_VOLUME_MISSING, USAGE_UNIT_UNSUPPORTED, USAGE_ZONE_UNSUPPORTED, USAGE_CURRENCY_UNSUPPORTED (one Usage), or BAD_REQUEST (no JSON)',
    ),
  ),
  401: tmfError.check(
    z.describe('UNAUTHORIZED: no or a wrong USAGE_FEED_TOKEN, or none configured'),
  ),
  413: tmfError.check(z.describe('PAYLOAD_TOO_LARGE: over 2 MiB')),
  415: tmfError.check(z.describe('UNSUPPORTED_MEDIA_TYPE: not application/json')),
  422: tmfError.check(z.describe('UNKNOWN_NUMBER: no live line has the number (one Usage)')),
  429: tmfError.check(z.describe('RATE_LIMITED')),
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

/** A booked record as a TMF635 Usage: what was booked, and what it cost (øre → DKK). */
function bookedUsage(row: UsageRecordRow, description: string | undefined): TmfUsageAnswer {
  const charge = splitVat(row.chargeOere);
  return {
    id: row.recordId,
    ...(description !== undefined ? { description } : {}),
    usageDate: row.occurredAt.toISOString(),
    usageType: 'data',
    status: 'rated',
    usageCharacteristic: [
      { name: 'msisdn', valueType: 'string', value: toWireNumber(row.msisdn) },
      { name: 'dataVolume', valueType: 'Quantity', value: { amount: row.usedMb, units: 'MB' } },
      { name: 'roamingZone', valueType: 'string', value: row.kind },
    ],
    ratedProductUsage: [
      {
        // Billed with a later monthly payment (ADR 0078), not now.
        isBilled: false,
        ratingDate: row.receivedAt.toISOString(),
        usageRatingTag:
          row.chargedMb + row.writtenOffMb > 0 ? 'non included usage' : 'included usage',
        taxIncludedRatingAmount: { unit: 'DKK', value: charge.gross / 100 },
        taxExcludedRatingAmount: { unit: 'DKK', value: charge.net / 100 },
      },
    ],
    '@type': 'Usage',
  };
}

/** A Usage that is not data use, as taken: `received`, nothing booked. */
function receivedUsage(read: Extract<ReadUsage, { kind: 'other' }>): TmfUsageAnswer {
  const { usage } = read;
  return {
    id: read.id,
    ...(usage.description !== undefined ? { description: usage.description } : {}),
    ...(usage.usageDate !== undefined
      ? { usageDate: new Date(usage.usageDate).toISOString() }
      : {}),
    ...(usage.usageType !== undefined ? { usageType: usage.usageType } : {}),
    status: 'received',
    '@type': 'Usage',
  };
}

const NOTHING_BOOKED: BookedBatch = { fresh: new Set(), duplicates: [], rejected: [] };

export const tmf635UsageRoutes: FastifyPluginAsyncZod<{
  service: UsageService;
  token: string | undefined;
}> = async (app, { service, token }) => {
  app.setErrorHandler(async (error: FastifyError | Error, request, reply) => {
    const locale = requestLocale(request);
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
   * Reads every Usage on its own, books the data use in one call of the sink (one transaction),
   * and tells each one's outcome, in the order sent.
   */
  async function take(items: readonly unknown[]): Promise<Taken[]> {
    const reads = items.map(readUsage);
    // The first Usage with an id counts; a later one with the same id is a duplicate.
    const first = new Map<string, number>();
    reads.forEach((read, index) => {
      if (read.kind !== 'refused' && !first.has(read.id)) first.set(read.id, index);
    });
    const records = reads.flatMap((read, index) =>
      read.kind === 'data' && first.get(read.id) === index ? [read.record] : [],
    );
    const batch = records.length > 0 ? await service.book(records, 'tmf635') : NOTHING_BOOKED;
    // Refused before booking (unreadable or not ours to book): counted with the sink's own.
    const refusedHere = reads.filter((read) => read.kind === 'refused').length;
    if (refusedHere > 0)
      app.metrics.usage('tmf635', { booked: 0, duplicate: 0, refused: refusedHere });
    const unknown = new Set(batch.rejected.map((r) => r.recordId));
    return reads.map((read, index): Taken => {
      if (read.kind === 'refused') return { read, outcome: 'refused', refusal: read.refusal };
      if (first.get(read.id) !== index) return { read, outcome: 'duplicate' };
      if (read.kind === 'other') return { read, outcome: 'skipped' };
      if (unknown.has(read.id))
        return { read, outcome: 'refused', refusal: { code: 'UNKNOWN_NUMBER', field: 'msisdn' } };
      return { read, outcome: batch.fresh.has(read.id) ? 'booked' : 'duplicate' };
    });
  }

  app.post(
    `${TMF635_BASE_PATH}/usage`,
    {
      onRequest: serviceTokenGuard(token),
      bodyLimit: BODY_LIMIT_BYTES,
      // The schema documents the body; each Usage is read on its own (`readUsage`), so that a
      // bad record is refused alone, with its reason, and the others are booked.
      validatorCompiler: () => (data: unknown) => ({ value: data }),
      schema: {
        tags: ['usage feed'],
        summary: 'Book rated data use, TMF635 Usage Management v4 (charging system → self-care)',
        description:
          "createUsage of TMF635 Usage Management v4, authenticated like POST /api/usage/records (`Authorization: Bearer <USAGE_FEED_TOKEN>`). Body: one `Usage`, or a JSON array of 1–1000 (a batch). Read: `id` (required, the idempotency key), `usageDate`, `usageType` (`data`; other types are taken, not booked), characteristics `dataVolume` (a Quantity `{amount, units}`, or a number with `dataVolumeUnit`; B, KB, MB, GB, KiB, MiB, GiB, 1024-based, rounded to whole MB), `roamingZone` (`domestic` default, `eu`) and `msisdn` (or a `relatedParty` of role subscriber/customer/user whose id is the number), `ratedProductUsage[].taxIncludedRatingAmount` (DKK; else taxExcluded + 25 % VAT) as the price of the chargeable use abroad. One Usage: 201 with the Usage as booked (`status: rated`; `received` for use that is not data), 200 with the first booking for an `id` received before, or an `Error`. A batch: 200 with each Usage's outcome (booked, duplicate, skipped, refused with its `Error`); bad records are refused alone. See docs/decisions/0083-usage-tmf635.md.",
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
      const locale = requestLocale(request);
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
        const answer = batchAnswer(await take(body), locale);
        logReceived(request.log, answer);
        return reply.status(200).send(answer);
      }

      if (typeof body !== 'object' || body === null) return refuseBody('USAGE_NOT_A_USAGE');
      const taken = await take([body]);
      logReceived(request.log, batchAnswer(taken, locale));
      const [one] = taken;
      if (!one) throw new Error('one Usage taken, no outcome');
      const { read, outcome, refusal } = one;
      if (refusal) return refuse(refusal);
      if (read.kind === 'other') return reply.status(201).send(receivedUsage(read));
      if (read.kind === 'refused') throw new Error('a refused Usage without its refusal');
      const [row] = await service.booked([read.id]);
      if (!row) throw new Error('a booked Usage is not stored');
      return reply
        .status(outcome === 'booked' ? 201 : 200)
        .send(bookedUsage(row, read.usage.description));
    },
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
 * One line per request: the counts, and which records were refused and why (ids and codes only:
 * the numbers stay out of the log).
 */
function logReceived(log: FastifyBaseLogger, answer: TmfUsageBatchAnswer): void {
  const refusals = answer.results
    .filter((r) => r.error)
    .slice(0, 20)
    .map((r) => ({ index: r.index, id: r.id, code: r.error?.code }));
  log.info(
    {
      received: answer.results.length,
      booked: answer.booked,
      duplicates: answer.duplicates,
      skipped: answer.skipped,
      refused: answer.refused,
      ...(refusals.length > 0 ? { refusals } : {}),
    },
    'TMF635 usage received',
  );
}
