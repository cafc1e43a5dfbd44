import { createHmac, timingSafeEqual } from 'node:crypto';
import { isLocale, type Locale } from '@alda/contract/locale';

/** How long a receipt's PDF link works (the in-app browser opens it at once). */
export const RECEIPT_LINK_TTL_S = 300;

export interface ReceiptLinkClaims {
  receiptId: string;
  /** The receipt's customer: a link is dead if the receipt were ever someone else's. */
  userId: string;
  locale: Locale;
  /** Expiry, ms since epoch. */
  expiresAt: number;
}

/** The query of a link: `?lang=fo&expires=<ms>&signature=<HMAC>`. */
export interface ReceiptLinkQuery {
  lang: string;
  expires: number;
  signature: string;
}

/**
 * Pre-signed, short-lived links to one receipt's PDF in one language (ADR 0054), in the manner of
 * object-store pre-signed URLs: the receipt id is the path, and `lang`, `expires` and an
 * HMAC-SHA256 over (receipt, its customer, lang, expires) are the query. The key is derived from
 * JWT_SECRET, so every instance accepts every other's links. Reusable while they live: a viewer
 * may fetch the file twice (preview, then save).
 */
export function createReceiptLinks(key: Uint8Array) {
  const sign = (c: Omit<ReceiptLinkClaims, 'locale'> & { locale: string }) =>
    createHmac('sha256', key)
      .update(JSON.stringify([c.receiptId, c.userId, c.locale, c.expiresAt]))
      .digest('base64url');
  return {
    issue(claims: ReceiptLinkClaims): ReceiptLinkQuery {
      return { lang: claims.locale, expires: claims.expiresAt, signature: sign(claims) };
    },
    /** The language of a genuine, unexpired link for this receipt; null for anything else. */
    verify(
      receipt: { receiptId: string; userId: string },
      query: ReceiptLinkQuery,
      now: Date,
    ): Locale | null {
      const expected = Buffer.from(
        sign({ ...receipt, locale: query.lang, expiresAt: query.expires }),
      );
      const given = Buffer.from(query.signature);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
      if (!isLocale(query.lang) || query.expires <= now.getTime()) return null;
      return query.lang;
    },
  };
}

export type ReceiptLinks = ReturnType<typeof createReceiptLinks>;
