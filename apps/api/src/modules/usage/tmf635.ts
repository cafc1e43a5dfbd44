import { z } from 'zod';
import { fromWireNumber } from '@alda/contract/rules/phone';
import { withVat } from '@alda/contract/format/money';
import { tmfUsageInput, type TmfUsageInput } from '@alda/contract/schemas/usage-tmf635';
import type { UsageKind } from '@alda/contract/schemas/usage';
import type { ErrorCode } from '@alda/contract/errors';
import type { SinkRecord } from '../../adapters/usage/usage-source';

/*
 * Reading a TMF635 `Usage` into a record of the usage feed (issue 43 §2,
 * docs/decisions/0083-usage-tmf635.md). Pure: what a Usage says, what we book from it, and why
 * one is refused. The names we read, matched without regard to case:
 *
 * - `id`: the charging system's record id, our idempotency key (required);
 * - `usageDate`: when the use happened (date-time with offset; required for data use);
 * - `usageType`: `data` is data use; another type (voice, SMS, …) is taken and not booked —
 *   Alda keeps no balance of calls or texts; without a type, a `dataVolume` makes it data use;
 * - characteristic `dataVolume`: a `Quantity` `{ amount, units }`, or a number with its unit in
 *   the characteristic `dataVolumeUnit`; units B, KB, MB, GB (and KiB, MiB, GiB), all 1024-based;
 * - characteristic `roamingZone`: `domestic` (the default) or `eu`;
 * - the number: characteristic `msisdn`, else a `relatedParty` of role `subscriber`, `customer` or
 *   `user` whose `id` is a Faroese number (6 digits, or with 298 / +298 / 00298);
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
  /** Data use to book. */
  | { kind: 'data'; id: string; record: SinkRecord; usage: TmfUsageInput }
  /** A Usage that is not data use: taken, nothing to book. */
  | { kind: 'other'; id: string; usage: TmfUsageInput }
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

/** The JSON feed's limit of one record: 1000 GB. */
const MAX_RECORD_MB = 1_024_000;
/** The most one record may be rated at, øre (100,000 kr.): keeps the sums far from overflow. */
const MAX_RATED_OERE = 10_000_000;

/** The JSON feed's record id rule (`usageRecord.recordId`): both feeds share one id space. */
const RECORD_ID = /^[\w.:-]{1,128}$/;
const NUMBER_ROLES = new Set(['subscriber', 'customer', 'user']);
const ZONES: ReadonlyMap<string, UsageKind> = new Map([
  ['domestic', 'domestic'],
  ['eu', 'eu'],
]);

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
 * The number the use is booked on: the `msisdn` characteristic when there is one, else the
 * related parties of a number role — which must then agree.
 */
function numberOf(usage: TmfUsageInput, characteristics: Map<string, unknown>): string | null {
  const given = characteristics.get('msisdn');
  if (typeof given === 'string' || typeof given === 'number') return fromWireNumber(String(given));
  if (given !== undefined) return null;
  const found = new Set<string>();
  for (const party of usage.relatedParty ?? []) {
    if (!NUMBER_ROLES.has((party.role ?? '').toLowerCase())) continue;
    // A party id that is not a number is the customer's id in the charging system: not ours.
    const number = fromWireNumber(party.id);
    if (number !== null) found.add(number);
  }
  return found.size === 1 ? ([...found][0] ?? null) : null;
}

