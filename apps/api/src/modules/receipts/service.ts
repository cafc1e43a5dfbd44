import type { Locale } from '@alda/contract/locale';
import type {
  EmailReceiptResponse,
  Receipt,
  ReceiptPdfLinkResponse,
  ReceiptsResponse,
} from '@alda/contract/schemas/receipts';
import type { EmailSender } from '../../adapters/email/email-sender';
import type { Db } from '../../db/client';
import { AppError } from '../../errors';
import { escapeHtml } from '../../html';
import { isUuid } from '../../uuid';
import { localizedLine, type StoredReceiptLine } from './issue';
import { receiptFilename, renderReceiptPdf, type ReceiptCustomer } from './pdf';
import { RECEIPT_LINK_TTL_S, type ReceiptLinkQuery, type ReceiptLinks } from './pdf-links';
import { findReceipt, findReceiptsOfUser, findUser, type ReceiptWithKind } from './repo';

export interface ReceiptServiceDeps {
  db: Db;
  email: EmailSender;
  now: () => Date;
  /** Signs the short-lived PDF links (ADR 0054). */
  links: ReceiptLinks;
}

export function toReceiptDto(row: ReceiptWithKind, locale: Locale): Receipt {
  return {
    id: row.id,
    number: row.number,
    // Null only once the customer's user is deleted (ADR 0056), and then nobody reads it here.
    orderId: row.orderId ?? row.id,
    orderKind: row.orderKind,
    issuedAt: row.issuedAt.toISOString(),
    lines: (row.lines as StoredReceiptLine[]).map((line) => localizedLine(line, locale)),
    vatRate: row.vatRate,
    total: { net: row.netOere, vat: row.vatOere, gross: row.grossOere },
    cardBrand: row.cardBrand,
    cardLast4: row.cardLast4,
  };
}

const MAIL = {
  fo: {
    subject: (n: string) => `Kvittan ${n} frá Alda`,
    body: (name: string, n: string) =>
      `Hey ${name}\n\nHjálagt er kvittanin ${n} sum PDF.\n\nVinarliga helsan\nAlda`,
  },
  en: {
    subject: (n: string) => `Receipt ${n} from Alda`,
    body: (name: string, n: string) =>
      `Hi ${name}\n\nAttached is receipt ${n} as a PDF.\n\nKind regards\nAlda`,
  },
} as const;

/**
 * Receipts (SPEC §1 "download or email receipts", §8 "receipt fetch, download and email"; ADR
 * 0052): a customer sees only their own; another customer's receipt is NOT_FOUND.
 */
export function createReceiptService(deps: ReceiptServiceDeps) {
  const { db, email, now, links } = deps;

  async function own(userId: string, id: string): Promise<ReceiptWithKind> {
    const notFound = () => new AppError('NOT_FOUND', { field: 'id', detail: `no receipt ${id}` });
    if (!isUuid(id)) throw notFound();
    const row = await findReceipt(db, id);
    if (!row || row.userId !== userId) throw notFound();
    return row;
  }

  async function pdfOf(row: ReceiptWithKind, locale: Locale) {
    const customer: ReceiptCustomer = {
      name: row.customerName,
      address: row.customerAddress,
      email: row.customerEmail,
    };
    const content = await renderReceiptPdf(toReceiptDto(row, locale), customer, locale);
    return { filename: receiptFilename(row.number), content };
  }

  return {
    async list(
      userId: string,
      page: number,
      perPage: number,
      locale: Locale,
    ): Promise<ReceiptsResponse> {
      const { items, total } = await findReceiptsOfUser(db, userId, page, perPage);
      return { items: items.map((r) => toReceiptDto(r, locale)), total, page, perPage };
    },

    async get(userId: string, id: string, locale: Locale): Promise<Receipt> {
      return toReceiptDto(await own(userId, id), locale);
    },

    async pdf(userId: string, id: string, locale: Locale) {
      return pdfOf(await own(userId, id), locale);
    },

    /** A link to the PDF that works without a token for RECEIPT_LINK_TTL_S (ADR 0054). */
    async pdfLink(userId: string, id: string, locale: Locale): Promise<ReceiptPdfLinkResponse> {
      const row = await own(userId, id);
      const expiresAt = now().getTime() + RECEIPT_LINK_TTL_S * 1000;
      const query = links.issue({ receiptId: row.id, userId, locale, expiresAt });
      const search = new URLSearchParams({
        lang: query.lang,
        expires: String(query.expires),
        signature: query.signature,
      });
      return {
        path: `/receipt-files/${row.id}?${search.toString()}`,
        expiresAt: new Date(expiresAt).toISOString(),
      };
    },

    /**
     * The PDF a link names. NOT_FOUND for a forged or expired link, or a receipt that is no
     * longer the customer's — the same answer, so a link reveals nothing once it is dead.
     */
    async pdfByLink(id: string, query: ReceiptLinkQuery) {
      const dead = () => new AppError('NOT_FOUND', { detail: 'receipt link invalid or expired' });
      if (!isUuid(id)) throw dead();
      const row = await findReceipt(db, id);
      if (!row?.userId) throw dead();
      const locale = links.verify({ receiptId: row.id, userId: row.userId }, query, now());
      if (!locale) throw dead();
      return pdfOf(row, locale);
    },

    /**
     * Sends the receipt as a PDF attachment to the customer's e-mail address (as it is now).
     * RECEIPT_EMAIL_FAILED (503) when the mail server or outbox refuses it.
     */
    async email(userId: string, id: string, locale: Locale): Promise<EmailReceiptResponse> {
      const row = await own(userId, id);
      const customer = await findUser(db, userId);
      if (!customer) throw new AppError('NOT_FOUND', { detail: 'customer vanished' });
      const attachment = await pdfOf(row, locale);
      const text = MAIL[locale].body(customer.firstname, row.number);
      try {
        await email.send({
          to: customer.email,
          subject: MAIL[locale].subject(row.number),
          text,
          html: text
            .split('\n\n')
            .map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`)
            .join(''),
          attachments: [{ ...attachment, contentType: 'application/pdf' }],
        });
      } catch (error) {
        throw new AppError('RECEIPT_EMAIL_FAILED', {
          cause: error,
          detail: 'e-mail adapter failed',
        });
      }
      return { ok: true, sentTo: customer.email };
    },
  };
}

export type ReceiptService = ReturnType<typeof createReceiptService>;
