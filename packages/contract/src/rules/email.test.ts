import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { emailSchema, isValidEmail, normalizeEmail } from './email';

describe('e-mail (SPEC §5 "Email must be well formed")', () => {
  it.each([
    'anna@example.fo',
    'jogvan.hansen@posta.fo',
    'a+b@sub.example.com',
    "o'neil@example.co.uk",
    'kunda@føroyar.fo',
    '  spaced@example.fo  ',
  ])('accepts %s (SPEC §5)', (email) => {
    expect(isValidEmail(email)).toBe(true);
  });

  it.each([
    '',
    'anna',
    'anna@',
    '@example.fo',
    'anna@example',
    'anna@@example.fo',
    'an na@example.fo',
    'anna..b@example.fo',
    '.anna@example.fo',
    'anna.@example.fo',
    'anna@-example.fo',
    'anna@example-.fo',
    'anna@example..fo',
    'anna@example.f',
    'anna@example.123',
    `${'a'.repeat(65)}@example.fo`,
    `a@${'b'.repeat(250)}.fo`,
  ])('rejects %j (SPEC §5)', (email) => {
    expect(isValidEmail(email)).toBe(false);
  });

  it('normalises to trimmed lower case, idempotently (SPEC §5)', () => {
    expect(normalizeEmail('  Anna@Example.FO ')).toBe('anna@example.fo');
    fc.assert(
      fc.property(fc.string(), (s) => normalizeEmail(normalizeEmail(s)) === normalizeEmail(s)),
    );
  });

  it('gives REQUIRED for blank and INVALID_EMAIL for malformed input (SPEC §5)', () => {
    expect(emailSchema.safeParse(' ').error?.issues[0]?.message).toBe('REQUIRED');
    expect(emailSchema.safeParse('anna@').error?.issues[0]?.message).toBe('INVALID_EMAIL');
    expect(emailSchema.parse(' Anna@Example.fo')).toBe('anna@example.fo');
  });

  it('accepts every address fast-check generates and its own output again (SPEC §5)', () => {
    const domainLabel = fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,10}[a-z0-9])?$/);
    const address = fc
      .tuple(
        fc.stringMatching(/^[a-z0-9_+-]{1,20}(\.[a-z0-9_+-]{1,10}){0,2}$/),
        fc.array(domainLabel, { minLength: 1, maxLength: 3 }),
        fc.stringMatching(/^[a-z]{2,6}$/),
      )
      .map(([local, labels, tld]) => `${local}@${labels.join('.')}.${tld}`);
    fc.assert(
      fc.property(address, (email) => {
        expect(isValidEmail(email)).toBe(true);
        const once = emailSchema.parse(email);
        expect(emailSchema.parse(once)).toBe(once);
      }),
    );
  });
});
