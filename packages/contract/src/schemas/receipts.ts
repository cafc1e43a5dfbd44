import { z } from 'zod/mini';
import { id, isoDateTime, okResponse, priceBreakdown } from './common';
import { orderKind } from './orders';

/** A line of a receipt: what was bought, with and without VAT. */
export const receiptLine = z.object({
  description: z.string(),
  quantity: z.int().check(z.positive()),
  /** Price of one, split into net and VAT. */
  unitPrice: priceBreakdown,
  total: priceBreakdown,
});
export type ReceiptLine = z.infer<typeof receiptLine>;

/**
 * A receipt (SPEC §1 "download or email receipts"): issued for every paid payment, numbered in
 * one sequence, VAT 25 % (SPEC §9 totals with and without VAT).
 */
export const receipt = z.object({
  id,
  /** Human receipt number, e.g. 'K-2026-000042'. */
  number: z.string(),
  orderId: id,
  orderKind,
  issuedAt: isoDateTime,
  lines: z.array(receiptLine),
  /** VAT rate in percent (25). */
  vatRate: z.number(),
  total: priceBreakdown,
  /** The card that paid, as the customer knows it. */
  cardBrand: z.nullable(z.string()),
  cardLast4: z.nullable(z.string()),
});
export type Receipt = z.infer<typeof receipt>;

/** GET /api/receipts?page&perPage: newest first. */
export const receiptsResponse = z.object({
  items: z.array(receipt),
  total: z.int().check(z.nonnegative()),
  page: z.int().check(z.nonnegative()),
  perPage: z.int().check(z.positive()),
});
export type ReceiptsResponse = z.infer<typeof receiptsResponse>;

/** GET /api/receipts/{id}. */
export const receiptResponse = receipt;

/**
 * GET /api/receipts/{id}/pdf answers `application/pdf` (attachment). POST /api/receipts/{id}/email
 * sends it to the customer's e-mail address as an attachment.
 */
export const emailReceiptResponse = z.extend(okResponse, { sentTo: z.email() });
export type EmailReceiptResponse = z.infer<typeof emailReceiptResponse>;

/**
 * POST /api/receipts/{id}/pdf-link: a short-lived address of the receipt's PDF that needs no
 * access token, for a viewer that has none (the native shell's in-app browser; ADR 0054).
 * `path` is relative to the API base (`/api`), e.g. `/receipt-files/<signed token>`.
 */
export const receiptPdfLinkResponse = z.object({
  path: z.string().check(z.startsWith('/receipt-files/')),
  expiresAt: isoDateTime,
});
export type ReceiptPdfLinkResponse = z.infer<typeof receiptPdfLinkResponse>;
