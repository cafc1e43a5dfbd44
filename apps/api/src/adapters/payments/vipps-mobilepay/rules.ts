/*
 * The rules Vipps MobilePay's published API documents set on what we send (ADR 0081), each in one
 * place: amounts, references, idempotency keys, the Recurring charge's due date and text lengths.
 * Sources: ePayment API v1 (`Amount`, `Reference`, `Idempotency-Key`, `paymentDescription`) and
 * Recurring API v3 (`CreateChargeV3`, `Idempotency-Key`), vendored in
 * apps/api/test/contracts/vipps-mobilepay/.
 */

/** The currency of every amount we send: Faroese prices are in Danish kroner. */
export const CURRENCY = 'DKK';

/** ePayment `Amount.value`: minor units (øre), 0 … 65,000,000. */
export const EPAYMENT_MAX_OERE = 65_000_000;
/** Recurring `CreateChargeV3.amount` (and refunds, captures): at least 100 øre. */
export const RECURRING_MIN_OERE = 100;

/** ePayment `Reference`: `^[a-zA-Z0-9-]{8,50}$`. Our payment ids (UUIDs, 36 characters) fit. */
const REFERENCE = /^[a-zA-Z0-9-]{8,50}$/;
/** ePayment `Idempotency-Key`: at most 50 characters. */
const EPAYMENT_KEY_MAX = 50;
/** Recurring `Idempotency-Key`: 1–40 characters, none of `#`, `?`, `/`, `\`. */
const RECURRING_KEY = /^[^#?/\\]{1,40}$/;
/** Recurring `CreateChargeV3.orderId`: `^[a-zA-Z\d-]+`, 1–50 characters (it becomes the chargeId). */
const ORDER_ID = /^[a-zA-Z0-9-]{1,50}$/;

/** Thrown when a value breaks one of the provider's documented rules (never sent). */
export class VippsRuleError extends Error {
  override name = 'VippsRuleError';
}

/** An ePayment `Amount` of øre (with VAT) in DKK. */
export function epaymentAmount(oere: number): { currency: typeof CURRENCY; value: number } {
  if (!Number.isSafeInteger(oere) || oere < 0 || oere > EPAYMENT_MAX_OERE) {
    throw new VippsRuleError(`amount ${oere} øre is outside 0…${EPAYMENT_MAX_OERE}`);
  }
  return { currency: CURRENCY, value: oere };
}

/** A Recurring amount (charge, refund): whole øre, at least 1 kr. */
export function recurringAmount(oere: number): number {
  if (!Number.isSafeInteger(oere) || oere < RECURRING_MIN_OERE) {
    throw new VippsRuleError(`a recurring amount must be at least ${RECURRING_MIN_OERE} øre`);
  }
  return oere;
}

/** Our payment id as the ePayment `reference` (and the Recurring charge's `orderId`). */
export function paymentReference(paymentId: string): string {
  if (!REFERENCE.test(paymentId) || !ORDER_ID.test(paymentId)) {
    throw new VippsRuleError('a payment id must be 8–50 letters, digits or hyphens');
  }
  return paymentId;
}

/** An ePayment `Idempotency-Key` (capture, cancel and refund each have their own). */
export function epaymentKey(key: string): string {
  if (key.length === 0 || key.length > EPAYMENT_KEY_MAX) {
    throw new VippsRuleError(`an ePayment idempotency key is 1–${EPAYMENT_KEY_MAX} characters`);
  }
  return key;
}

/** A Recurring `Idempotency-Key`. */
export function recurringKey(key: string): string {
  if (!RECURRING_KEY.test(key)) {
    throw new VippsRuleError('a Recurring idempotency key is 1–40 characters without # ? / \\');
  }
  return key;
}

/**
 * The `due` date of a Recurring charge: `YYYY-MM-DD`, at least two days ahead in production
 * ("Must be at least two days in advance in the production environment"), counted in Faroese
 * days so a charge placed late in the evening is not a day short.
 */
export function chargeDueDate(now: Date, daysAhead = 2): string {
  const faroeToday = new Intl.DateTimeFormat('en-CA', {
    timeZone: 'Atlantic/Faroe',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(now);
  const [y, m, d] = faroeToday.split('-').map(Number) as [number, number, number];
  const due = new Date(Date.UTC(y, m - 1, d + daysAhead));
  return due.toISOString().slice(0, 10);
}

/**
 * Text to a length limit (`paymentDescription` 3–100, a charge's `description` ≤ 45,
 * `productName` ≤ 45): cut at a character, never inside a surrogate pair.
 */
export function clip(text: string, max: number, min = 1): string {
  const chars = Array.from(text.trim());
  const clipped = chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : chars.join('');
  if (Array.from(clipped).length < min) throw new VippsRuleError(`text shorter than ${min}`);
  return clipped;
}
