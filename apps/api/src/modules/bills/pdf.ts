import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import PDFDocument from 'pdfkit';
import { formatDate, formatMonth } from '@alda/contract/format/date';
import { formatKr } from '@alda/contract/format/money';
import { formatPhoneNumber } from '@alda/contract/format/phone';
import type { Locale } from '@alda/contract/locale';
import type { BillPayment, BillResponse } from '@alda/contract/schemas/bills';

/** Who issues the bill and who it is made out to, as the PDF prints them. */
export interface BillPdfParties {
  issuer: { name: string; address: string; vatNumber: string; bankAccount: string; iban: string };
  /** All null but the customer number on an anonymised bill. */
  customer: {
    name: string | null;
    address: string | null;
    email: string | null;
    customerNumber: string;
  };
}

export interface BillPdfOptions {
  /** Deflate the page content (pdfkit's default, smaller files). */
  compress?: boolean;
}

const TEXT = {
  fo: {
    lang: 'fo-FO',
    title: 'Rokning',
    number: 'Rokningarnummar',
    month: 'Mánaður',
    issued: 'Útskrivað',
    due: 'Gjaldsdagur',
    customerNumber: 'Kundanummar',
    customer: 'Kundi',
    vatNo: 'V-tal',
    total: 'Íalt',
    paid: 'Goldið',
    outstanding: 'Eftir at gjalda',
    isPaid: 'Rokningin er goldin.',
    description: 'Lýsing',
    amount: 'Upphædd',
    continued: '(framhald)',
    subtotal: (number: string) => `Íalt fyri ${number}`,
    net: 'Íalt uttan MVG',
    vat: (rate: number) => `MVG ${rate} %`,
    pricesIncl: 'Allir prísir eru í krónum við MVG.',
    payment: 'Gjalding',
    /** How a payment was made, to follow 'Goldið við'. */
    paidVia: { card: 'kort', mobilepay: 'MobilePay', agreement: 'gjaldsavtalu' },
    /** `Goldið við gjaldsavtalu (Visa •••• 4242) tann 02.12.2026.` */
    paidWith: (via: string, card: string, date: string) =>
      `Goldið við ${via}${card ? ` (${card})` : ''} tann ${date}.`,
    transferIntro:
      'Vinarliga flyt upphæddina til kontuna niðanfyri og skriva tilvísingina við, so vit kunnu finna gjaldið.',
    account: 'Kontonummar',
    iban: 'IBAN',
    reference: 'Tilvísing',
    transferAmount: 'Upphædd',
    page: (page: number, pages: number) => `Síða ${page} av ${pages}`,
  },
  en: {
    lang: 'en-GB',
    title: 'Bill',
    number: 'Bill number',
    month: 'Month',
    issued: 'Issued',
    due: 'Due date',
    customerNumber: 'Customer number',
    customer: 'Customer',
    vatNo: 'VAT no.',
    total: 'Total',
    paid: 'Paid',
    outstanding: 'Outstanding',
    isPaid: 'This bill is paid.',
    description: 'Description',
    amount: 'Amount',
    continued: '(continued)',
    subtotal: (number: string) => `Total for ${number}`,
    net: 'Total excl. VAT',
    vat: (rate: number) => `VAT ${rate} %`,
    pricesIncl: 'All prices are in kroner including VAT.',
    payment: 'Payment',
    paidVia: { card: 'by card', mobilepay: 'with MobilePay', agreement: 'by payment agreement' },
    paidWith: (via: string, card: string, date: string) =>
      `Paid ${via}${card ? ` (${card})` : ''} on ${date}.`,
    transferIntro: 'Please transfer the amount to the account below, quoting the reference.',
    account: 'Account number',
    iban: 'IBAN',
    reference: 'Reference',
    transferAmount: 'Amount',
    page: (page: number, pages: number) => `Page ${page} of ${pages}`,
  },
} as const;

/** `rokning-R-000042.pdf`. */
export function billFilename(number: string): string {
  return `rokning-${number}.pdf`;
}

