/**
 * The test provider's cards (documented in docs/operations.md "Payments"): the number decides
 * what happens, any future expiry and any three-digit CVC are accepted.
 */
export type CardBehaviour = 'succeed' | 'decline' | 'slow';

export const TEST_CARDS = {
  succeed: '4242424242424242',
  decline: '4000000000000002',
  slow: '4000000000003063',
} as const satisfies Record<CardBehaviour, string>;

/** What a (valid) card number does: the documented ones as documented, any other succeeds. */
export function behaviourOf(number: string): CardBehaviour {
  if (number === TEST_CARDS.decline) return 'decline';
  if (number === TEST_CARDS.slow) return 'slow';
  return 'succeed';
}

export function digitsOf(input: string): string {
  return input.replace(/[\s-]/g, '');
}

/** Luhn checksum over 12–19 digits. */
export function isValidCardNumber(number: string): boolean {
  if (!/^\d{12,19}$/.test(number)) return false;
  let sum = 0;
  for (let i = 0; i < number.length; i += 1) {
    let digit = Number(number[number.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/**
 * `MM/YY` (also `MM/YYYY`, `MMYY`) normalised to `MM/YY` when the card is still valid in the
 * month of `now` (cards expire at the end of their month), else null.
 */
export function validExpiry(input: string, now: Date): string | null {
  const match = /^\s*(\d{1,2})\s*\/?\s*(\d{2}|\d{4})\s*$/.exec(input);
  if (!match) return null;
  const month = Number(match[1]);
  const yearText = match[2] ?? '';
  const year = yearText.length === 2 ? 2000 + Number(yearText) : Number(yearText);
  if (month < 1 || month > 12) return null;
  const current = now.getUTCFullYear() * 12 + now.getUTCMonth();
  const expires = year * 12 + (month - 1);
  if (expires < current || expires > current + 20 * 12) return null;
  return `${String(month).padStart(2, '0')}/${String(year % 100).padStart(2, '0')}`;
}

export function isValidCvc(input: string): boolean {
  return /^\d{3}$/.test(input.trim());
}

/** The brand by the number's prefix (enough for the test cards and common real ones). */
export function brandOf(number: string): string {
  if (number.startsWith('4')) return 'Visa';
  if (/^(5[1-5]|2[2-7])/.test(number)) return 'Mastercard';
  if (/^3[47]/.test(number)) return 'American Express';
  return 'Card';
}

/** True when a stored card's `MM/YY` has passed by `now`. */
export function isExpired(expiry: string, now: Date): boolean {
  return validExpiry(expiry, now) === null;
}
