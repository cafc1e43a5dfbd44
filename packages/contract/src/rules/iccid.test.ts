import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isValidIccid, luhnCheckDigit, luhnValid, maskIccid, normalizeIccid } from './iccid';

const digitString = (min: number, max: number) =>
  fc
    .array(fc.integer({ min: 0, max: 9 }), { minLength: min, maxLength: max })
    .map((a) => a.join(''));

describe('ICCID, ITU-T E.118 (SPEC §3 "Signup payload" simcardNumber)', () => {
  it('accepts real-shaped numbers: 89, 19–20 digits, Luhn check digit', () => {
    // 89 298 01 + account digits + check digit
    const payload = '898980100000000001';
    const iccid = payload + luhnCheckDigit(payload);
    expect(iccid).toHaveLength(19);
    expect(isValidIccid(iccid)).toBe(true);
    expect(isValidIccid(iccid.replace(/(.{4})/g, '$1 '))).toBe(true);
  });

  it('property: every 89-prefixed payload completed with its check digit is valid', () => {
    fc.assert(
      fc.property(digitString(16, 17), (rest) => {
        const payload = `89${rest}`;
        expect(isValidIccid(payload + luhnCheckDigit(payload))).toBe(true);
      }),
    );
  });

  it('property: changing any one digit of a valid ICCID makes it invalid (Luhn catches it)', () => {
    fc.assert(
      fc.property(
        digitString(16, 17),
        fc.nat(),
        fc.integer({ min: 1, max: 9 }),
        (rest, at, delta) => {
          const payload = `89${rest}`;
          const valid = payload + luhnCheckDigit(payload);
          const i = 2 + (at % (valid.length - 2));
          const changed = (Number(valid[i]) + delta) % 10;
          const typo = valid.slice(0, i) + String(changed) + valid.slice(i + 1);
          expect(isValidIccid(typo)).toBe(false);
        },
      ),
    );
  });

  it('property: a swap of two different adjacent digits is caught (other than 0↔9)', () => {
    fc.assert(
      fc.property(digitString(16, 17), fc.nat(), (rest, at) => {
        const payload = `89${rest}`;
        const valid = payload + luhnCheckDigit(payload);
        const i = 2 + (at % (valid.length - 3));
        const [a, b] = [valid[i]!, valid[i + 1]!];
        fc.pre(a !== b && !((a === '0' && b === '9') || (a === '9' && b === '0')));
        const swapped = valid.slice(0, i) + b + a + valid.slice(i + 2);
        expect(isValidIccid(swapped)).toBe(false);
      }),
    );
  });

  it('refuses the wrong length, the wrong prefix and non-digits', () => {
    const short = '89298010000000001';
    expect(isValidIccid(short + luhnCheckDigit(short))).toBe(false); // 18 digits
    const long = '8929801000000000000001';
    expect(isValidIccid(long + luhnCheckDigit(long))).toBe(false); // 23 digits
    const other = '871234567890123456';
    expect(isValidIccid(other + luhnCheckDigit(other))).toBe(false); // not 89
    expect(isValidIccid('89298010000000000a1')).toBe(false);
    expect(isValidIccid('')).toBe(false);
  });

  it('Luhn agrees with the textbook example', () => {
    expect(luhnValid('79927398713')).toBe(true);
    expect(luhnValid('79927398710')).toBe(false);
  });

  it('shows only the last four digits', () => {
    expect(maskIccid('8929 8010 0000 0000 019')).toBe('•••• •••• •••• 0019');
    expect(normalizeIccid('8929 8010-0000')).toBe('892980100000');
  });
});
