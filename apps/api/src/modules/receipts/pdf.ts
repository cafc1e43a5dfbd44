import PDFDocument from 'pdfkit';
import { formatDate, formatDateTime } from '@alda/contract/format/date';
import { formatKr } from '@alda/contract/format/money';
import type { Locale } from '@alda/contract/locale';
import type { Receipt } from '@alda/contract/schemas/receipts';

/** Who the receipt is made out to, as copied when it was issued. */
export interface ReceiptCustomer {
  name: string;
  address: string | null;
  email: string | null;
}

export interface ReceiptPdfOptions {
  /**
   * Deflate the page content (pdfkit's default, smaller files). Tests turn it off to read the
   * text straight out of the bytes.
   */
  compress?: boolean;
}

/** The seller as printed on every receipt. */
export const SELLER = {
  name: 'Alda P/F',
  street: 'Smiðjugøta 12',
  city: 'FO-100 Tórshavn',
  vatNumber: '612 345',
  phone: '+298 30 30 30',
  web: 'www.alda.fo',
} as const;

const TEXT = {
  fo: {
    title: 'Kvittan',
    number: 'Kvittanarnummar',
    date: 'Dagfesting',
    order: 'Bílegging',
    customer: 'Kundi',
    vatNo: 'V-tal',
    description: 'Lýsing',
    quantity: 'Tal',
    unit: 'Stykkprísur',
    total: 'Íalt',
    net: 'Íalt uttan MVG',
    vat: (rate: number) => `MVG ${rate} %`,
    gross: 'Íalt við MVG',
    paidBy: 'Goldið við kort',
    card: 'kort',
    thanks: 'Takk fyri keypið. Hendan kvittanin er gjørd talgilt og er galdandi uttan undirskrift.',
    pricesIncl: 'Allir prísir eru í krónum við MVG.',
  },
  en: {
    title: 'Receipt',
    number: 'Receipt number',
    date: 'Date',
    order: 'Order',
    customer: 'Customer',
    vatNo: 'VAT no.',
    description: 'Description',
    quantity: 'Qty',
    unit: 'Unit price',
    total: 'Total',
    net: 'Total excl. VAT',
    vat: (rate: number) => `VAT ${rate} %`,
    gross: 'Total incl. VAT',
    paidBy: 'Paid by card',
    card: 'card',
    thanks:
      'Thank you for your purchase. This receipt was issued electronically and is valid without signature.',
    pricesIncl: 'All prices are in kroner including VAT.',
  },
} as const;

/** `kvittan-K-2026-000042.pdf`. */
export function receiptFilename(number: string): string {
  return `kvittan-${number}.pdf`;
}

/**
 * The receipt as an A4 PDF (pdfkit), in Faroese or English. The standard Helvetica font uses
 * WinAnsi encoding, which holds the Faroese letters (ð ø á í ó ú ý æ), so no font file is needed
 * and the PDF opens the same on phones and desktops.
 */
