import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataEnvelope } from '@alda/contract/envelope';
import {
  emailReceiptResponse,
  receiptPdfLinkResponse,
  receiptResponse,
  receiptsResponse,
} from '@alda/contract/schemas/receipts';
import { seedDemoData } from '../src/seed/seed';
import { createDemoApp, LINES, NOW, signIn } from './demo-accounts';
import { createTestApp, demoUser, parse, type TestApp, waitFor } from './helper';
import { expectError, paidOrder, pdfText } from './purchases-fixtures';

const receiptList = dataEnvelope(receiptsResponse);
const oneReceipt = dataEnvelope(receiptResponse);

describe('receipts (SPEC §1 download or email receipts, §8 receipt fetch, download and email)', () => {
  let t: Awaited<ReturnType<typeof createDemoApp>>;
  const guðrun = demoUser('Guðrun');
  beforeAll(async () => {
    t = await createDemoApp();
  });
  afterAll(() => t.close());

  const get = (who: 'Guðrun' | 'Jóannes', url: string, lang = 'fo') =>
    t.app.inject({ method: 'GET', url, headers: { ...t.as[who], 'accept-language': lang } });

  const buyFor = (priceOere: number, packageId = 'data-5') =>
    paidOrder(
      t.app,
      {
        userId: guðrun.id,
        kind: 'extra_package',
        lineId: LINES.gudrun,
        msisdn: '557812',
        packageId,
        priceOere,
      },
      NOW,
    );

  it('SPEC §9 VAT: every paid payment gets a numbered receipt whose net + VAT = gross at 25 %', async () => {
    const paid = [9_900, 3_900, 12_345];
    for (const price of paid) await buyFor(price);
    const { data } = parse(receiptList, await get('Guðrun', '/api/receipts'));
    expect(data.total).toBe(3);
    // Newest first; numbers from one sequence, K-<Faroese year>-<6 digits>.
    expect(data.items.map((r) => r.number)).toEqual([
      'K-2026-000003',
      'K-2026-000002',
      'K-2026-000001',
    ]);
    for (const receipt of data.items) {
      expect(receipt.vatRate).toBe(25);
      expect(receipt.total.net + receipt.total.vat).toBe(receipt.total.gross);
      // VAT is a fifth of the net (25 %), to the øre.
      expect(Math.abs(receipt.total.vat * 4 - receipt.total.net)).toBeLessThanOrEqual(4);
      expect(receipt.lines).toHaveLength(1);
      expect(receipt.lines[0]?.total).toEqual(receipt.total);
      expect(receipt.cardBrand).toBe('Visa');
      expect(receipt.cardLast4).toBe('4242');
      expect(receipt.orderKind).toBe('extra_package');
    }
    expect(data.items.map((r) => r.total.gross)).toEqual([12_345, 3_900, 9_900]);
    expect(data.items.find((r) => r.total.gross === 9_900)?.total).toEqual({
      net: 7_920,
      vat: 1_980,
      gross: 9_900,
    });
    expect(data.items.find((r) => r.total.gross === 12_345)?.total).toEqual({
      net: 9_876,
      vat: 2_469,
      gross: 12_345,
    });
  });

  it("pages the list and speaks the reader's language", async () => {
    const page = parse(receiptList, await get('Guðrun', '/api/receipts?page=1&perPage=2', 'en'));
    expect(page.data).toMatchObject({ total: 3, page: 1, perPage: 2 });
    expect(page.data.items.map((r) => r.number)).toEqual(['K-2026-000001']);
    expect(page.data.items[0]?.lines[0]?.description).toBe(
      'Extra package 5 GB for 55 78 12, valid until 30.06.2026',
    );
    const fo = parse(receiptList, await get('Guðrun', '/api/receipts?page=1&perPage=2', 'fo'));
    expect(fo.data.items[0]?.lines[0]?.description).toBe(
      'Eykapakki 5 GB til 55 78 12, galdandi til 30.06.2026',
    );
  });

  it("GET /api/receipts/:id answers the caller's receipt; another customer's or an unknown id is 404 NOT_FOUND", async () => {
    const { data } = parse(receiptList, await get('Guðrun', '/api/receipts'));
    const id = data.items[0]?.id ?? '';
    const one = parse(oneReceipt, await get('Guðrun', `/api/receipts/${id}`));
    expect(one.data).toEqual(data.items[0]);
    expectError(
      await get('Jóannes', `/api/receipts/${id}`),
      404,
      'NOT_FOUND',
      'Vit funnu ikki tað, tú leitaði eftir.',
    );
    expectError(await get('Jóannes', `/api/receipts/${id}/pdf`, 'en'), 404, 'NOT_FOUND');
    expectError(await get('Guðrun', '/api/receipts/not-a-uuid'), 404, 'NOT_FOUND');
    expect(parse(receiptList, await get('Jóannes', '/api/receipts')).data.total).toBe(0);
    const anonymous = await t.app.inject({ method: 'GET', url: `/api/receipts/${id}` });
    expect(anonymous.statusCode).toBe(401);
  });

  it('GET /api/receipts/:id/pdf is an A4 PDF attachment with the number, lines, VAT and card, in fo or en', async () => {
    const { order } = await buyFor(9_900);
    const { data } = parse(receiptList, await get('Guðrun', '/api/receipts'));
    const receipt = data.items.find((r) => r.orderId === order.id);
    if (!receipt) throw new Error('no receipt for the order');
    const fo = await get('Guðrun', `/api/receipts/${receipt.id}/pdf`, 'fo');
    expect(fo.statusCode).toBe(200);
    expect(fo.headers['content-type']).toBe('application/pdf');
    expect(fo.headers['content-disposition']).toBe(
      `attachment; filename="kvittan-${receipt.number}.pdf"`,
    );
    expect(fo.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(fo.rawPayload.toString('latin1')).toContain('/MediaBox [0 0 595.28 841.89]');
    const text = pdfText(fo.rawPayload);
    expect(text).toContain(`Kvittanarnummar: ${receipt.number}`);
    expect(text).toContain('Alda P/F');
    expect(text).toContain('Smiðjugøta 12, FO-100 Tórshavn');
    expect(text).toContain('Guðrun');
    expect(text).toContain('Eykapakki 5 GB til 55 78 12, galdandi til 30.06.2026');
    expect(text).toContain('Íalt uttan MVG');
    expect(text).toContain('79,20 kr.');
    expect(text).toContain('MVG 25 %');
    expect(text).toContain('19,80 kr.');
    expect(text).toContain('Íalt við MVG');
    expect(text).toContain('99,00 kr.');
    expect(text).toContain('Goldið við kort: Visa •••• 4242');

    const en = await get('Guðrun', `/api/receipts/${receipt.id}/pdf`, 'en');
    const english = pdfText(en.rawPayload);
    expect(english).toContain(`Receipt number: ${receipt.number}`);
    expect(english).toContain('Total excl. VAT');
    expect(english).toContain('79.20 kr.');
    expect(english).toContain('Paid by card: Visa •••• 4242');
  });

  it("ADR 0054: POST /api/receipts/:id/pdf-link gives a 5-minute link that serves the PDF without a token, in the language asked for; a forged link or another customer's receipt is 404", async () => {
    const { order } = await buyFor(3_900, 'data-1');
    const { data } = parse(receiptList, await get('Guðrun', '/api/receipts'));
    const receipt = data.items.find((r) => r.orderId === order.id);
    if (!receipt) throw new Error('no receipt for the order');
    const asked = await t.app.inject({
      method: 'POST',
      url: `/api/receipts/${receipt.id}/pdf-link`,
      headers: { ...t.as.Guðrun, 'accept-language': 'en' },
    });
    const link = parse(dataEnvelope(receiptPdfLinkResponse), asked).data;
    expect(link.path).toMatch(
      new RegExp(`^/receipt-files/${receipt.id}\\?lang=en&expires=\\d+&signature=[\\w-]+$`),
    );
    expect(link.expiresAt).toBe(new Date(NOW.getTime() + 300_000).toISOString());

    // No Authorization header: the in-app browser has none.
    const file = await t.app.inject({ method: 'GET', url: `/api${link.path}` });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.headers['content-disposition']).toBe(
      `inline; filename="kvittan-${receipt.number}.pdf"`,
    );
    expect(pdfText(file.rawPayload)).toContain(`Receipt number: ${receipt.number}`);
    // It may be fetched again while it lives (preview, then save).
    expect((await t.app.inject({ method: 'GET', url: `/api${link.path}` })).statusCode).toBe(200);

    // Altered (another language, a longer life, no signature) or for another receipt: dead.
    const url = new URL(link.path, 'http://x');
    const altered = (name: string, value: string | null) => {
      const query = new URLSearchParams(url.search);
      if (value === null) query.delete(name);
      else query.set(name, value);
      return `/api${url.pathname}?${query.toString()}`;
    };
    for (const dead of [
      altered('lang', 'fo'),
      altered('expires', String(Number(url.searchParams.get('expires')) + 3_600_000)),
      altered('signature', null),
      `/api/receipt-files/${data.items.find((r) => r.id !== receipt.id)?.id}${url.search}`,
      `/api/receipt-files/not-an-id${url.search}`,
    ])
      expectError(await t.app.inject({ method: 'GET', url: dead }), 404, 'NOT_FOUND');
    expectError(
      await t.app.inject({
        method: 'POST',
        url: `/api/receipts/${receipt.id}/pdf-link`,
        headers: t.as.Jóannes,
      }),
      404,
      'NOT_FOUND',
    );
    expect(
      (await t.app.inject({ method: 'POST', url: `/api/receipts/${receipt.id}/pdf-link` }))
        .statusCode,
    ).toBe(401);
  });

  it('POST /api/receipts/:id/email sends it to the outbox by default and answers the address', async () => {
    const { data } = parse(receiptList, await get('Guðrun', '/api/receipts'));
    const id = data.items[0]?.id ?? '';
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/receipts/${id}/email`,
      headers: t.as.Guðrun,
    });
    expect(parse(dataEnvelope(emailReceiptResponse), res).data).toEqual({
      ok: true,
      sentTo: guðrun.email,
    });
    const other = await t.app.inject({
      method: 'POST',
      url: `/api/receipts/${id}/email`,
      headers: t.as.Jóannes,
    });
    expectError(other, 404, 'NOT_FOUND');
  });
});

describe('receipt e-mail: RECEIPT_EMAIL_FAILED when the e-mail adapter fails (SPEC §8 receipt email)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(
      {},
      {
        now: () => NOW,
        messaging: {
          email: {
            kind: 'smtp',
            send: () => Promise.reject(new Error('421 mail server busy')),
            close: async () => {},
          },
        },
      },
    );
    await seedDemoData(t.app.db, NOW);
  });
  afterAll(() => t.close());

  it('answers 503 RECEIPT_EMAIL_FAILED in fo and en', async () => {
    const { order } = await paidOrder(
      t.app,
      {
        userId: demoUser('Rói').id,
        kind: 'top_up',
        lineId: LINES.roi,
        msisdn: '779031',
        priceOere: 10_000,
      },
      NOW,
    );
    const auth = await signIn(t.app, 'Rói');
    const list = parse(
      receiptList,
      await t.app.inject({ method: 'GET', url: '/api/receipts', headers: auth }),
    );
    const receipt = list.data.items.find((r) => r.orderId === order.id);
    expect(receipt?.lines[0]?.description).toBe('Áfylling av talutíð til 77 90 31');
    for (const [lang, message] of [
      ['fo', 'Vit fingu ikki sent kvittanina. Royn aftur seinni.'],
      ['en', 'We could not send the receipt. Try again later.'],
    ] as const) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/receipts/${receipt?.id ?? ''}/email`,
        headers: { ...auth, 'accept-language': lang },
      });
      expectError(res, 503, 'RECEIPT_EMAIL_FAILED', message);
    }
  });
});

