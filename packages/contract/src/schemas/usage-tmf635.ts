import { z } from 'zod';
import { USAGE_RECORDS_MAX } from '../constants';

/*
 * The usage feed on TMF635 Usage Management v4 (issue 43 §2, docs/decisions/0083-usage-tmf635.md):
 * the charging system POSTs rated data use as TM Forum `Usage` resources to
 * POST /tmf-api/usageManagement/v4/usage — one Usage, or a list of them (a batch). The shapes
 * follow the published document (vendored in apps/api/test/contracts/tmf635/): `Usage_Create`
 * with `UsageCharacteristic`, `RelatedParty`, `RatedProductUsage`, `Money` and `Quantity`, and
 * the document's `Error`. As in the document, properties we do not read are allowed. These
 * answers are NOT the self-care `{ data } | { error }` envelope.
 */

/** Where the TMF635 resources live (the document's `basePath`, without its trailing slash). */
export const TMF635_BASE_PATH = '/tmf-api/usageManagement/v4';

/** The document's `UsageStatusType`. */
export const tmfUsageStatus = z.enum([
  'received',
  'rejected',
  'recycled',
  'guided',
  'rated',
  'rerated',
  'billed',
]);
export type TmfUsageStatus = z.infer<typeof tmfUsageStatus>;

const dateTime = z.iso.datetime({ offset: true });

/** `Money`: a currency (ISO 4217, `unit`) and an amount in it (`value`, a positive float). */
export const tmfMoney = z.looseObject({
  unit: z.string().max(16).optional(),
  value: z.number().optional(),
});

/** `Quantity`: an amount in a unit — the value of a `dataVolume` characteristic. */
export const tmfQuantity = z.looseObject({
  amount: z.number().optional(),
  units: z.string().max(32).optional(),
});

/** `UsageCharacteristic`: a name/value pair; the value is of any type (`Any`). */
export const tmfUsageCharacteristic = z.looseObject({
  id: z.string().max(128).optional(),
  name: z.string().max(128),
  valueType: z.string().max(64).optional(),
  value: z.unknown(),
});

/** `RelatedParty`: a party or party role; the subscriber's number can be its `id`. */
export const tmfRelatedParty = z.looseObject({
  id: z.string().max(128),
  href: z.string().max(2048).optional(),
  name: z.string().max(256).optional(),
  role: z.string().max(64).optional(),
  '@referredType': z.string().max(128).optional(),
});

/** `RatedProductUsage`: how the charging system rated the use. */
export const tmfRatedProductUsage = z.looseObject({
  isBilled: z.boolean().optional(),
  isTaxExempt: z.boolean().optional(),
  offerTariffType: z.string().max(128).optional(),
  ratingAmountType: z.string().max(128).optional(),
  ratingDate: dateTime.optional(),
  taxRate: z.number().optional(),
  usageRatingTag: z.string().max(128).optional(),
  bucketValueConvertedInAmount: tmfMoney.optional(),
  taxExcludedRatingAmount: tmfMoney.optional(),
  taxIncludedRatingAmount: tmfMoney.optional(),
});

/**
 * A `Usage` as the charging system sends it (`Usage_Create`, plus `id`: the charging system's
 * record id, which the document leaves to the server but which we need as the idempotency key).
 * Every property is optional here, as in the document; what the usage feed requires of a record
 * it checks itself, so that one bad record of a batch is refused alone, with its reason.
 */
export const tmfUsageInput = z.looseObject({
  id: z.string().max(1024).optional(),
  href: z.string().max(2048).optional(),
  description: z.string().max(1024).optional(),
  usageDate: dateTime.optional(),
  usageType: z.string().max(128).optional(),
  status: tmfUsageStatus.optional(),
  usageCharacteristic: z.array(tmfUsageCharacteristic).max(100).optional(),
  relatedParty: z.array(tmfRelatedParty).max(100).optional(),
  ratedProductUsage: z.array(tmfRatedProductUsage).max(100).optional(),
  usageSpecification: z.looseObject({ id: z.string().max(128) }).optional(),
});
export type TmfUsageInput = z.infer<typeof tmfUsageInput>;

/** POST /tmf-api/usageManagement/v4/usage: one Usage, or a batch of 1–1000. */
export const tmfUsageRequest = z.union([
  tmfUsageInput,
  z.array(tmfUsageInput).min(1).max(USAGE_RECORDS_MAX),
]);

/** The document's `Error`: `code` is ours (stable), `reason` in the caller's language. */
export const tmfError = z.object({
  code: z.string(),
  /** Why, in the language of `Accept-Language` (Faroese by default), as every API answer. */
  reason: z.string(),
  /** The field the refusal concerns, and its value where it is not personal data. */
  message: z.string().optional(),
  /** The HTTP status, as text (the document's "HTTP Error code extension"). */
  status: z.string(),
});
export type TmfError = z.infer<typeof tmfError>;

/** A `Usage` as we answer it: what the usage feed booked (or, `received`, took without booking). */
export const tmfUsageAnswer = z.object({
  id: z.string(),
  description: z.string().optional(),
  /** When the use happened, UTC. */
  usageDate: z.string().optional(),
  usageType: z.string().optional(),
  /** `rated`: booked on the line; `received`: not data use, nothing to book. */
  status: tmfUsageStatus,
  /** What was booked: `msisdn`, `dataVolume` (whole MB) and `roamingZone`. */
  usageCharacteristic: z
    .array(
      z.object({
        name: z.string(),
        valueType: z.string(),
        value: z.union([z.string(), z.object({ amount: z.number(), units: z.string() })]),
      }),
    )
    .optional(),
  ratedProductUsage: z
    .array(
      z.object({
        isBilled: z.boolean(),
        ratingDate: z.string(),
        usageRatingTag: z.string(),
        taxIncludedRatingAmount: z.object({ unit: z.string(), value: z.number() }),
        taxExcludedRatingAmount: z.object({ unit: z.string(), value: z.number() }),
      }),
    )
    .optional(),
  '@type': z.literal('Usage'),
});
export type TmfUsageAnswer = z.infer<typeof tmfUsageAnswer>;

/** What became of one Usage of a batch. */
export const tmfUsageOutcome = z.enum(['booked', 'duplicate', 'skipped', 'refused']);
export type TmfUsageOutcome = z.infer<typeof tmfUsageOutcome>;

/** Answer to a batch (a JSON array): each Usage's outcome, in the order sent. */
export const tmfUsageBatchAnswer = z.object({
  booked: z.number().int().nonnegative(),
  duplicates: z.number().int().nonnegative(),
  skipped: z.number().int().nonnegative(),
  refused: z.number().int().nonnegative(),
  results: z.array(
    z.object({
      /** Position in the batch, from 0. */
      index: z.number().int().nonnegative(),
      id: z.string().optional(),
      outcome: tmfUsageOutcome,
      /** Why a refused Usage was refused. */
      error: tmfError.optional(),
    }),
  ),
});
export type TmfUsageBatchAnswer = z.infer<typeof tmfUsageBatchAnswer>;