/*
 * The font. The standard PDF fonts cannot be embedded (pdfkit ships their metrics only), and a
 * tagged, accessible PDF should carry its fonts, so the bill embeds Inter (SIL Open Font
 * License 1.1, static TTF instances from @expo-google-fonts/inter): every Faroese letter and the
 * •, –, · and % the bill prints. pdfkit embeds only the glyphs used (a subset). npm packages stay
 * outside the API's bundle (esbuild-options.mjs), so the files are found in node_modules from
 * this file or from dist/main.js alike.
 *
 * The files are read once; each document parses them anew. A parsed font (fontkit's Font) must
 * not be shared between documents: it keeps every glyph it has made, with the characters it was
 * made for, and a glyph first made as part of an accented letter ('o' of 'ó') has none, so the
 * next document's text maps it to nothing (copied or read aloud, 'Rokningin' became
 * 'R kningin'). Sharing would make a bill about three times faster.
 */
const FONT_FILES = {
  regular: '@expo-google-fonts/inter/400Regular/Inter_400Regular.ttf',
  semibold: '@expo-google-fonts/inter/600SemiBold/Inter_600SemiBold.ttf',
  bold: '@expo-google-fonts/inter/700Bold/Inter_700Bold.ttf',
} as const;
type FontName = keyof typeof FONT_FILES;
const FONT_NAMES = Object.keys(FONT_FILES) as FontName[];

let fontBytes: Promise<Record<FontName, Buffer>> | undefined;

function loadFonts(): Promise<Record<FontName, Buffer>> {
  if (!fontBytes) {
    const require = createRequire(import.meta.url);
    fontBytes = Promise.all(
      FONT_NAMES.map(async (name) => [name, await readFile(require.resolve(FONT_FILES[name]))]),
    ).then((entries) => Object.fromEntries(entries) as Record<FontName, Buffer>);
    // A failed read is tried again on the next bill, not remembered.
    fontBytes.catch(() => {
      fontBytes = undefined;
    });
  }
  return fontBytes;
}

const COLOR = {
  brand: '#0b3954',
  text: '#1a1a1a',
  muted: '#5f6b76',
  rule: '#d5dbe1',
  panel: '#eef3f7',
};

/** A4 in points, and the part of it the content uses. */
const MARGIN = 50;
/** Content ends here; the footer lives below it. */
const FOOTER_SPACE = 72;
/** Where content starts on the pages after the first, below the running header. */
const CONTINUED_TOP = 78;
/** A heading's line: 11 pt text and the space under it. */
const HEADING_HEIGHT = 20;
/** Space between two numbers' sections. */
const SECTION_GAP = 12;

type Align = 'left' | 'right';

interface Cell {
  text: string;
  x: number;
  width: number;
  align?: Align;
  font?: FontName;
  size?: number;
  color?: string;
  /** Tabular figures, so amounts line up. */
  figures?: boolean;
  /** Drawn this far below the row's y. */
  dy?: number;
}

/**
 * The bill as an A4 PDF (pdfkit), in Faroese or English: a tagged PDF (headings, paragraphs and
 * tables in a structure tree, rules and page furniture as artifacts) with its font embedded, so
 * screen readers read it in order and it prints the same everywhere. Pages are numbered at the
 * end ('Síða 1 av 2'), once their count is known.
 */
