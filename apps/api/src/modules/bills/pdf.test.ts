import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatKr, splitVat } from '@alda/contract/format/money';
import type { Locale } from '@alda/contract/locale';
import type { BillItem, BillResponse, BillSection } from '@alda/contract/schemas/bills';
import { billFilename, renderBillPdf, type BillPdfParties } from './pdf';

/*
 * The bill's PDF as a reader gets it, checked with poppler's tools (Debian's poppler-utils):
 * pdftotext for what it says, pdfinfo and pdffonts for how it is made, pdftoppm that it renders.
 */

const FAROESE_LETTERS = [
  'Á',
  'á',
  'Ð',
  'ð',
  'Í',
  'í',
  'Ó',
  'ó',
  'Ú',
  'ú',
  'Ý',
  'ý',
  'Æ',
  'æ',
  'Ø',
  'ø',
];

const PARTIES: BillPdfParties = {
  issuer: {
    name: 'Alda P/F',
    address: 'Smiðjugøta 12, FO-100 Tórshavn',
    vatNumber: '612 345',
    bankAccount: '6460 1234567',
    iban: 'FO12 6460 0001 2345 67',
  },
  customer: {
    name: 'Jóannes Ðánjal Østerø',
    address: 'Á Ósi 3, FO-410 Kollafjørður',
    email: 'joannes@example.fo',
    customerNumber: '100042',
  },
};

let itemId = 0;
function item(description: string, gross: number, paid = false): BillItem {
  itemId += 1;
  return {
    id: `item-${itemId}`,
    kind: 'plan',
    description,
    price: splitVat(gross),
    paid,
    payment: null,
  };
}

function section(phoneNumber: string, holder: string | null, items: BillItem[]): BillSection {
  return {
    phoneNumber,
    holder,
    own: holder === null,
    items,
    subtotal: splitVat(items.reduce((sum, i) => sum + i.price.gross, 0)),
  };
}

/** A bill of the sections, partly paid by the payment agreement, the rest by bank transfer. */
function bill(sections: BillSection[], paidOere: number): BillResponse {
  const gross = sections.reduce((sum, s) => sum + s.subtotal.gross, 0);
  const owed = gross - paidOere;
  return {
    id: 'bill-1',
    number: 'R-000042',
    period: '2026-11',
    issuedAt: '2026-12-01T06:00:00.000Z',
    dueDate: '2026-12-15',
    total: splitVat(gross),
    paidOere,
    state: owed > 0 ? (paidOere > 0 ? 'partly_paid' : 'open') : 'paid',
    payment:
      paidOere > 0
        ? {
            method: 'agreement',
            paidAt: '2026-12-02T09:30:00.000Z',
            cardBrand: 'Visa',
            cardLast4: '4242',
          }
        : null,
    scope: 'payer',
    vatRate: 25,
    sections,
    bankTransfer:
      owed > 0
        ? {
            account: PARTIES.issuer.bankAccount,
            iban: PARTIES.issuer.iban,
            reference: '000000422',
            amountOere: owed,
            dueDate: '2026-12-15',
          }
        : null,
  };
}

const FAROESE_BILL = bill(
  [
    section('214365', null, [
      item('Familja 20 GB', 19_900, true),
      item('Kostnaður uttanlands í oktober 2026', 3_750),
      item('Ýmiskt á Íslandi', 1_200),
    ]),
    section('316789', 'Sunneva', [item('Familja 20 GB, familjulimur', 9_900, true)]),
    section('221100', 'Úrsula', [
      item('Ævintýrspakki 5 GB – ýmsar tænastur', 4_900),
      item('SMS til útlendsk nummur', 250),
    ]),
  ],
  29_800,
);

/**
 * 30 numbers, some with several items and a long description; `extra` more items on the first
 * number move every page break that follows.
 */
function longBill(extra = 0): BillResponse {
  return bill(
    Array.from({ length: 30 }, (_, i) =>
      section(String(210_000 + i * 37), i === 0 ? null : `Limur ${i + 1}`, [
        item('Familja 20 GB, familjulimur', 9_900),
        ...(i % 3 === 0 ? [item('Kostnaður uttanlands í oktober 2026', 2_350 + i)] : []),
        ...(i % 7 === 0
          ? [
              item(
                'Ýmiskt á Íslandi: dátunýtsla uttan fyri ES-pakkan, roknað fyri hvørt MB eftir galdandi prísi',
                1_200,
              ),
            ]
          : []),
        ...(i === 0 ? Array.from({ length: extra }, (_, j) => item(`Eyka SMS ${j + 1}`, 100)) : []),
      ]),
    ),
    0,
  );
}
const LONG_BILL = longBill();

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'bill-pdf-'));
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

