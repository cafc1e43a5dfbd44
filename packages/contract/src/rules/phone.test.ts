import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  fromWireNumber,
  isValidPhoneNumber,
  normalizePhoneNumber,
  phoneNumber,
  phoneNumberInput,
  toWireNumber,
} from './phone';

const sixDigits = fc.stringMatching(/^\d{6}$/);
/** Inserts spaces between characters at random, as people type numbers ('21 12 34'). */
const spaced = (text: string) =>
  fc
    .array(fc.constantFrom('', ' ', '  '), {
      minLength: text.length + 1,
      maxLength: text.length + 1,
    })
    .map((gaps) => [...text].map((ch, i) => `${gaps[i]}${ch}`).join('') + gaps[text.length]);

describe('phone number (SPEC §5)', () => {
  it('is 6 digits (SPEC §5)', () => {
    expect(isValidPhoneNumber('211234')).toBe(true);
    for (const bad of ['', '21123', '2112345', '21a234', '+298']) {
      expect(isValidPhoneNumber(bad), bad).toBe(false);
    }
  });

  it('strips +298 and 00298, also written with spaces, when 6 digits remain (SPEC §5)', () => {
    expect(normalizePhoneNumber('+298211234')).toBe('211234');
    expect(normalizePhoneNumber('00298211234')).toBe('211234');
    expect(normalizePhoneNumber('+298 21 12 34')).toBe('211234');
    expect(normalizePhoneNumber('00 298 211 234')).toBe('211234');
    expect(normalizePhoneNumber('21 12 34')).toBe('211234');
  });

  it('strips +298 only when exactly 6 digits remain (SPEC §5)', () => {
    expect(normalizePhoneNumber('+29821123')).toBe('+29821123');
    expect(normalizePhoneNumber('+2982112345')).toBe('+2982112345');
    expect(isValidPhoneNumber('+29821123')).toBe(false);
    // Without + or 00 the digits are a 9-digit number, not a prefixed one.
    expect(isValidPhoneNumber('298211234')).toBe(false);
  });

  it('normalises any spacing of any prefixed or bare 6-digit number to the 6 digits (SPEC §5)', () => {
    const typed = fc
      .tuple(sixDigits, fc.constantFrom('', '+298', '00298'))
      .chain(([digits, prefix]) => spaced(prefix + digits).map((text) => ({ digits, text })));
    fc.assert(
      fc.property(typed, ({ digits, text }) => {
        expect(normalizePhoneNumber(text)).toBe(digits);
        expect(phoneNumberInput.parse(text)).toBe(digits);
      }),
    );
  });

  it('never strips a prefix that leaves anything but 6 digits (SPEC §5)', () => {
    const rest = fc.stringMatching(/^\d{0,12}$/).filter((r) => r.length !== 6);
    fc.assert(
      fc.property(rest, fc.constantFrom('+298', '00298'), (digits, prefix) => {
        expect(normalizePhoneNumber(prefix + digits).startsWith(prefix)).toBe(true);
      }),
    );
  });

  it("prepends 298 when sending, e.g. toWireNumber('211234') → '298211234' (SPEC §5)", () => {
    expect(toWireNumber('211234')).toBe('298211234');
    expect(toWireNumber('+298 21 12 34')).toBe('298211234');
    expect(() => toWireNumber('12345')).toThrow(RangeError);
    fc.assert(
      fc.property(sixDigits, (digits) => {
        expect(toWireNumber(digits)).toBe(`298${digits}`);
        expect(fromWireNumber(toWireNumber(digits))).toBe(digits);
      }),
    );
  });

  it('reads wire numbers back to 6 digits (SPEC §5)', () => {
    expect(fromWireNumber('298211234')).toBe('211234');
    expect(fromWireNumber('+298211234')).toBe('211234');
    expect(fromWireNumber('298123')).toBe('298123');
    expect(fromWireNumber('4512345678')).toBeNull();
  });

  it('gives REQUIRED and INVALID_PHONE, and parses its own output again (SPEC §5)', () => {
    expect(phoneNumberInput.safeParse('').error?.issues[0]?.message).toBe('REQUIRED');
    expect(phoneNumberInput.safeParse('12 34').error?.issues[0]?.message).toBe('INVALID_PHONE');
    expect(phoneNumberInput.parse(phoneNumberInput.parse('+298 21 12 34'))).toBe('211234');
    expect(phoneNumber.safeParse('+298211234').success).toBe(false);
  });
});