export function renderReceiptPdf(
  receipt: Receipt,
  customer: ReceiptCustomer,
  locale: Locale,
  options: ReceiptPdfOptions = {},
): Promise<Buffer> {
  const t = TEXT[locale];
  const kr = (oere: number) => formatKr(oere, locale);
  const doc = new PDFDocument({
    size: 'A4',
    margin: 50,
    compress: options.compress ?? true,
    info: {
      Title: `${t.title} ${receipt.number}`,
      Author: SELLER.name,
      Subject: `${t.title} ${receipt.number}`,
      CreationDate: new Date(receipt.issuedAt),
    },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const left = 50;
  const right = doc.page.width - 50;
  const width = right - left;

  // Seller.
  doc.font('Helvetica-Bold').fontSize(20).fillColor('#0b3954').text(SELLER.name, left, 50);
  doc
    .font('Helvetica')
    .fontSize(9)
    .fillColor('#333333')
    .text(`${SELLER.street}, ${SELLER.city}`)
    .text(`${t.vatNo} ${SELLER.vatNumber} · ${SELLER.phone} · ${SELLER.web}`);

  // Title and receipt facts, right-aligned.
  doc
    .font('Helvetica-Bold')
    .fontSize(20)
    .fillColor('#000000')
    .text(t.title, left, 50, { width, align: 'right' });
  doc
    .font('Helvetica')
    .fontSize(9)
    .text(`${t.number}: ${receipt.number}`, left, 78, { width, align: 'right' })
    .text(`${t.date}: ${formatDateTime(receipt.issuedAt)}`, { width, align: 'right' })
    .text(`${t.order}: ${receipt.orderId}`, { width, align: 'right' });

  // Customer.
  doc.moveTo(left, 125).lineTo(right, 125).strokeColor('#cccccc').stroke();
  doc.font('Helvetica-Bold').fontSize(10).text(t.customer, left, 138);
  doc.font('Helvetica').fontSize(10).text(customer.name);
  if (customer.address) doc.text(customer.address);
  if (customer.email) doc.text(customer.email);

  // Lines.
  const cols = { qty: left + width * 0.55, unit: left + width * 0.65, total: left + width * 0.82 };
  let y = 215;
  doc.font('Helvetica-Bold').fontSize(9);
  doc.text(t.description, left, y, { width: width * 0.53 });
  doc.text(t.quantity, cols.qty, y, { width: width * 0.08, align: 'right' });
  doc.text(t.unit, cols.unit, y, { width: width * 0.16, align: 'right' });
  doc.text(t.total, cols.total, y, { width: width * 0.18, align: 'right' });
  y += 16;
  doc.moveTo(left, y).lineTo(right, y).strokeColor('#cccccc').stroke();
  y += 8;
  doc.font('Helvetica').fontSize(9);
  for (const line of receipt.lines) {
    const height = doc.heightOfString(line.description, { width: width * 0.53 });
    doc.text(line.description, left, y, { width: width * 0.53 });
    doc.text(String(line.quantity), cols.qty, y, { width: width * 0.08, align: 'right' });
    doc.text(kr(line.unitPrice.gross), cols.unit, y, { width: width * 0.16, align: 'right' });
    doc.text(kr(line.total.gross), cols.total, y, { width: width * 0.18, align: 'right' });
    y += Math.max(height, 12) + 8;
  }
  doc.moveTo(left, y).lineTo(right, y).strokeColor('#cccccc').stroke();
  y += 10;

  // Totals.
  const totals: [string, number, boolean][] = [
    [t.net, receipt.total.net, false],
    [t.vat(receipt.vatRate), receipt.total.vat, false],
    [t.gross, receipt.total.gross, true],
  ];
  for (const [label, oere, bold] of totals) {
    doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(bold ? 11 : 9);
    doc.text(label, left + width * 0.45, y, { width: width * 0.35, align: 'right' });
    doc.text(kr(oere), cols.total, y, { width: width * 0.18, align: 'right' });
    y += bold ? 18 : 14;
  }

  // Payment.
  y += 12;
  const card = [receipt.cardBrand ?? t.card, receipt.cardLast4 ? `•••• ${receipt.cardLast4}` : '']
    .filter(Boolean)
    .join(' ');
  doc
    .font('Helvetica')
    .fontSize(9)
    .text(`${t.paidBy}: ${card}, ${formatDate(receipt.issuedAt)}`, left, y, { width });

  // Footer.
  doc
    .fontSize(8)
    .fillColor('#555555')
    .text(t.pricesIncl, left, doc.page.height - 100, { width, align: 'center' })
    .text(t.thanks, { width, align: 'center' })
    .text(`${SELLER.name} · ${SELLER.street} · ${SELLER.city} · ${t.vatNo} ${SELLER.vatNumber}`, {
      width,
      align: 'center',
    });

  doc.end();
  return done;
}
