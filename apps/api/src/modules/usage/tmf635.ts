import { createHash } from 'node:crypto';
import { z } from 'zod';
import { fromWireNumber } from '@alda/contract/rules/phone';
import { withVat } from '@alda/contract/format/money';
import { tmfUsageInput, type TmfUsageInput } from '@alda/contract/schemas/usage-tmf635';
import type { ErrorCode } from '@alda/contract/errors';
import type { DataSinkRecord, OtherSinkRecord } from '../../adapters/usage/usage-source';
import { USAGE_KINDS, USAGE_RECORD_ZONES, type UsageRecordZone } from '../../db/schema/balances';

/*
 * Reading a TMF635 `Usage` into a record of the usage feed (issue 43 §2, issue 61 §3,
 * docs/decisions/0083-usage-tmf635.md). Pure: what a Usage says, what we store and book from
 * it, and why one is refused. The names we read, matched without regard to case:
 *
 * - `id`: the charging system's record id, our idempotency key, when it sends one; the document's
 *   `Usage_Create` has none, and then the id is made from what identifies the use
 *   (`contentId`): the same use sent again gets the same id;
 * - `usageDate`: when the use happened (date-time with offset; required);
 * - `usageType`: `data` is data use, booked on the line's buckets; without a type, a `dataVolume`
 *   makes it data use. Every other type (`voice`, `sms`, …; none: `other`) is stored for the
 *   bill and books nothing;
 * - characteristic `dataVolume` (data): a `Quantity` `{ amount, units }`, or a number with its
 *   unit in `dataVolumeUnit`; units B, KB, MB, GB (and KiB, MiB, GiB), all 1024-based;
 * - characteristic `duration` (required for `voice`): a `Quantity`, or a number with
 *   `durationUnit`; units ms, s, min, h; stored in whole seconds, a started second counting;
 * - characteristic `count` (other use without a duration): how many (SMS parts, …), 1 if absent;
 * - characteristic `otherParty`: the number called, calling or texted (other use);
 * - characteristic `roamingZone`: `domestic` (the default) or `eu`; other use also `world`;
 * - the number: characteristic `msisdn`, else a `relatedParty` of role `subscriber`, `customer` or
 *   `user` whose `id` is a Faroese number (6 digits, or with 298 / +298 / 00298); required for
 *   data, and other use naming none is kept on no line;
 * - `ratedProductUsage[]`: `taxIncludedRatingAmount` (else `taxExcludedRatingAmount` plus VAT,
 *   unless `isTaxExempt`), `Money.unit` DKK; summed over the entries.
 */

/** Why a Usage is not booked: the code, the field it concerns and (if not personal) its value. */
export interface UsageRefusal {
  code: ErrorCode;
  /** The field, e.g. `usageCharacteristic.dataVolume.value.units`. */
  field: string;
  /** The offending value, when it says nothing about a person (a unit, a zone, a currency). */
  value?: string;
}

export type ReadUsage =
  /** Data use to book on the line's buckets. */
  | { kind: 'data'; id: string; record: DataSinkRecord; usage: TmfUsageInput }
  /** Other use (a call, an SMS, …) to store for the bill. */
  | { kind: 'other'; id: string; record: OtherSinkRecord; usage: TmfUsageInput }
  | { kind: 'refused'; id?: string; refusal: UsageRefusal };

/** Bytes per unit of a data volume (upper case). Alda's MB is 1024 × 1024 bytes (SPEC §9). */
const BYTES_PER_UNIT: ReadonlyMap<string, number> = new Map([
  ['B', 1],
  ['BYTE', 1],
  ['BYTES', 1],
  ['OCTET', 1],
  ['OCTETS', 1],
  ['KB', 1024],
  ['KIB', 1024],
  ['MB', 1024 ** 2],
  ['MIB', 1024 ** 2],
  ['GB', 1024 ** 3],
  ['GIB', 1024 ** 3],
]);
const BYTES_PER_MB = 1024 ** 2;

