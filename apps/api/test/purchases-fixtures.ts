import { inflateSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { errorEnvelope } from '@alda/contract/envelope';
import { orders, type NewOrderRow, type OrderRow } from '../src/db/schema/orders';
import { payments, type PaymentRow } from '../src/db/schema/payments';
import { fulfilPaidOrder } from '../src/modules/payments/fulfilment';

/** The card a fixture payment was paid with. */
export interface FixtureCard {
  brand: string;
  last4: string;
  expiry: string;
  agreementRef?: string;
}

export const VISA: FixtureCard = {
  brand: 'Visa',
  last4: '4242',
  expiry: '12/30',
  agreementRef: 'agr_visa',
};

/**
 * An order paid by card and carried out, without the provider: the order and its payment are
 * written and, in one transaction, the payment is marked paid and `fulfilPaidOrder` runs — what
 * the payments core does when the provider reports the payment paid.
 */
export async function paidOrder(
  app: FastifyInstance,
  order: Omit<NewOrderRow, 'paymentStatus'> & { priceOere: number },
  at: Date,
  card: FixtureCard = VISA,
): Promise<{ order: OrderRow; payment: PaymentRow }> {
  const [placed] = await app.db
    .insert(orders)
    .values({ ...order, paymentStatus: 'pending', createdAt: at })
    .returning();
  if (!placed) throw new Error('order insert');
  const [payment] = await app.db
    .insert(payments)
    .values({
      orderId: placed.id,
      userId: placed.userId,
      amountOere: order.priceOere,
      method: 'card',
      state: 'pending',
      // The configured provider's (the built-in test provider in these apps): an agreement it
      // makes belongs to the provider that is used (ADR 0081, decision 11).
      provider: app.payments.providerName,
      providerPaymentId: `fx_${placed.id}`,
      createdAt: at,
      updatedAt: at,
    })
    .returning();
  if (!payment) throw new Error('payment insert');
  return app.db.transaction(async (tx) => {
    const [paid] = await tx
      .update(payments)
      .set({
        state: 'paid',
        cardBrand: card.brand,
        cardLast4: card.last4,
        cardExpiry: card.expiry,
        providerAgreementRef: card.agreementRef ?? null,
        fulfilledAt: at,
        updatedAt: at,
      })
      .where(eq(payments.id, payment.id))
      .returning();
    const [paidOrderRow] = await tx
      .update(orders)
      .set({ paymentStatus: 'paid' })
      .where(eq(orders.id, placed.id))
      .returning();
    if (!paid || !paidOrderRow) throw new Error('payment update');
    await fulfilPaidOrder({ tx, order: paidOrderRow, payment: paid, now: at });
    const [done] = await tx.select().from(orders).where(eq(orders.id, placed.id));
    if (!done) throw new Error('order vanished');
    return { order: done, payment: paid };
  });
}

/** Asserts an error answer: status, code and (when given) the message in the asked language. */
export function expectError(
  res: LightMyRequestResponse,
  status: number,
  code: string,
  message?: string,
) {
  expect(res.statusCode, res.body).toBe(status);
  const { error } = errorEnvelope.parse(res.json());
  expect(error.code).toBe(code);
  if (message !== undefined) expect(error.message).toBe(message);
}

/**
 * The text a PDF shows, as a reader would extract it: every content stream inflated (pdfkit
 * deflates them) and the strings of its text operators decoded (WinAnsi ≈ Latin-1 for the
 * letters a receipt uses; the bullet • is 0x95). Strings of one `TJ` array are joined, separate
 * text operators go on separate lines.
 */
export function pdfText(pdf: Buffer): string {
  const raw = pdf.toString('latin1');
  const lines: string[] = [];
  // Each stream is read by the byte count its dictionary declares (/Length), never by searching
  // for `endstream`: deflated bytes may end in \r or \n, and a pattern that trims them corrupts
  // the stream (about one PDF in 256: a CI run failed on it).
  for (const match of raw.matchAll(/\/Length (\d+)\b[^>]*>>\s*stream\r?\n/g)) {
    const start = (match.index ?? 0) + match[0].length;
    const bytes = Buffer.from(raw.slice(start, start + Number(match[1])), 'latin1');
    let content: string;
    try {
      content = inflateSync(bytes).toString('latin1');
    } catch {
      content = bytes.toString('latin1');
    }
    for (const op of content.matchAll(/\[([^\]]*)\]\s*TJ|<([0-9a-fA-F]*)>\s*Tj/g)) {
      const hexes =
        op[1] !== undefined
          ? [...op[1].matchAll(/<([0-9a-fA-F]*)>/g)].map((m) => m[1] ?? '')
          : [op[2] ?? ''];
      lines.push(
        hexes
          .map((hex) => Buffer.from(hex, 'hex').toString('latin1').replace(/\x95/g, '•'))
          .join(''),
      );
    }
  }
  return lines.join('\n');
}