/** The volume in whole MB (rounded to the nearest), or why not. */
function volumeOf(characteristics: Map<string, unknown>): number | UsageRefusal {
  const field = 'usageCharacteristic.dataVolume';
  const value = characteristics.get('datavolume');
  if (value === undefined) return { code: 'USAGE_VOLUME_MISSING', field };
  let amount: number | undefined;
  let units: unknown;
  const quantity = QUANTITY.safeParse(value);
  if (quantity.success) {
    if (quantity.data.amount === undefined) return { code: 'USAGE_VOLUME_MISSING', field };
    amount = numeric(quantity.data.amount);
    units = quantity.data.units ?? characteristics.get('datavolumeunit');
  } else {
    amount = numeric(value);
    units = characteristics.get('datavolumeunit');
  }
  if (amount === undefined || amount < 0) return { code: 'USAGE_INVALID', field: `${field}.value` };
  if (units === undefined) return { code: 'USAGE_VOLUME_MISSING', field: `${field}Unit` };
  const unitsField = `${field}.value.units`;
  if (typeof units !== 'string') return { code: 'USAGE_UNIT_UNSUPPORTED', field: unitsField };
  const bytes = BYTES_PER_UNIT.get(units.trim().toUpperCase());
  if (bytes === undefined)
    return { code: 'USAGE_UNIT_UNSUPPORTED', field: unitsField, value: units.slice(0, 32) };
  const mb = Math.round((amount * bytes) / BYTES_PER_MB);
  if (mb > MAX_RECORD_MB) return { code: 'USAGE_INVALID', field: `${field}.value` };
  return mb;
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
    total = (total ?? 0) + (included || rating.isTaxExempt ? oere : withVat(oere));
  }
  if (total !== undefined && total > MAX_RATED_OERE)
    return { code: 'USAGE_INVALID', field: 'ratedProductUsage' };
  return total;
}

const isRefusal = (value: unknown): value is UsageRefusal =>
  typeof value === 'object' && value !== null && 'code' in value;

/**
 * Reads one element of the request body as a TMF635 Usage: data use to book, other use to take
 * without booking, or a refusal with its reason. Never throws.
 */
export function readUsage(body: unknown): ReadUsage {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return refused('USAGE_NOT_A_USAGE', 'body');
  const parsed = tmfUsageInput.safeParse(body);
  const rawId = 'id' in body ? body.id : undefined;
  const id = typeof rawId === 'string' && RECORD_ID.test(rawId) ? rawId : undefined;
  if (!parsed.success) return refused('USAGE_INVALID', fieldOfIssues(parsed.error), undefined, id);
  const usage = parsed.data;
  if (usage.id === undefined || usage.id === '') return refused('USAGE_ID_MISSING', 'id');
  if (id === undefined) return refused('USAGE_INVALID', 'id');

  const characteristics = characteristicsOf(usage);
  if (!(characteristics instanceof Map))
    return refused('USAGE_INVALID', `usageCharacteristic.${characteristics.twice}`, undefined, id);
  const type = usage.usageType?.trim().toLowerCase();
  const data = type === undefined ? characteristics.has('datavolume') : type === 'data';
  if (!data) return { kind: 'other', id, usage };

  if (usage.usageDate === undefined) return refused('USAGE_INVALID', 'usageDate', undefined, id);
  const phoneNumber = numberOf(usage, characteristics);
  if (phoneNumber === null) return refused('USAGE_NUMBER_INVALID', 'relatedParty', undefined, id);
  const usedMb = volumeOf(characteristics);
  if (isRefusal(usedMb)) return { kind: 'refused', id, refusal: usedMb };
  const zone = characteristics.get('roamingzone');
  const kind = zone === undefined ? 'domestic' : ZONES.get(String(zone).trim().toLowerCase());
  if (kind === undefined) {
    const shown = typeof zone === 'string' ? zone.slice(0, 32) : undefined;
    return refused('USAGE_ZONE_UNSUPPORTED', 'usageCharacteristic.roamingZone', shown, id);
  }
  const ratedOere = ratedOereOf(usage);
  if (isRefusal(ratedOere)) return { kind: 'refused', id, refusal: ratedOere };

  return {
    kind: 'data',
    id,
    usage,
    record: {
      recordId: id,
      phoneNumber,
      usedMb,
      kind,
      occurredAt: new Date(usage.usageDate).toISOString(),
      ...(ratedOere !== undefined ? { ratedOere } : {}),
    },
  };
}

/** The field of the first zod issue, e.g. `usageCharacteristic.0.name`. */
function fieldOfIssues(error: z.core.$ZodError): string {
  return dotted(error.issues[0]?.path ?? []) || 'body';
}