describe('receipt e-mail over SMTP: a real listener receives the PDF attached', () => {
  const inbox: { to: string[]; raw: string }[] = [];
  let server: SMTPServer;
  let t: TestApp;
  beforeAll(async () => {
    server = new SMTPServer({
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          inbox.push({
            to: session.envelope.rcptTo.map((r) => r.address),
            raw: Buffer.concat(chunks).toString('latin1'),
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.server.address() as AddressInfo;
    t = await createTestApp(
      { SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_FROM: 'Alda <no-reply@alda.fo>' },
      { now: () => NOW },
    );
    await seedDemoData(t.app.db, NOW);
  });
  afterAll(async () => {
    await t.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('delivers a multipart/mixed message to the customer with kvittan-K-….pdf, whose bytes are the receipt PDF', async () => {
    const guðrun = demoUser('Guðrun');
    await paidOrder(
      t.app,
      {
        userId: guðrun.id,
        kind: 'extra_package',
        lineId: LINES.gudrun,
        msisdn: '557812',
        packageId: 'data-20',
        priceOere: 19_900,
      },
      NOW,
    );
    const auth = await signIn(t.app, 'Guðrun');
    const list = parse(
      receiptList,
      await t.app.inject({ method: 'GET', url: '/api/receipts', headers: auth }),
    );
    const receipt = list.data.items[0];
    if (!receipt) throw new Error('no receipt');
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/receipts/${receipt.id}/email`,
      headers: { ...auth, 'accept-language': 'en' },
    });
    expect(parse(dataEnvelope(emailReceiptResponse), res).data.sentTo).toBe(guðrun.email);
    const mail = await waitFor(async () => inbox[0]);
    expect(mail.to).toEqual([guðrun.email]);
    expect(mail.raw).toMatch(/Content-Type: multipart\/mixed/i);
    expect(mail.raw).toContain(`Receipt ${receipt.number} from Alda`);
    const attachment = new RegExp(
      `Content-Type: application/pdf; name="?kvittan-${receipt.number}\\.pdf"?\\r?\\n` +
        `(?:[^\\r\\n]+\\r?\\n)*\\r?\\n([A-Za-z0-9+/=\\r\\n]+)`,
      'i',
    ).exec(mail.raw);
    expect(attachment, 'PDF part').not.toBeNull();
    expect(mail.raw).toMatch(
      new RegExp(
        `Content-Disposition: attachment; filename="?kvittan-${receipt.number}\\.pdf`,
        'i',
      ),
    );
    const pdf = Buffer.from((attachment?.[1] ?? '').replace(/\s+/g, ''), 'base64');
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = pdfText(pdf);
    expect(text).toContain(`Receipt number: ${receipt.number}`);
    expect(text).toContain('199.00 kr.');
  });
});