/** Seconds per unit of a duration (upper case). */
const SECONDS_PER_UNIT: ReadonlyMap<string, number> = new Map([
  ['MS', 0.001],
  ['S', 1],
  ['SEC', 1],
  ['SECS', 1],
  ['SECOND', 1],
  ['SECONDS', 1],
  ['MIN', 60],
  ['MINS', 60],
  ['MINUTE', 60],
  ['MINUTES', 60],
  ['H', 3600],
  ['HOUR', 3600],
  ['HOURS', 3600],
]);

/** The JSON feed's limit of one record: 1000 GB. */
const MAX_RECORD_MB = 1_024_000;
/** The longest use one record may last: a week (charging systems cut long calls into parts). */
const MAX_SECONDS = 7 * 24 * 3600;
/** The most one record may count (SMS parts, …). */
const MAX_COUNT = 100_000;
/** The most one record may be rated at, øre (100,000 kr.): keeps the sums far from overflow. */
const MAX_RATED_OERE = 10_000_000;

/**
 * The JSON feed's record id rule (`usageRecord.recordId`): both feeds share one id space, and an
 * id that cannot be stored is never looked up (GET …/usage/{id}).
 */
export const RECORD_ID = /^[\w.:-]{1,128}$/;
/** A usage type as stored (lower case; `usage_records_type`). */
const USAGE_TYPE = /^[a-z0-9][a-z0-9 _./-]{0,31}$/;
/** The other party: a number, a short code (`*111#`) or a sender's name (`Alda`), as sent. */
const OTHER_PARTY = /^[\p{L}\p{N} +().#*-]{1,32}$/u;
const NUMBER_ROLES = new Set(['subscriber', 'customer', 'user']);

const refused = (code: ErrorCode, field: string, value?: string, id?: string): ReadUsage => ({
  kind: 'refused',
  ...(id !== undefined ? { id } : {}),
  refusal: { code, field, ...(value !== undefined ? { value } : {}) },
});

/** `a.b.0.c` for a zod issue path. */
const dotted = (path: readonly PropertyKey[]) => path.map(String).join('.');

/** A `Quantity` value (`{ amount, units }`), its parts still to be checked. */
const QUANTITY = z.looseObject({ amount: z.unknown(), units: z.unknown() });

/** A number, or a string that is one (CDR exports often write numbers as text). */
function numeric(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(value)) return Number(value);
  return undefined;
}

/** The characteristics by lower-case name; a name given twice is refused. */
function characteristicsOf(usage: TmfUsageInput): Map<string, unknown> | { twice: string } {
  const byName = new Map<string, unknown>();
  for (const characteristic of usage.usageCharacteristic ?? []) {
    const name = characteristic.name.toLowerCase();
    if (byName.has(name)) return { twice: characteristic.name };
    byName.set(name, characteristic.value);
  }
  return byName;
}

/**
 * The number the use is on: the `msisdn` characteristic when there is one, else the related
 * parties of a number role — which must then agree. `none` when the Usage names no number at all
 * (party ids that are not numbers are the charging system's own ids), `invalid` when what it
 * names is not one Faroese number.
 */
function numberOf(
  usage: TmfUsageInput,
  characteristics: Map<string, unknown>,
): string | 'none' | 'invalid' {
  const given = characteristics.get('msisdn');
  if (typeof given === 'string' || typeof given === 'number')
    return fromWireNumber(String(given)) ?? 'invalid';
  if (given !== undefined) return 'invalid';
  const found = new Set<string>();
  for (const party of usage.relatedParty ?? []) {
    if (!NUMBER_ROLES.has((party.role ?? '').toLowerCase())) continue;
    // A party id that is not a number is the customer's id in the charging system: not ours.
    const number = fromWireNumber(party.id);
    if (number !== null) found.add(number);
  }
  if (found.size === 0) return 'none';
  return found.size === 1 ? ([...found][0] ?? 'invalid') : 'invalid';
}

/** The codes a measure is refused with: data has its own, the rest say `USAGE_INVALID`. */
interface MeasureCodes {
  missing: ErrorCode;
  unit: ErrorCode;
}

/**
 * A measured characteristic (`dataVolume`, `duration`): a `Quantity` `{ amount, units }`, or a
 * number with its unit in the characteristic `<name>Unit`. Answers the amount in base units
 * (bytes, seconds), or why not.
 */
