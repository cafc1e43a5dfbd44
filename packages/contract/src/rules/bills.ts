import { faroeMonth, fromFaroeWallClock, startOfMonth, todayInFaroe } from '../format/date';

/*
 * The monthly bill's rules (docs/decisions/0098-monthly-bill.md): its state, its due date, its
 * payment reference and how an itemised number is shown. One home for each, used by the API (the
 * bill, its PDF, TMF678) and the apps.
 */

/** Days from a bill's issue to its due date. */
export const BILL_DUE_DAYS = 14;

/** Months of itemised use a bill keeps (the usage records' retention, ADR 0098). */
export const ITEMISED_USE_MONTHS = 6;

/** Years a bill is kept after it is issued: the Faroese bookkeeping act (ADR 0098). */
export const BILL_RETENTION_YEARS = 5;

export const BILL_STATES = ['open', 'paid', 'partly_paid', 'overdue'] as const;
export type BillState = (typeof BILL_STATES)[number];

/**
 * A bill's state from what it costs, what was paid and its due date (`yyyy-mm-dd`, Faroese):
 * paid when all is paid (or nothing is owed), partly paid when some is, overdue when the due
 * date is behind `today` (`yyyy-mm-dd`, Faroese) and something is owed, else open.
 */
export function billState(
  grossOere: number,
  paidOere: number,
  dueDate: string,
  today: string,
): BillState {
  if (paidOere >= grossOere) return 'paid';
  if (today > dueDate) return 'overdue';
  if (paidOere > 0) return 'partly_paid';
  return 'open';
}

/** Mod-10 (Luhn) check digit of a string of digits. */
function luhnDigit(digits: string): number {
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return (10 - (sum % 10)) % 10;
}

/**
 * The payment reference of a bank transfer: the bill's serial, eight digits, and a mod-10
 * check digit, so a mistyped reference is caught by the bank's form and by us.
 */
export function paymentReference(serial: number): string {
  const digits = String(serial).padStart(8, '0');
  return `${digits}${luhnDigit(digits)}`;
}

export function isValidPaymentReference(reference: string): boolean {
  if (!/^\d{9}$/.test(reference)) return false;
  return luhnDigit(reference.slice(0, 8)) === Number(reference[8]);
}

/** `R-000042`: the bill number, from the one unbroken sequence of bills. */
export function billNumber(serial: number): string {
  return `R-${String(serial).padStart(6, '0')}`;
}

/**
 * The other party's number as an itemised list shows it: the last three digits hidden
 * (`316•••`, `+44 20 7946 0•••`), unless full numbers are shown. Keeps spaces and a leading +.
 */
export function maskOtherParty(number: string, full: boolean): string {
  if (full) return number;
  let hidden = 0;
  const chars = [...number];
  for (let i = chars.length - 1; i >= 0 && hidden < 3; i -= 1) {
    if (/\d/.test(chars[i] ?? '')) {
      chars[i] = '•';
      hidden += 1;
    }
  }
  return chars.join('');
}

/** The Faroese month `yyyy-mm` as instants: its first, and the first of the next. */
export function periodBounds(period: string): { start: Date; next: Date } {
  const [year, month] = period.split('-').map(Number) as [number, number];
  return {
    start: fromFaroeWallClock(year, month, 1),
    next: fromFaroeWallClock(month === 12 ? year + 1 : year, month === 12 ? 1 : month + 1, 1),
  };
}

/** The Faroese month before the one `at` is in: the month a month-end round bills. */
export function previousPeriod(at: Date): string {
  return faroeMonth(startOfMonth(at).getTime() - 1);
}

/** The due date of a bill issued at `issuedAt`: {@link BILL_DUE_DAYS} Faroese days later. */
export function billDueDate(issuedAt: Date): string {
  const [year, month, day] = todayInFaroe(issuedAt).split('-').map(Number) as [
    number,
    number,
    number,
  ];
  return new Date(Date.UTC(year, month - 1, day + BILL_DUE_DAYS)).toISOString().slice(0, 10);
}

/** The oldest month whose use is still itemised at `now`: {@link ITEMISED_USE_MONTHS} back. */
export function oldestItemisedPeriod(now: Date): string {
  const [year, month] = faroeMonth(now).split('-').map(Number) as [number, number];
  const index = year * 12 + (month - 1) - ITEMISED_USE_MONTHS;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
}
