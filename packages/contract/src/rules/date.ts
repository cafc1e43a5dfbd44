import { z } from 'zod/mini';

/** A calendar date as `yyyy-mm-dd` (ISO 8601), the form dates travel and are stored in. */
export type IsoDate = string;

const DISPLAY = /^(\d{2})\.(\d{2})\.(\d{4})$/;
const ISO = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a leap year of the Gregorian calendar. */
export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/** Days in `month` (1–12) of `year`. */
export function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** True when year/month/day name a real day (years 1000–9999, as the 4-digit formats allow). */
export function isRealDate(year: number, month: number, day: number): boolean {
  return (
    Number.isInteger(year) &&
    year >= 1000 &&
    year <= 9999 &&
    Number.isInteger(month) &&
    month >= 1 &&
    month <= 12 &&
    Number.isInteger(day) &&
    day >= 1 &&
    day <= daysInMonth(year, month)
  );
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/**
 * SPEC §5 "Date format dd.mm.yyyy": parses a typed date into ISO `yyyy-mm-dd`, or null when the
 * text is not in the format or is not a real calendar date ('31.02.2024' → null,
 * '29.02.2024' → '2024-02-29', '29.02.2023' → null). White space around it is ignored.
 */
export function parseDisplayDate(input: string): IsoDate | null {
  const match = DISPLAY.exec(input.trim());
  if (!match) return null;
  const [day, month, year] = [Number(match[1]), Number(match[2]), Number(match[3])];
  return isRealDate(year, month, day) ? `${pad(year, 4)}-${pad(month)}-${pad(day)}` : null;
}

/** True when the text is a real date written dd.mm.yyyy. */
export function isValidDisplayDate(input: string): boolean {
  return parseDisplayDate(input) !== null;
}

/** Reads an ISO `yyyy-mm-dd` calendar date into numbers, or null when it is not a real date. */
export function parseIsoDate(iso: string): { year: number; month: number; day: number } | null {
  const match = ISO.exec(iso);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  return isRealDate(year, month, day) ? { year, month, day } : null;
}

/**
 * ISO `yyyy-mm-dd` → `dd.mm.yyyy` (SPEC §9 date format) for calendar dates such as a birth date,
 * which have no time zone. For instants use `format/date.ts`.
 * @throws RangeError when the input is not a real ISO date.
 */
export function isoToDisplayDate(iso: IsoDate): string {
  const parts = parseIsoDate(iso);
  if (!parts) throw new RangeError(`Not an ISO calendar date: ${iso}`);
  return `${pad(parts.day)}.${pad(parts.month)}.${pad(parts.year, 4)}`;
}

/**
 * A date field typed as dd.mm.yyyy: `REQUIRED`, then `INVALID_DATE`. The output stays in the typed
 * form (no transform), so a form's parsed values can be posted as they are; the server converts
 * with {@link parseDisplayDate}.
 */
export const displayDateSchema = z.string({ error: 'REQUIRED' }).check(
  z.trim(),
  z.minLength(1, 'REQUIRED'),
  z.refine((v) => v === '' || isValidDisplayDate(v), 'INVALID_DATE'),
);

/** An ISO `yyyy-mm-dd` calendar date in API answers and stored data (`INVALID_DATE` otherwise). */
export const isoDateSchema = z
  .string()
  .check(z.refine((v) => parseIsoDate(v) !== null, 'INVALID_DATE'));