function measureOf(
  characteristics: Map<string, unknown>,
  name: string,
  perUnit: ReadonlyMap<string, number>,
  codes: MeasureCodes,
): number | UsageRefusal {
  const field = `usageCharacteristic.${name}`;
  const value = characteristics.get(name.toLowerCase());
  if (value === undefined) return { code: codes.missing, field };
  let amount: number | undefined;
  let units: unknown;
  const quantity = QUANTITY.safeParse(value);
  if (quantity.success) {
    if (quantity.data.amount === undefined) return { code: codes.missing, field };
    amount = numeric(quantity.data.amount);
    units = quantity.data.units ?? characteristics.get(`${name.toLowerCase()}unit`);
  } else {
    amount = numeric(value);
    units = characteristics.get(`${name.toLowerCase()}unit`);
  }
  if (amount === undefined || amount < 0) return { code: 'USAGE_INVALID', field: `${field}.value` };
  if (units === undefined) return { code: codes.missing, field: `${field}Unit` };
  const unitsField = `${field}.value.units`;
  if (typeof units !== 'string') return { code: codes.unit, field: unitsField };
  const factor = perUnit.get(units.trim().toUpperCase());
  if (factor === undefined)
    return { code: codes.unit, field: unitsField, value: units.slice(0, 32) };
  return amount * factor;
}

/** A data volume: whole MB (rounded to the nearest) and the bytes as sent, or why not. */
function volumeOf(
  characteristics: Map<string, unknown>,
): { mb: number; bytes: number } | UsageRefusal {
  const bytes = measureOf(characteristics, 'dataVolume', BYTES_PER_UNIT, {
    missing: 'USAGE_VOLUME_MISSING',
    unit: 'USAGE_UNIT_UNSUPPORTED',
  });
  if (isRefusal(bytes)) return bytes;
  const mb = Math.round(bytes / BYTES_PER_MB);
  if (mb > MAX_RECORD_MB)
    return { code: 'USAGE_INVALID', field: 'usageCharacteristic.dataVolume.value' };
  return { mb, bytes };
}

/**
 * A duration: whole seconds (a started second counts, as charging systems count it; to the
 * millisecond first, so 1.5 min is 90 s and not 91) and the seconds as sent, or why not.
 */
function durationOf(
  characteristics: Map<string, unknown>,
): { seconds: number; exact: number } | UsageRefusal {
  const exact = measureOf(characteristics, 'duration', SECONDS_PER_UNIT, {
    missing: 'USAGE_INVALID',
    unit: 'USAGE_INVALID',
  });
  if (isRefusal(exact)) return exact;
  const seconds = Math.ceil(Math.round(exact * 1000) / 1000);
  if (seconds > MAX_SECONDS)
    return { code: 'USAGE_INVALID', field: 'usageCharacteristic.duration.value' };
  return { seconds, exact };
}

/** How many (SMS parts, …): the `count` characteristic, a whole number ≥ 1; 1 when absent. */
function countOf(characteristics: Map<string, unknown>): number | UsageRefusal {
  const value = characteristics.get('count');
  if (value === undefined) return 1;
  const count = numeric(value);
  if (count === undefined || !Number.isInteger(count) || count < 1 || count > MAX_COUNT)
    return { code: 'USAGE_INVALID', field: 'usageCharacteristic.count' };
  return count;
}

/** The other party of a call or a message, trimmed; never shown in a refusal (personal). */
function otherPartyOf(characteristics: Map<string, unknown>): string | undefined | UsageRefusal {
  const value = characteristics.get('otherparty');
  if (value === undefined) return undefined;
  const party = typeof value === 'string' || typeof value === 'number' ? String(value).trim() : '';
  if (!OTHER_PARTY.test(party))
    return { code: 'USAGE_INVALID', field: 'usageCharacteristic.otherParty' };
  return party;
}

/**
 * The zone: `domestic` (the default) or `eu`, as the data buckets know them; use that is not data
 * may also be `world`. Anything else is refused, not guessed: booking a bare `roaming` as `eu`
 * would draw the EU package for use it does not cover (ADR 0078).
 */
