import { createHmac, timingSafeEqual } from 'node:crypto';

/*
 * Signed links that work without signing in (issue 32, ADR 0076): the one-tap cancel of a number
 * unlock and the data-export download. Each purpose signs with a key of its own, derived from
 * LINK_SECRET as HMAC-SHA256(LINK_SECRET, purpose), so a signature made for one purpose is never
 * accepted for another, whatever its message looks like. Signatures are base64url and compared
 * in constant time. Every instance shares LINK_SECRET, so each accepts the others' links.
 */

/** What a link is for; each names its key. */
export const LINK_PURPOSES = {
  unlockCancel: 'alda/unlock-cancel',
  dataExport: 'alda/data-export',
} as const;
export type LinkPurpose = (typeof LINK_PURPOSES)[keyof typeof LINK_PURPOSES];

export interface LinkSigner {
  /** The signature of `message`, base64url (43 characters). */
  sign(message: string): string;
  /** True when `signature` is this purpose's signature of `message` (constant time). */
  verify(message: string, signature: string): boolean;
}

/** The key of one purpose: HMAC-SHA256(linkSecret, purpose). */
export function linkKey(linkSecret: string, purpose: LinkPurpose): Buffer {
  return createHmac('sha256', linkSecret).update(purpose).digest();
}

export function linkSigner(linkSecret: string, purpose: LinkPurpose): LinkSigner {
  const key = linkKey(linkSecret, purpose);
  const mac = (message: string) => createHmac('sha256', key).update(message).digest();
  return {
    sign: (message) => mac(message).toString('base64url'),
    verify(message, signature) {
      const given = Buffer.from(signature, 'base64url');
      // Node decodes base64url leniently; only the one spelling of the signature counts.
      if (given.toString('base64url') !== signature) return false;
      const expected = mac(message);
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
  };
}
