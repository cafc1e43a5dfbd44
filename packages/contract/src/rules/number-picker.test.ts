import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  NUMBER_CLASSES,
  loosenMatch,
  matchesNumber,
  numberClassOf,
  numberMatch,
  type NumberMatch,
} from './number-picker';

const sixDigits = fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 6, maxLength: 6 });

describe('golden numbers: the classes of easy numbers (issue 33 §1, ADR 0077)', () => {
  it.each([
    ['222222', 'solid'],
    ['999999', 'solid'],
    ['234567', 'ladder'],
    ['987654', 'ladder'],
    ['543210', 'ladder'],
    ['575757', 'repeat'],
    ['291291', 'repeat'],
    ['210000', 'tail'],
    ['558888', 'tail'],
    ['225588', 'pairs'],
    ['557799', 'pairs'],
  ] as const)('%s is %s', (msisdn, expected) => {
    expect(numberClassOf(msisdn)).toBe(expected);
  });

  it.each([
    '211234',
    '557813',
    '212345',
    '210987',
    '575775',
    '221000',
    '225589',
    '12345',
    'abcdef',
  ])('%s is an ordinary number', (msisdn) => {
    expect(numberClassOf(msisdn)).toBeNull();
  });

  it('takes the first class that fits: 555555 is solid, not repeat, tail or pairs', () => {
    expect(numberClassOf('555555')).toBe('solid');
    // Three pairs that end in four equal digits: tail comes before pairs.
    expect(numberClassOf('227777')).toBe('tail');
  });

  it('is a rare thing: fewer than 1 % of all six-digit numbers has a class', () => {
    let classed = 0;
    for (let i = 0; i < 1_000_000; i += 1) {
      if (numberClassOf(String(i).padStart(6, '0')) !== null) classed += 1;
    }
    expect(classed).toBeLessThan(10_000);
    expect(classed).toBeGreaterThan(0);
  });

  it('is a class of the list or null for any six digits (property)', () => {
    fc.assert(
      fc.property(sixDigits, (msisdn) => {
        const c = numberClassOf(msisdn);
        expect(c === null || NUMBER_CLASSES.includes(c)).toBe(true);
      }),
    );
  });
});

describe('pattern search: contains, ends with, starts with (issue 33 §1)', () => {
  const p = (match: NumberMatch['match'], digits: string): NumberMatch => ({ match, digits });

  it('matches by where the digits are', () => {
    expect(matchesNumber('215655', p('endsWith', '55'))).toBe(true);
    expect(matchesNumber('215565', p('endsWith', '55'))).toBe(false);
    expect(matchesNumber('215565', p('contains', '55'))).toBe(true);
    expect(matchesNumber('552156', p('startsWith', '55'))).toBe(true);
    expect(matchesNumber('215655', p('startsWith', '55'))).toBe(false);
    expect(matchesNumber('215655', null)).toBe(true);
  });

  it('takes 1–6 digits, spaces ignored, "contains" by default; anything else is INVALID', () => {
    expect(numberMatch.parse({ digits: ' 5 5' })).toEqual({ match: 'contains', digits: '55' });
    expect(numberMatch.parse({ match: 'endsWith', digits: '21 12 34' }).digits).toBe('211234');
    for (const digits of ['', '1234567', '5a', '-5']) {
      const parsed = numberMatch.safeParse({ digits });
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues[0]?.message).toBe('INVALID');
    }
    expect(numberMatch.safeParse({ match: 'around', digits: '5' }).success).toBe(false);
  });

  it('loosens towards its anchor, one digit at a time, down to any number', () => {
    expect(loosenMatch(p('endsWith', '5555'))).toEqual(p('endsWith', '555'));
    expect(loosenMatch(p('endsWith', '1255'))).toEqual(p('endsWith', '255'));
    expect(loosenMatch(p('startsWith', '2155'))).toEqual(p('startsWith', '215'));
    expect(loosenMatch(p('contains', '575'))).toEqual(p('contains', '57'));
    expect(loosenMatch(p('contains', '5'))).toBeNull();
  });

  it('a looser pattern matches every number the tighter one matched (property)', () => {
    fc.assert(
      fc.property(
        sixDigits,
        fc.constantFrom('contains', 'endsWith', 'startsWith'),
        fc.integer({ min: 0, max: 5 }),
        fc.integer({ min: 1, max: 6 }),
        (msisdn, match, from, length) => {
          const digits = msisdn.slice(from, from + length) || msisdn.slice(0, 1);
          const pattern = p(match, digits);
          const looser = loosenMatch(pattern);
          if (matchesNumber(msisdn, pattern)) expect(matchesNumber(msisdn, looser)).toBe(true);
        },
      ),
    );
  });
});