function zoneOf<Z extends UsageRecordZone>(
  characteristics: Map<string, unknown>,
  allowed: readonly Z[],
): Z | UsageRefusal {
  const zone = characteristics.get('roamingzone');
  const name = zone === undefined ? 'domestic' : String(zone).trim().toLowerCase();
  const found = allowed.find((known) => known === name);
  if (found !== undefined) return found;
  return {
    code: 'USAGE_ZONE_UNSUPPORTED',
    field: 'usageCharacteristic.roamingZone',
    ...(typeof zone === 'string' ? { value: zone.slice(0, 32) } : {}),
  };
}

/** The charging system's rating of the record, øre with VAT; undefined when it sent none. */
function ratedOereOf(usage: TmfUsageInput): number | undefined | UsageRefusal {
  let total: number | undefined;
  for (const [index, rating] of (usage.ratedProductUsage ?? []).entries()) {
    const included = rating.taxIncludedRatingAmount;
    const money = included ?? rating.taxExcludedRatingAmount;
    if (money === undefined) continue;
    const field = `ratedProductUsage.${index}.${included ? 'taxIncluded' : 'taxExcluded'}RatingAmount`;
    if (typeof money.unit !== 'string' || money.unit.trim().toUpperCase() !== 'DKK')
      return {
        code: 'USAGE_CURRENCY_UNSUPPORTED',
        field: `${field}.unit`,
        ...(typeof money.unit === 'string' ? { value: money.unit.slice(0, 16) } : {}),
      };
    if (money.value === undefined || !Number.isFinite(money.value) || money.value < 0)
      return { code: 'USAGE_INVALID', field: `${field}.value` };
    const oere = Math.round(money.value * 100);
    // Over the limit on its own (or beyond whole øre a number can hold): refused, not computed.
    if (!Number.isSafeInteger(oere) || oere > MAX_RATED_OERE)
      return { code: 'USAGE_INVALID', field: `${field}.value` };
    total = (total ?? 0) + (included || rating.isTaxExempt ? oere : withVat(oere));
  }
  if (total !== undefined && total > MAX_RATED_OERE)
    return { code: 'USAGE_INVALID', field: 'ratedProductUsage' };
  return total;
}

const isRefusal = (value: unknown): value is UsageRefusal =>
  typeof value === 'object' && value !== null && 'code' in value;

/**
 * The id of a Usage sent without one (ADR 0083): made from what identifies the use — its type,
 * number, instant, quantity as sent, zone and other party — so the same use sent again (a retry
 * after a lost answer, a resent file) gets the same id and is a duplicate. Not from the rating,
 * status or description: a resend that was re-rated meanwhile is still the same use.
 */
export function contentId(parts: readonly (string | number)[]): string {
  const digest = createHash('sha256').update(JSON.stringify(parts)).digest('hex');
  return `tmf635-${digest.slice(0, 40)}`;
}

