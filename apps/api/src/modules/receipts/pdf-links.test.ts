import { describe, expect, it } from 'vitest';
import { createReceiptLinks } from './pdf-links';

const key = new TextEncoder().encode('receipt-links-test-key-0123456789');
const receipt = {
  receiptId: '0d4f5a3e-1111-4c2b-9a00-000000000001',
  userId: '0d4f5a3e-2222-4c2b-9a00-000000000002',
};
const expiresAt = Date.parse('2026-11-22T10:05:00Z');
const before = new Date('2026-11-22T10:00:00Z');

describe('receipt PDF links (ADR 0054)', () => {
  it('a link is good, in its language, until it expires; then dead', () => {
    const links = createReceiptLinks(key);
    const query = links.issue({ ...receipt, locale: 'en', expiresAt });
    expect(links.verify(receipt, query, new Date('2026-11-22T10:04:59Z'))).toBe('en');
    expect(links.verify(receipt, query, new Date('2026-11-22T10:05:00Z'))).toBeNull();
  });

  it('refuses another key, another receipt or customer, a longer life, another language, a missing signature', () => {
    const links = createReceiptLinks(key);
    const query = links.issue({ ...receipt, locale: 'fo', expiresAt });
    const other = createReceiptLinks(new TextEncoder().encode('another-key-0123456789abcdefghij'));
    expect(other.verify(receipt, query, before)).toBeNull();
    expect(links.verify({ ...receipt, receiptId: receipt.userId }, query, before)).toBeNull();
    expect(links.verify({ ...receipt, userId: receipt.receiptId }, query, before)).toBeNull();
    expect(links.verify(receipt, { ...query, expires: expiresAt + 3_600_000 }, before)).toBeNull();
    expect(links.verify(receipt, { ...query, lang: 'en' }, before)).toBeNull();
    expect(links.verify(receipt, { ...query, signature: '' }, before)).toBeNull();
  });
});
