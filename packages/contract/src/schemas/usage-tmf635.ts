import { z } from 'zod/mini';
import { USAGE_RECORDS_MAX } from '../constants';

/*
 * The usage feed on TMF635 Usage Management v4 (issue 43 §2, docs/decisions/0083-usage-tmf635.md):
 * the charging system POSTs rated use (data, calls, SMS, …) as TM Forum `Usage` resources to
 * POST /tmf-api/usageManagement/v4/usage — one Usage, or a list of them (a batch) — and reads one
 * back with GET …/usage/{id}. The shapes follow the published document (vendored in
 * apps/api/test/contracts/tmf635/): `Usage_Create` with `UsageCharacteristic`, `RelatedParty`,
 * `RatedProductUsage`, `Money` and `Quantity`, and the document's `Error`. As in the document,
 * properties we do not read are allowed. These answers are NOT the self-care
 * `{ data } | { error }` envelope.
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
  unit: z.optional(z.string().check(z.maxLength(16))),
  value: z.optional(z.number()),
});

/** `Quantity`: an amount in a unit — the value of a `dataVolume` characteristic. */
export const tmfQuantity = z.looseObject({
  amount: z.optional(z.number()),
  units: z.optional(z.string().check(z.maxLength(32))),
});

/** `UsageCharacteristic`: a name/value pair; the value is of any type (`Any`). */
export const tmfUsageCharacteristic = z.looseObject({
  id: z.optional(z.string().check(z.maxLength(128))),
  name: z.string().check(z.maxLength(128)),
  valueType: z.optional(z.string().check(z.maxLength(64))),
  value: z.unknown(),
});

/** `RelatedParty`: a party or party role; the subscriber's number can be its `id`. */
export const tmfRelatedParty = z.looseObject({
  id: z.string().check(z.maxLength(128)),
  href: z.optional(z.string().check(z.maxLength(2048))),
  name: z.optional(z.string().check(z.maxLength(256))),
  role: z.optional(z.string().check(z.maxLength(64))),
  '@referredType': z.optional(z.string().check(z.maxLength(128))),
});

/** `RatedProductUsage`: how the charging system rated the use. */
export const tmfRatedProductUsage = z.looseObject({
  isBilled: z.optional(z.boolean()),
  isTaxExempt: z.optional(z.boolean()),
  offerTariffType: z.optional(z.string().check(z.maxLength(128))),
  ratingAmountType: z.optional(z.string().check(z.maxLength(128))),
  ratingDate: z.optional(dateTime),
  taxRate: z.optional(z.number()),
  usageRatingTag: z.optional(z.string().check(z.maxLength(128))),
  bucketValueConvertedInAmount: z.optional(tmfMoney),
  taxExcludedRatingAmount: z.optional(tmfMoney),
  taxIncludedRatingAmount: z.optional(tmfMoney),
});

/**
 * A `Usage` as the charging system sends it (`Usage_Create`, plus an optional `id`: the charging
 * system's record id, the idempotency key when sent; without one the id is made from the use).
 * Every property is optional here, as in the document; what the usage feed requires of a record
 * it checks itself, so that one bad record of a batch is refused alone, with its reason.
 */
export const tmfUsageInput = z.looseObject({
  id: z.optional(z.string().check(z.maxLength(1024))),
  href: z.optional(z.string().check(z.maxLength(2048))),
  description: z.optional(z.string().check(z.maxLength(1024))),
  usageDate: z.optional(dateTime),
  usageType: z.optional(z.string().check(z.maxLength(128))),
  status: z.optional(tmfUsageStatus),
  usageCharacteristic: z.optional(z.array(tmfUsageCharacteristic).check(z.maxLength(100))),
  relatedParty: z.optional(z.array(tmfRelatedParty).check(z.maxLength(100))),
  ratedProductUsage: z.optional(z.array(tmfRatedProductUsage).check(z.maxLength(100))),
  usageSpecification: z.optional(z.looseObject({ id: z.string().check(z.maxLength(128)) })),
});
export type TmfUsageInput = z.infer<typeof tmfUsageInput>;

/** POST /tmf-api/usageManagement/v4/usage: one Usage, or a batch of 1–1000. */
export const tmfUsageRequest = z.union([
  tmfUsageInput,
  z.array(tmfUsageInput).check(z.minLength(1), z.maxLength(USAGE_RECORDS_MAX)),
]);

/** The document's `Error`: `code` is ours (stable), `reason` in the caller's language. */
export const tmfError = z.object({
  code: z.string(),
  /** Why: English, unless `Accept-Language` ranks Faroese above English (a machine's reader). */
  reason: z.string(),
  /** The field the refusal concerns, and its value where it is not personal data. */
  message: z.optional(z.string()),
  /** The HTTP status, as text (the document's "HTTP Error code extension"). */
  status: z.string(),
});
export type TmfError = z.infer<typeof tmfError>;

/** A `Usage` as we answer it (POST and GET): what the usage feed stored, not an echo. */
export const tmfUsageAnswer = z.object({
  /** The charging system's id, or the one made from the use. */
  id: z.string(),
  /** Where the Usage is read back: `<APP_URL>/tmf-api/usageManagement/v4/usage/{id}`. */
  href: z.string(),
  description: z.optional(z.string()),
  /** When the use happened, UTC. */
  usageDate: z.optional(z.string()),
  usageType: z.optional(z.string()),
  /** `rated`: data, or other use with the charging system's amount; `received`: without one. */
  status: tmfUsageStatus,
  /**
   * What was stored: `msisdn`, the quantity (`dataVolume` in whole MB, `duration` in s, or
   * `count`, a number), `roamingZone` and `otherParty`.
   */
  usageCharacteristic: z.optional(
    z.array(
      z.object({
        name: z.string(),
        valueType: z.string(),
        value: z.union([
          z.string(),
          z.number(),
          z.object({ amount: z.number(), units: z.string() }),
        ]),
      }),
    ),
  ),
  ratedProductUsage: z.optional(
    z.array(
      z.object({
        isBilled: z.boolean(),
        ratingDate: z.string(),
        usageRatingTag: z.string(),
        taxIncludedRatingAmount: z.object({ unit: z.string(), value: z.number() }),
        taxExcludedRatingAmount: z.object({ unit: z.string(), value: z.number() }),
      }),
    ),
  ),
  '@type': z.literal('Usage'),
});
export type TmfUsageAnswer = z.infer<typeof tmfUsageAnswer>;

/** What became of one Usage of a batch. */
export const tmfUsageOutcome = z.enum(['booked', 'duplicate', 'skipped', 'refused']);
export type TmfUsageOutcome = z.infer<typeof tmfUsageOutcome>;

/** Answer to a batch (a JSON array): each Usage's outcome, in the order sent. */
export const tmfUsageBatchAnswer = z.object({
  booked: z.int().check(z.nonnegative()),
  duplicates: z.int().check(z.nonnegative()),
  skipped: z.int().check(z.nonnegative()),
  refused: z.int().check(z.nonnegative()),
  results: z.array(
    z.object({
      /** Position in the batch, from 0. */
      index: z.int().check(z.nonnegative()),
      id: z.optional(z.string()),
      outcome: tmfUsageOutcome,
      /** Why a refused Usage was refused. */
      error: z.optional(tmfError),
    }),
  ),
});
export type TmfUsageBatchAnswer = z.infer<typeof tmfUsageBatchAnswer>;