/** A copy without `null` properties: a generated client writes `null` for what it did not set. */
function withoutNulls(value: unknown, depth = 0): unknown {
  if (depth > 4 || typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map((item) => withoutNulls(item, depth + 1));
  return Object.fromEntries(
    Object.entries(value).flatMap(([key, item]) =>
      item === null ? [] : [[key, withoutNulls(item, depth + 1)]],
    ),
  );
}

/**
 * Reads one element of the request body as a TMF635 Usage: data use to book, other use to store,
 * or a refusal with its reason. Never throws.
 */
export function readUsage(body: unknown): ReadUsage {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return refused('USAGE_NOT_A_USAGE', 'body');
  const cleaned = withoutNulls(body) as Record<string, unknown>;
  const rawId = cleaned.id;
  const givenId = typeof rawId === 'string' && RECORD_ID.test(rawId) ? rawId : undefined;
  const parsed = tmfUsageInput.safeParse(cleaned);
  if (!parsed.success)
    return refused('USAGE_INVALID', fieldOfIssues(parsed.error), undefined, givenId);
  const usage = parsed.data;
  // An id that is sent must be one we can keep; an empty one counts as none.
  if (usage.id !== undefined && usage.id !== '' && givenId === undefined)
    return refused('USAGE_INVALID', 'id');
  const refuse = (refusal: UsageRefusal): ReadUsage => ({
    kind: 'refused',
    ...(givenId !== undefined ? { id: givenId } : {}),
    refusal,
  });

  const characteristics = characteristicsOf(usage);
  if (!(characteristics instanceof Map))
    return refuse({ code: 'USAGE_INVALID', field: `usageCharacteristic.${characteristics.twice}` });
  const type = usage.usageType?.trim().toLowerCase() || undefined;
  const data = type === undefined ? characteristics.has('datavolume') : type === 'data';

  if (usage.usageDate === undefined) return refuse({ code: 'USAGE_INVALID', field: 'usageDate' });
  const occurredAt = new Date(usage.usageDate).toISOString();
  const named = numberOf(usage, characteristics);
  if (named === 'invalid') return refuse({ code: 'USAGE_NUMBER_INVALID', field: 'relatedParty' });
  const number = named === 'none' ? null : named;

  if (data) {
    // Data books on a line's buckets: it must name the line.
    if (number === null) return refuse({ code: 'USAGE_NUMBER_INVALID', field: 'relatedParty' });
    const volume = volumeOf(characteristics);
    if (isRefusal(volume)) return refuse(volume);
    // The data buckets' zones.
    const kind = zoneOf(characteristics, USAGE_KINDS);
    if (isRefusal(kind)) return refuse(kind);
    const ratedOere = ratedOereOf(usage);
    if (isRefusal(ratedOere)) return refuse(ratedOere);
    const id = givenId ?? contentId(['data', number, occurredAt, volume.bytes, kind]);
    return {
      kind: 'data',
      id,
      usage,
      record: {
        recordId: id,
        phoneNumber: number,
        usedMb: volume.mb,
        kind,
        occurredAt,
        ...(ratedOere !== undefined ? { ratedOere } : {}),
        ...(usage.description !== undefined ? { description: usage.description } : {}),
      },
    };
  }

  const usageType = type ?? 'other';
  // Data use must say so: a volume on another type would book nothing on the buckets.
  if (!USAGE_TYPE.test(usageType) || characteristics.has('datavolume'))
    return refuse({ code: 'USAGE_INVALID', field: 'usageType', value: usageType.slice(0, 32) });
  let quantity: { amount: number; exact: number; unit: 's' | 'count' };
  if (usageType === 'voice' || characteristics.has('duration')) {
    const duration = durationOf(characteristics);
    if (isRefusal(duration)) return refuse(duration);
    quantity = { amount: duration.seconds, exact: duration.exact, unit: 's' };
  } else {
    const count = countOf(characteristics);
    if (isRefusal(count)) return refuse(count);
    quantity = { amount: count, exact: count, unit: 'count' };
  }
  const otherParty = otherPartyOf(characteristics);
  if (isRefusal(otherParty)) return refuse(otherParty);
  // Other use draws on no bucket: also `world`.
  const kind = zoneOf(characteristics, USAGE_RECORD_ZONES);
  if (isRefusal(kind)) return refuse(kind);
  const ratedOere = ratedOereOf(usage);
  if (isRefusal(ratedOere)) return refuse(ratedOere);
  const id =
    givenId ??
    contentId([
      usageType,
      number ?? '',
      occurredAt,
      quantity.exact,
      quantity.unit,
      kind,
      otherParty ?? '',
    ]);
  return {
    kind: 'other',
    id,
    usage,
    record: {
      recordId: id,
      usageType,
      phoneNumber: number,
      quantity: quantity.amount,
      unit: quantity.unit,
      kind,
      occurredAt,
      ...(otherParty !== undefined ? { otherParty } : {}),
      ...(ratedOere !== undefined ? { ratedOere } : {}),
      ...(usage.description !== undefined ? { description: usage.description } : {}),
    },
  };
}

/** The field of the first zod issue, e.g. `usageCharacteristic.0.name`. */
function fieldOfIssues(error: z.core.$ZodError): string {
  return dotted(error.issues[0]?.path ?? []) || 'body';
}
