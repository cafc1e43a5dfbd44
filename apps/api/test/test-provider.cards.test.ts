import { describe, expect, it } from 'vitest';
import {
  TEST_CARDS,
  behaviourOf,
  brandOf,
  digitsOf,
  isValidCardNumber,
  isValidCvc,
  validExpiry,
} from '../src/adapters/payments/test-provider/cards';
import { signatureHeader, verifySignature } from '../src/adapters/payments/signature';

describe('test provider cards', () => {
  it('the documented test cards pass the Luhn check and behave as documented', () => {
    expect(isValidCardNumber(digitsOf('4242 4242 4242 4242'))).toBe(true);
    expect(isValidCardNumber(digitsOf('4000-0000-0000-0002'))).toBe(true);
    expect(isValidCardNumber(TEST_CARDS.slow)).toBe(true);
    expect(behaviourOf(TEST_CARDS.succeed)).toBe('succeed');
    expect(behaviourOf(TEST_CARDS.decline)).toBe('decline');
    expect(behaviourOf(TEST_CARDS.slow)).toBe('slow');
    expect(behaviourOf('5555555555554444')).toBe('succeed');
  });

  it('refuses numbers that fail the checksum or have the wrong length', () => {
    expect(isValidCardNumber('4242424242424241')).toBe(false);
    expect(isValidCardNumber('42424242')).toBe(false);
    expect(isValidCardNumber('4242x42424242424')).toBe(false);
    expect(isValidCardNumber('')).toBe(false);
  });

  it('an expiry is valid through the end of its month, in MM/YY, MMYY or MM/YYYY', () => {
    const now = new Date('2026-06-30T23:00:00Z');
    expect(validExpiry('06/26', now)).toBe('06/26');
    expect(validExpiry('0626', now)).toBe('06/26');
    expect(validExpiry('6/2031', now)).toBe('06/31');
    expect(validExpiry('05/26', now)).toBeNull();
    expect(validExpiry('13/27', now)).toBeNull();
    expect(validExpiry('00/27', now)).toBeNull();
    expect(validExpiry('12/99', now)).toBeNull();
    expect(validExpiry('soon', now)).toBeNull();
  });

  it('CVC is three digits; brands by prefix', () => {
    expect(isValidCvc('123')).toBe(true);
    expect(isValidCvc('12')).toBe(false);
    expect(isValidCvc('1234')).toBe(false);
    expect(brandOf('4242424242424242')).toBe('Visa');
    expect(brandOf('5555555555554444')).toBe('Mastercard');
    expect(brandOf('2223003122003222')).toBe('Mastercard');
    expect(brandOf('378282246310005')).toBe('American Express');
  });
});

describe('webhook signatures', () => {
  const secret = 'a-webhook-secret-that-is-long-enough-0123';
  const body = Buffer.from('{"id":"evt_1"}');
  const at = new Date('2026-06-15T12:00:00Z');

  it('accepts its own signature within 300 s, and any of several v1 values (secret rotation)', () => {
    const header = signatureHeader(secret, at, body);
    expect(() =>
      verifySignature(secret, body, { 'alda-signature': header }, new Date(at.getTime() + 300_000)),
    ).not.toThrow();
    const rotated = `${signatureHeader('old-secret-that-is-long-enough-012345678', at, body)},v1=${header.split('v1=')[1] ?? ''}`;
    expect(() => verifySignature(secret, body, { 'alda-signature': rotated }, at)).not.toThrow();
  });

  it('refuses a stale, a future, a foreign or a malformed signature', () => {
    const header = signatureHeader(secret, at, body);
    const check =
      (value: string | undefined, now = at) =>
      () =>
        verifySignature(secret, body, value === undefined ? {} : { 'alda-signature': value }, now);
    expect(check(header, new Date(at.getTime() + 301_000))).toThrow(/tolerance/);
    expect(check(header, new Date(at.getTime() - 301_000))).toThrow(/tolerance/);
    expect(check(signatureHeader('x'.repeat(40), at, body))).toThrow(/does not match/);
    expect(check(undefined)).toThrow(/missing/);
    expect(check('v1=abc')).toThrow(/malformed/);
    expect(check(header.replace(/v1=([0-9a-f])/, 'v1=0$1').slice(0, -1))).toThrow();
  });
});
