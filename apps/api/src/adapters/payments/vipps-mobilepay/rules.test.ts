import { describe, expect, it } from 'vitest';
import {
  chargeDueDate,
  clip,
  epaymentAmount,
  epaymentKey,
  paymentReference,
  recurringAmount,
  recurringKey,
  VippsRuleError,
} from './rules';

// The rules of Vipps MobilePay's published ePayment v1 and Recurring v3 documents (issue 42 §1, §6).
describe('Vipps MobilePay request rules', () => {
  it('sends amounts as whole øre in DKK, within the ePayment bounds', () => {
    expect(epaymentAmount(4_900)).toEqual({ currency: 'DKK', value: 4_900 });
    expect(epaymentAmount(0)).toEqual({ currency: 'DKK', value: 0 });
    expect(epaymentAmount(65_000_000).value).toBe(65_000_000);
    for (const bad of [-1, 12.5, 65_000_001, Number.NaN]) {
      expect(() => epaymentAmount(bad)).toThrow(VippsRuleError);
    }
  });

  it('refuses Recurring amounts under 1 kr.', () => {
    expect(recurringAmount(100)).toBe(100);
    expect(() => recurringAmount(99)).toThrow(VippsRuleError);
    expect(() => recurringAmount(150.5)).toThrow(VippsRuleError);
  });

  it('uses our payment id as the reference: 8–50 letters, digits or hyphens', () => {
    const id = '0b5e6c1e-6f0a-4a3c-9d7e-2f1b8c9a0d11';
    expect(paymentReference(id)).toBe(id);
    expect(() => paymentReference('short')).toThrow(VippsRuleError);
    expect(() => paymentReference('has space in it')).toThrow(VippsRuleError);
    expect(() => paymentReference('a'.repeat(51))).toThrow(VippsRuleError);
    expect(() => paymentReference('order_123_underscore')).toThrow(VippsRuleError);
  });

  it('keeps idempotency keys within each API’s limits', () => {
    expect(epaymentKey(`capture-${'0'.repeat(36)}`)).toHaveLength(44);
    expect(() => epaymentKey('x'.repeat(51))).toThrow(VippsRuleError);
    expect(recurringKey('stop-agr_5kSeqz')).toBe('stop-agr_5kSeqz');
    expect(() => recurringKey('x'.repeat(41))).toThrow(VippsRuleError);
    for (const bad of ['a#b', 'a?b', 'a/b', 'a\\b', '']) {
      expect(() => recurringKey(bad)).toThrow(VippsRuleError);
    }
  });

  it('makes a Recurring charge due two Faroese days ahead, across month and year ends and 29 February', () => {
    expect(chargeDueDate(new Date('2026-11-25T10:00:00Z'))).toBe('2026-11-27');
    expect(chargeDueDate(new Date('2026-12-30T12:00:00Z'))).toBe('2027-01-01');
    expect(chargeDueDate(new Date('2028-02-28T12:00:00Z'))).toBe('2028-03-01');
    expect(chargeDueDate(new Date('2028-02-27T12:00:00Z'))).toBe('2028-02-29');
    // 23:30 UTC on 31 May is already 1 June in the Faroes (UTC+1 in summer).
    expect(chargeDueDate(new Date('2027-05-31T23:30:00Z'))).toBe('2027-06-03');
  });

  it('clips texts to the documented lengths without breaking a character', () => {
    expect(clip('Alda: 5 GB eykapakki', 45)).toBe('Alda: 5 GB eykapakki');
    const long = clip('ð'.repeat(60), 45);
    expect(Array.from(long)).toHaveLength(45);
    expect(long.endsWith('…')).toBe(true);
    expect(() => clip('ab', 100, 3)).toThrow(VippsRuleError);
  });
});