let fileCount = 0;
async function render(
  b: BillResponse,
  locale: Locale,
  parties: BillPdfParties = PARTIES,
): Promise<string> {
  const pdf = await renderBillPdf(b, parties, locale);
  fileCount += 1;
  const file = path.join(dir, `${fileCount}-${billFilename(b.number)}`);
  writeFileSync(file, pdf);
  return file;
}

const run = (tool: string, ...args: string[]) => {
  try {
    return execFileSync(tool, args, { encoding: 'utf8' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      throw new Error(`${tool} is missing: install Debian's poppler-utils`);
    throw error;
  }
};
const text = (file: string, ...args: string[]) => run('pdftotext', ...args, file, '-');
const pageCount = (file: string) => Number(/^Pages:\s+(\d+)/m.exec(run('pdfinfo', file))?.[1]);

/**
 * On every page, nothing between the content's end (72 pt above the bottom edge, 769.9 pt from
 * the top) and the footer's rule (783.9 pt), and the footer under it: the page's number and the
 * operator's bank account.
 */
function expectClearFooters(file: string) {
  const pages = pageCount(file);
  const region = (page: number, y: number, height: number) =>
    text(
      file,
      '-f',
      `${page}`,
      '-l',
      `${page}`,
      '-x',
      '0',
      '-y',
      `${y}`,
      '-W',
      '596',
      '-H',
      `${height}`,
    );
  for (let page = 1; page <= pages; page += 1) {
    expect(region(page, 770, 13).replace(/\f/g, '').trim(), `page ${page}`).toBe('');
    const footer = region(page, 785, 57);
    expect(footer).toContain(`Síða ${page} av ${pages}`);
    expect(footer).toContain('Kontonummar 6460 1234567 · IBAN FO12 6460 0001 2345 67');
  }
}

describe('billFilename', () => {
  it('names the file after the bill', () => {
    expect(billFilename('R-000042')).toBe('rokning-R-000042.pdf');
  });
});

describe('renderBillPdf', () => {
  it('prints the Faroese bill: letters, number, totals, payment and reference', async () => {
    // The bill's names and descriptions carry every Faroese letter.
    const written = JSON.stringify([PARTIES.customer, FAROESE_BILL.sections]);
    for (const letter of FAROESE_LETTERS) expect(written, letter).toContain(letter);
    const file = await render(FAROESE_BILL, 'fo');
    const content = text(file);
    for (const letter of FAROESE_LETTERS) expect(content, letter).toContain(letter);
    for (const phrase of [
      'Rokning',
      'R-000042',
      'november 2026',
      'Jóannes Ðánjal Østerø',
      'Á Ósi 3, FO-410 Kollafjørður',
      '100042',
      '21 43 65',
      '31 67 89 · Sunneva',
      '22 11 00 · Úrsula',
      'Ævintýrspakki 5 GB – ýmsar tænastur',
      'SMS til útlendsk nummur',
      'Familja 20 GB, familjulimur',
      'Kostnaður uttanlands í oktober 2026',
      'Ýmiskt á Íslandi',
      'Smiðjugøta 12, FO-100 Tórshavn',
      'V-tal 612 345',
      'Gjaldsdagur',
      '15.12.2026',
      'Íalt uttan MVG',
      'MVG 25 %',
      'Goldið við gjaldsavtalu (Visa •••• 4242) tann 02.12.2026.',
      'FO12 6460 0001 2345 67',
      '6460 1234567',
      'Tilvísing',
      '000000422',
    ])
      expect(content, phrase).toContain(phrase);
    const { total, paidOere } = FAROESE_BILL;
    for (const oere of [total.net, total.vat, total.gross, paidOere, total.gross - paidOere])
      expect(content).toContain(formatKr(oere, 'fo'));
    expect(content).toMatch(/Síða 1 av \d/);
    // The subtotal of the first number, 199 + 37.50 + 12.
    expect(content).toContain('Íalt fyri 21 43 65');
    expect(content).toContain(formatKr(24_850, 'fo'));
  });

  it('is a tagged PDF with its font embedded, in Faroese, titled', async () => {
    const file = await render(FAROESE_BILL, 'fo');
    const info = run('pdfinfo', file);
    expect(info).toMatch(/^Tagged:\s+yes$/m);
    expect(info).toMatch(/^Title:\s+Rokning R-000042$/m);
    expect(info).toMatch(/^Page size:\s+595\.28 x 841\.89 pts \(A4\)$/m);
    expect(info).toMatch(/^PDF version:\s+1\.7$/m);
    const raw = readFileSync(file).toString('latin1');
    expect(raw).toContain('/StructTreeRoot');
    expect(raw).toMatch(/\/Lang \(fo-FO\)/);
    expect(raw).toMatch(/\/DisplayDocTitle true/);
    // The structure tree, as poppler reads it: headings, paragraphs and tables in reading order,
    // each holding its text.
    const tree = run('pdfinfo', '-struct-text', file);
    const element = (type: string, content: string) =>
      new RegExp(`^\\s*${type}\\b[^\\n]*\\n(\\s*/[^\\n]*\\n)*\\s*"${content}`, 'm');
    expect(tree).toMatch(element('H1', 'Rokning'));
    expect(tree).toMatch(element('H2', '31 67 89 · Sunneva'));
    expect(tree).toMatch(element('P', 'Jóannes Ðánjal Østerø'));
    expect(tree).toMatch(element('TH', 'Familja 20 GB, familjulimur'));
    expect(tree).toMatch(element('TD', '99,00 kr.'));
    expect(tree).toMatch(element('TH', 'Tilvísing'));
    expect(tree).toMatch(element('TD', '000000422'));
    expect(tree.indexOf('"Rokning"')).toBeLessThan(tree.indexOf('"21 43 65"'));
    expect(tree.indexOf('"21 43 65"')).toBeLessThan(tree.indexOf('"31 67 89 · Sunneva"'));
    // Page furniture is not in it: the footer is an artifact.
    expect(tree).not.toContain('Síða');

    // Every font is embedded, and it is Inter (no standard font left unembedded).
    const fonts = run('pdffonts', file).trim().split('\n').slice(2);
    expect(fonts.length).toBeGreaterThan(0);
    for (const line of fonts) {
      expect(line).toMatch(/Inter/);
      // name type encoding emb sub uni object ID
      expect(line).toMatch(/\byes\s+yes\s+yes\s+\d+\s+\d+\s*$/);
    }
  });

  it('renders page 1 as an image', async () => {
    const file = await render(FAROESE_BILL, 'fo');
    run('pdftoppm', '-r', '60', '-png', '-f', '1', '-l', '1', file, path.join(dir, 'page'));
    const png = readdirSync(dir).find((name) => name.startsWith('page') && name.endsWith('.png'));
    expect(png).toBeDefined();
    const bytes = readFileSync(path.join(dir, png!));
    expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
    // A4 at 60 dpi: 496 × 702 pixels, give or take poppler's rounding.
    expect(Math.abs(bytes.readUInt32BE(16) - 496)).toBeLessThanOrEqual(1);
    expect(Math.abs(bytes.readUInt32BE(20) - 702)).toBeLessThanOrEqual(1);
  });

  it('pages a bill of 30 numbers, every section whole and under its heading', async () => {
    const file = await render(LONG_BILL, 'fo');
    const pages = pageCount(file);
    expect(pages).toBeGreaterThanOrEqual(2);
    const content = text(file);
    expect(content).toContain(`Síða 2 av ${pages}`);
    expect(content).toContain(`Síða ${pages} av ${pages}`);
    // With no payment made, what is owed is the whole total, to be paid by transfer.
    expect(content).toContain(`Eftir at gjalda`);
    expect(content).toContain(formatKr(LONG_BILL.total.gross, 'fo'));

    // With the page breaks falling at eight different places (each extra item moves them by a
    // line), no number's heading is left at the foot of a page: each number, short enough to
    // fit a page, is printed whole on one, its heading on the page of its subtotal.
    for (let extra = 0; extra < 8; extra += 1) {
      const b = longBill(extra);
      const byPage = text(await render(b, 'fo')).split('\f');
      expect(byPage.join('')).not.toContain('(framhald)');
      for (const s of b.sections) {
        const number = s.phoneNumber.replace(/(\d{2})(\d{2})(\d{2})/, '$1 $2 $3');
        const page = byPage.findIndex(
          (p) => p.includes(`${number} · `) || p.includes(`${number}\n`),
        );
        expect(page, `${number}, ${extra} extra`).toBeGreaterThanOrEqual(0);
        expect(byPage[page], `${number}, ${extra} extra`).toContain(`Íalt fyri ${number}`);
      }
    }
  });

  it('keeps text out of the footer on every page', async () => {
    expectClearFooters(await render(LONG_BILL, 'fo'));
  });

  it('carries a number longer than a page over to the next, under its heading again', async () => {
    const items = Array.from({ length: 70 }, (_, i) =>
      item(`Ýmiskt á Íslandi, dagur ${i + 1}`, 100 + i),
    );
    const huge = bill([section('316789', 'Sunneva', items)], 0);
    const file = await render(huge, 'fo');
    expect(pageCount(file)).toBeGreaterThanOrEqual(2);
    expectClearFooters(file);
    const byPage = text(file).split('\f');
    expect(byPage[1]).toContain('31 67 89 · Sunneva (framhald)');
    for (const { description } of items) expect(byPage.join('\n')).toContain(`${description}\n`);
    // The last item and the subtotal share a page.
    const last = byPage.findIndex((p) => p.includes('Íalt fyri 31 67 89'));
    expect(byPage[last]).toContain('Ýmiskt á Íslandi, dagur 70');
  });

  it('writes the English bill', async () => {
    const file = await render(FAROESE_BILL, 'en');
    const content = text(file);
    for (const phrase of [
      'Bill',
      'Bill number',
      'November 2026',
      'Total excl. VAT',
      'VAT 25 %',
      'Outstanding',
      'Paid by payment agreement (Visa •••• 4242) on 02.12.2026.',
      'Reference',
    ])
      expect(content, phrase).toContain(phrase);
    expect(content).toContain(formatKr(FAROESE_BILL.total.gross, 'en'));
    expect(content).toMatch(/Page 1 of \d/);
    expect(content).not.toContain('Síða');
    expect(readFileSync(file).toString('latin1')).toMatch(/\/Lang \(en-GB\)/);
  });

  it('prints no name on an anonymised bill', async () => {
    const anonymised: BillPdfParties = {
      ...PARTIES,
      customer: { name: null, address: null, email: null, customerNumber: '100042' },
    };
    const file = await render({ ...FAROESE_BILL, bankTransfer: null }, 'fo', anonymised);
    const content = text(file);
    expect(content).toContain('R-000042');
    expect(content).toContain('100042');
    for (const gone of ['Jóannes', 'Østerø', 'Á Ósi', 'joannes@', 'Kundi\n'])
      expect(content, gone).not.toContain(gone);
  });

  it('reads the same when other bills were made before it', async () => {
    // Nothing of one document may stay in the next (the fonts are parsed for each): the bills
    // before it print 'ó' in semibold, and this one's semibold 'o' must still read as 'o'.
    const paid = bill(FAROESE_BILL.sections, FAROESE_BILL.total.gross);
    await render(FAROESE_BILL, 'fo');
    await render(LONG_BILL, 'fo');
    const again = text(await render(paid, 'fo'));
    // Every letter in every weight still reads as itself (regular, semibold and bold).
    for (const phrase of [
      'Jóannes Ðánjal Østerø',
      'Á Ósi 3, FO-410 Kollafjørður',
      'Ævintýrspakki 5 GB – ýmsar tænastur',
      'SMS til útlendsk nummur',
      'Rokningin er goldin.',
      'Íalt fyri 21 43 65',
      'Eftir at gjalda',
      'Rokning',
    ])
      expect(again, phrase).toContain(phrase);
  });

  it('says when the bill is paid, and how', async () => {
    const paid = bill(FAROESE_BILL.sections, FAROESE_BILL.total.gross);
    const file = await render(paid, 'fo');
    const content = text(file);
    expect(content).toContain('Rokningin er goldin.');
    expect(content).toContain('Goldið við gjaldsavtalu');
    expect(content).not.toContain('Tilvísing');
  });
});
