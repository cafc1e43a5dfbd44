import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { LINK_PURPOSES, linkKey, linkSigner } from '../src/link-signing';
import { createExportLinks } from '../src/modules/data-export/links';

const SECRET = 'a-link-secret-for-tests-0123456789abcdef';

describe('signed links: a key per purpose from LINK_SECRET (issue 32, ADR 0076)', () => {
  it('derives each purpose key as HMAC-SHA256(LINK_SECRET, purpose), never the secret itself', () => {
    expect(linkKey(SECRET, 'alda/unlock-cancel')).toEqual(
      createHmac('sha256', SECRET).update('alda/unlock-cancel').digest(),
    );
    expect(linkKey(SECRET, 'alda/data-export')).not.toEqual(linkKey(SECRET, 'alda/unlock-cancel'));
    const message = 'x.1767225600';
    const signed = linkSigner(SECRET, LINK_PURPOSES.dataExport).sign(message);
    expect(signed).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Not a signature with the raw secret (as before the keys were separated).
    expect(signed).not.toBe(createHmac('sha256', SECRET).update(message).digest('base64url'));
  });

  it('verifies its own signatures only: not another purpose, message, secret or spelling', () => {
    const cancel = linkSigner(SECRET, LINK_PURPOSES.unlockCancel);
    const exports = linkSigner(SECRET, LINK_PURPOSES.dataExport);
    const message = 'line\u00002026-06-15T12:00:00.000Z';
    const sig = cancel.sign(message);
    expect(cancel.verify(message, sig)).toBe(true);
    expect(exports.verify(message, sig)).toBe(false);
    expect(cancel.verify(`${message}x`, sig)).toBe(false);
    expect(linkSigner(`${SECRET}!`, LINK_PURPOSES.unlockCancel).verify(message, sig)).toBe(false);
    expect(cancel.verify(message, sig.slice(0, -1))).toBe(false);
    expect(cancel.verify(message, `${sig}A`)).toBe(false);
    expect(cancel.verify(message, `${sig}=`)).toBe(false);
    expect(cancel.verify(message, '')).toBe(false);
  });

  it("a data-export link's signature is the data-export key's, and verifies only for its id and expiry", () => {
    const links = createExportLinks(SECRET, 'https://app.alda.test');
    const expiresAt = new Date('2026-06-22T12:00:00.000Z');
    const url = new URL(links.url('e1', expiresAt));
    const expires = Number(url.searchParams.get('expires'));
    const sig = url.searchParams.get('sig') ?? '';
    expect(sig).toBe(linkSigner(SECRET, LINK_PURPOSES.dataExport).sign(`e1.${expires}`));
    expect(links.verify('e1', expires, sig)).toBe(true);
    expect(links.verify('e2', expires, sig)).toBe(false);
    expect(links.verify('e1', expires + 1, sig)).toBe(false);
  });
});