export async function renderBillPdf(
  bill: BillResponse,
  parties: BillPdfParties,
  locale: Locale,
  options: BillPdfOptions = {},
): Promise<Buffer> {
  const fonts = await loadFonts();
  const t = TEXT[locale];
  const kr = (oere: number) => formatKr(oere, locale);
  const { issuer, customer } = parties;
  const month = formatMonth(bill.period, locale);
  const title = `${t.title} ${bill.number}`;

  const doc = new PDFDocument({
    size: 'A4',
    // The bottom margin is small on purpose: this function breaks pages itself (FOOTER_SPACE),
    // and the footer is written below the content after the last page is known.
    margins: { top: MARGIN, left: MARGIN, right: MARGIN, bottom: 20 },
    compress: options.compress ?? true,
    bufferPages: true,
    pdfVersion: '1.7',
    tagged: true,
    lang: t.lang,
    displayTitle: true,
    info: {
      Title: title,
      Author: issuer.name,
      Subject: `${t.title} ${month}`,
      CreationDate: new Date(bill.issuedAt),
    },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  for (const name of FONT_NAMES) doc.registerFont(name, fonts[name]);
  doc.font('regular');

  const pageWidth = doc.page.width;
  const pageHeight = doc.page.height;
  const left = MARGIN;
  const right = pageWidth - MARGIN;
  const width = right - left;
  const bottom = pageHeight - FOOTER_SPACE;

  const root = doc.struct('Document');
  doc.addStructure(root);

  // ---- Drawing helpers ----

  const style = (font: FontName, size: number, color = COLOR.text) =>
    doc.font(font).fontSize(size).fillColor(color);

  const heightOf = (cell: Cell) => {
    style(cell.font ?? 'regular', cell.size ?? 9.5);
    return doc.heightOfString(cell.text, { width: cell.width });
  };

  /** Draws a cell's text at y (no structure: the caller marks it). */
  const draw = (cell: Cell, y: number) => {
    style(cell.font ?? 'regular', cell.size ?? 9.5, cell.color);
    doc.text(cell.text, cell.x, y + (cell.dy ?? 0), {
      width: cell.width,
      align: cell.align ?? 'left',
      features: cell.figures ? ['tnum'] : undefined,
    });
  };

  /** Decoration: a rule, a panel, page furniture. Not read out. */
  const artifact = (paint: () => void, type: 'Layout' | 'Pagination' = 'Layout') => {
    doc.markContent('Artifact', { type });
    paint();
    doc.endMarkedContent();
  };

  const rule = (y: number, x1 = left, x2 = right, color = COLOR.rule, lineWidth = 0.75) =>
    artifact(() => {
      doc.save().moveTo(x1, y).lineTo(x2, y).lineWidth(lineWidth).strokeColor(color).stroke();
      doc.restore();
    });

  /** A structure element of `type` holding the cells, in reading order. */
  const block = (parent: PDFKit.PDFStructureElement, type: string, cells: Cell[], y: number) => {
    parent.add(
      doc.struct(
        type,
        {},
        cells.map((cell) => () => draw(cell, y)),
      ),
    );
  };

  /**
   * A table row: a TR of TD cells, and TH cells (scope Row) for those that name the row — an
   * item's description, a total's label — so a screen reader says which amount is which.
   */
  const row = (
    table: PDFKit.PDFStructureElement,
    cells: { cell: Cell; header?: boolean }[],
    y: number,
  ) => {
    const tr = doc.struct('TR');
    table.add(tr);
    for (const { cell, header } of cells) {
      // pdfkit writes `scope` as the TH's Table attribute; its types do not list it yet.
      const options = (header ? { scope: 'Row' } : {}) as PDFKit.Mixins.StructureElementOptions;
      tr.add(doc.struct(header ? 'TH' : 'TD', options, () => draw(cell, y)));
    }
    tr.end();
  };

  const rowHeight = (cells: Cell[], padding: number) =>
    Math.max(...cells.map((cell) => heightOf(cell))) + padding;

  // ---- Pages ----

  let y = MARGIN;

  /** A new page, with the running header the pages after the first carry. */
  const newPage = () => {
    doc.addPage();
    artifact(() => {
      draw(
        { text: `${issuer.name} · ${title}`, x: left, width, font: 'semibold', size: 8 },
        MARGIN - 12,
      );
      draw(
        {
          text: `${t.customerNumber} ${customer.customerNumber} · ${month}`,
          x: left,
          width,
          align: 'right',
          size: 8,
          color: COLOR.muted,
        },
        MARGIN - 12,
      );
    }, 'Pagination');
    rule(MARGIN + 2);
    y = CONTINUED_TOP;
  };

  /** Moves to a new page unless `height` more fits on this one. */
  const ensure = (height: number) => {
    if (y + height > bottom) newPage();
  };

  // ---- Header: the operator, the title and the bill's facts ----

  artifact(() => doc.rect(0, 0, pageWidth, 6).fill(COLOR.brand));

  const header = doc.struct('Sect');
  root.add(header);
  header.add(
    doc.struct('H1', {}, () =>
      draw(
        {
          text: t.title,
          x: left,
          width,
          align: 'right',
          font: 'bold',
          size: 24,
          color: COLOR.brand,
        },
        MARGIN - 4,
      ),
    ),
  );
  // The operator, its lines under one another however long its name or address.
  const issuerCells: Cell[] = [
    { text: issuer.name, x: left, width: 270, font: 'bold', size: 15, color: COLOR.brand },
    { text: issuer.address, x: left, width: 270, size: 9, color: COLOR.muted },
    { text: `${t.vatNo} ${issuer.vatNumber}`, x: left, width: 270, size: 9, color: COLOR.muted },
  ];
  let issuerY = MARGIN;
  issuerCells.forEach((cell, i) => {
    block(header, 'P', [cell], issuerY);
    issuerY += heightOf(cell) + (i === 0 ? 3 : 1);
  });

  const factsLeft = right - 210;
  const facts: [string, string][] = [
    [t.number, bill.number],
    [t.month, month],
    [t.issued, formatDate(bill.issuedAt)],
    [t.due, formatDate(bill.dueDate)],
    [t.customerNumber, customer.customerNumber],
  ];
  const factsTable = doc.struct('Table');
  header.add(factsTable);
  let factY = MARGIN + 34;
  for (const [label, value] of facts) {
    row(
      factsTable,
      [
        {
          cell: { text: `${label} `, x: factsLeft, width: 110, size: 9, color: COLOR.muted },
          header: true,
        },
        {
          cell: {
            text: value,
            x: factsLeft + 110,
            width: 100,
            align: 'right',
            size: 9,
            figures: true,
          },
        },
      ],
      factY,
    );
    factY += 14;
  }
  factsTable.end();

  // ---- The customer (nothing of it on an anonymised bill) ----

  const customerLines = [customer.name, customer.address, customer.email].filter(
    (line): line is string => Boolean(line),
  );
  let customerY = Math.max(MARGIN + 70, issuerY + 20);
  if (customerLines.length > 0) {
    const customerSect = doc.struct('Sect');
    root.add(customerSect);
    const labelCell: Cell = {
      text: t.customer,
      x: left,
      width: 240,
      font: 'semibold',
      size: 8,
      color: COLOR.muted,
    };
    customerSect.add(doc.struct('H2', {}, () => draw(labelCell, customerY)));
    customerY += 13;
    const cells: Cell[] = [];
    if (customer.name) cells.push({ text: customer.name, x: left, width: 240, font: 'semibold' });
    if (customer.address) cells.push({ text: customer.address, x: left, width: 240, size: 9.5 });
    if (customer.email)
      cells.push({ text: customer.email, x: left, width: 240, size: 9, color: COLOR.muted });
    for (const cell of cells) {
      block(customerSect, 'P', [cell], customerY);
      customerY += heightOf(cell) + 2;
    }
    customerSect.end();
  }
  header.end();
  y = Math.max(customerY, factY) + 18;

  /** `Goldið við gjaldsavtalu (Visa •••• 4242) tann 02.12.2026.` */
  const paidWith = (payment: BillPayment) => {
    const card = [payment.cardBrand, payment.cardLast4 ? `•••• ${payment.cardLast4}` : '']
      .filter(Boolean)
      .join(' ');
    return t.paidWith(t.paidVia[payment.method], card, formatDate(payment.paidAt));
  };

  // ---- Summary panel: total, paid, outstanding, due date ----

  const outstanding = Math.max(bill.total.gross - bill.paidOere, 0);
  const panelHeight = 54;
  artifact(() => doc.roundedRect(left, y, width, panelHeight, 6).fill(COLOR.panel));
  const summary = doc.struct('Sect');
  root.add(summary);
  const figures: [string, string, FontName][] = [
    [t.total, kr(bill.total.gross), 'semibold'],
    [t.paid, kr(bill.paidOere), 'semibold'],
    [t.outstanding, kr(outstanding), 'bold'],
    [t.due, formatDate(bill.dueDate), 'semibold'],
  ];
  const column = (width - 32) / figures.length;
  figures.forEach(([label, value, font], i) => {
    const x = left + 16 + column * i;
    block(
      summary,
      'P',
      [
        { text: `${label} `, x, width: column - 8, size: 8, color: COLOR.muted },
        {
          text: value,
          x,
          width: column - 8,
          font,
          size: 13,
          color: font === 'bold' ? COLOR.brand : COLOR.text,
          figures: true,
          dy: 13,
        },
      ],
      y + 12,
    );
  });
  summary.end();
  y += panelHeight + 20;

  // ---- Payment: how it was paid, and how to pay what is owed ----

  const transfer = bill.bankTransfer;
  if (bill.payment || transfer || outstanding === 0) {
    const paymentSect = doc.struct('Sect');
    root.add(paymentSect);
    paymentSect.add(
      doc.struct('H2', {}, () =>
        draw(
          { text: t.payment, x: left, width, font: 'semibold', size: 11, color: COLOR.brand },
          y,
        ),
      ),
    );
    y += HEADING_HEIGHT;
    const lines: Cell[] = [];
    if (outstanding === 0)
      lines.push({ text: t.isPaid, x: left, width, font: 'semibold', color: COLOR.brand });
    if (bill.payment) lines.push({ text: paidWith(bill.payment), x: left, width });
    if (transfer) lines.push({ text: t.transferIntro, x: left, width });
    for (const cell of lines) {
      block(paymentSect, 'P', [cell], y);
      y += heightOf(cell) + 4;
    }
    if (transfer) {
      // The transfer's details in two columns: where to (account, IBAN), then what (reference,
      // amount, due date).
      const pairs: [string, string][][] = [
        [
          [t.account, transfer.account],
          [t.reference, transfer.reference],
        ],
        [
          [t.iban, transfer.iban],
          [t.transferAmount, kr(transfer.amountOere)],
        ],
        [
          ['', ''],
          [t.due, formatDate(transfer.dueDate)],
        ],
      ];
      y += 6;
      const boxHeight = pairs.length * 16 + 14;
      artifact(() => doc.roundedRect(left, y, width, boxHeight, 6).fill(COLOR.panel));
      const table = doc.struct('Table');
      paymentSect.add(table);
      let rowY = y + 9;
      const half = width / 2;
      for (const pair of pairs) {
        row(
          table,
          pair.flatMap(([label, value], i) => {
            const x = left + 16 + half * i;
            if (!label) return [];
            return [
              {
                cell: { text: `${label} `, x, width: 90, size: 9, color: COLOR.muted },
                header: true,
              },
              {
                cell: {
                  text: value,
                  x: x + 90,
                  width: half - 106,
                  font: 'semibold' as const,
                  size: 9.5,
                  figures: true,
                },
              },
            ];
          }),
          rowY,
        );
        rowY += 16;
      }
      table.end();
      y += boxHeight;
    }
    paymentSect.end();
    y += 18;
  }

  // ---- One section per number ----

  const amountWidth = 120;
  const amountX = right - amountWidth;
  const descriptionWidth = amountX - left - 16;

  const itemCells = (description: string, gross: number): Cell[] => [
    { text: description, x: left, width: descriptionWidth },
    { text: kr(gross), x: amountX, width: amountWidth, align: 'right', figures: true },
  ];

  /** The number's heading, with a rule under it. */
  const drawHeading = (text: string, tag: PDFKit.PDFStructureElement | null) => {
    const cell: Cell = { text, x: left, width, font: 'semibold', size: 11, color: COLOR.brand };
    if (tag) tag.add(doc.struct('H2', {}, () => draw(cell, y)));
    else artifact(() => draw(cell, y), 'Pagination');
    rule(y + 17);
    y += HEADING_HEIGHT + 4;
  };

  for (const section of bill.sections) {
    const number = formatPhoneNumber(section.phoneNumber);
    const heading = section.holder ? `${number} · ${section.holder}` : number;
    const rows = section.items.map((item) => itemCells(item.description, item.price.gross));
    const heights = rows.map((cells) => rowHeight(cells, 5));
    const subtotalCells: Cell[] = [
      { text: t.subtotal(number), x: left, width: descriptionWidth, font: 'semibold' },
      {
        text: kr(section.subtotal.gross),
        x: amountX,
        width: amountWidth,
        align: 'right',
        font: 'semibold',
        figures: true,
      },
    ];
    const subtotalHeight = rowHeight(subtotalCells, 0) + 10;
    const headingHeight = HEADING_HEIGHT + 4;
    const sectionHeight = headingHeight + heights.reduce((a, b) => a + b, 0) + subtotalHeight;

    // The heading never stands alone at the bottom of a page: the whole section moves to the
    // next page when it fits there and not here; a longer one keeps at least its first item
    // (and the subtotal, when that is the only item) with the heading.
    const keepWithHeading =
      headingHeight + (heights[0] ?? 0) + (rows.length <= 1 ? subtotalHeight : 0);
    ensure(sectionHeight <= bottom - CONTINUED_TOP ? sectionHeight : keepWithHeading);

    const sect = doc.struct('Sect');
    root.add(sect);
    drawHeading(heading, sect);
    const table = doc.struct('Table');
    sect.add(table);

    rows.forEach((cells, i) => {
      const height = heights[i] ?? 0;
      // The last item keeps the subtotal with it.
      if (y + height + (i === rows.length - 1 ? subtotalHeight : 0) > bottom) {
        newPage();
        // The section goes on: its heading again, as page furniture.
        drawHeading(`${heading} ${t.continued}`, null);
      }
      row(
        table,
        cells.map((cell, column) => ({
          cell,
          header: column === 0,
        })),
        y,
      );
      y += height;
    });
    if (rows.length === 0) ensure(subtotalHeight);

    rule(y);
    y += 5;
    row(
      table,
      subtotalCells.map((cell, column) => ({
        cell,
        header: column === 0,
      })),
      y,
    );
    y += subtotalHeight - 5 + SECTION_GAP;
    table.end();
    sect.end();
  }

  // ---- Totals ----

  const totalsLabelX = right - 300;
  const totalsLines: { label: string; value: string; strong: boolean }[] = [
    { label: t.net, value: kr(bill.total.net), strong: false },
    { label: t.vat(bill.vatRate), value: kr(bill.total.vat), strong: false },
    { label: t.total, value: kr(bill.total.gross), strong: true },
    { label: t.paid, value: kr(bill.paidOere), strong: false },
    { label: t.outstanding, value: kr(outstanding), strong: true },
  ];
  // Each line's step below (a strong one has a rule above it); the last ends with its text.
  const step = (strong: boolean) => (strong ? 5 + 19 : 15);
  ensure(4 + totalsLines.reduce((sum, line) => sum + step(line.strong), 0) - 5);
  y += 4;
  const totalsTop = y;
  const totalsSect = doc.struct('Sect');
  root.add(totalsSect);
  const totals = doc.struct('Table');
  totalsSect.add(totals);
  for (const line of totalsLines) {
    if (line.strong) rule(y - 1, totalsLabelX, right, COLOR.text);
    const top = y + (line.strong ? 5 : 0);
    const font: FontName = line.strong ? 'bold' : 'regular';
    const size = line.strong ? 11 : 9.5;
    row(
      totals,
      [
        {
          cell: { text: `${line.label} `, x: totalsLabelX, width: 170, font, size },
          header: true,
        },
        {
          cell: {
            text: line.value,
            x: right - 130,
            width: 130,
            align: 'right',
            font,
            size,
            figures: true,
          },
        },
      ],
      top,
    );
    y += step(line.strong);
  }
  totals.end();
  // Beside the totals, in the space the amounts leave.
  totalsSect.add(
    doc.struct('P', {}, () =>
      draw(
        {
          text: t.pricesIncl,
          x: left,
          width: totalsLabelX - left - 20,
          size: 8,
          color: COLOR.muted,
        },
        totalsTop + 1,
      ),
    ),
  );
  totalsSect.end();

  // ---- Footer on every page, now that their count is known ----

  const range = doc.bufferedPageRange();
  for (let i = 0; i < range.count; i += 1) {
    doc.switchToPage(range.start + i);
    const footerY = pageHeight - 50;
    rule(footerY - 8);
    artifact(() => {
      // The operator and its bank account, on every page of every bill.
      const lines = [
        `${issuer.name} · ${issuer.address} · ${t.vatNo} ${issuer.vatNumber}`,
        `${t.account} ${issuer.bankAccount} · ${t.iban} ${issuer.iban}`,
      ];
      lines.forEach((line, n) =>
        draw(
          { text: line, x: left, width: width - 140, size: 7.5, color: COLOR.muted },
          footerY + n * 10,
        ),
      );
      draw(
        {
          text: `${bill.number} · ${t.page(i + 1, range.count)}`,
          x: right - 140,
          width: 140,
          align: 'right',
          size: 7.5,
          color: COLOR.muted,
        },
        footerY,
      );
    }, 'Pagination');
  }

  root.end();
  doc.end();
  return done;
}
