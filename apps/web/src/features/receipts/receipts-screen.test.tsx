import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Receipt } from '@alda/contract/schemas/receipts';
import { fail, ok, type RecordedRequest, quietPolls } from '@/test/fake-api';
import { demoUser } from '@/test/fixtures';
import { renderApp } from '@/test/render';
import { overridePlatform } from '@/shared/native/platform';

/** The native in-app browser (the OS's, outside the app). */
const browserOpen = vi.hoisted(() => ({ urls: [] as string[] }));
vi.mock('@capacitor/browser', () => ({
  Browser: {
    open: async ({ url }: { url: string }) => {
      browserOpen.urls.push(url);
    },
    close: async () => undefined,
  },
}));

const receipt = (n: number, overrides: Partial<Receipt> = {}): Receipt => ({
  id: `rcpt-${n}`,
  number: `K-2026-${String(n).padStart(6, '0')}`,
  orderId: `ord-${n}`,
  orderKind: 'extra_package',
  issuedAt: '2026-11-20T23:30:00.000Z',
  lines: [
    {
      description: `Eykapakki ${n} GB`,
      quantity: 1,
      unitPrice: { net: 3920, vat: 980, gross: 4900 },
      total: { net: 3920, vat: 980, gross: 4900 },
    },
  ],
  vatRate: 25,
  total: { net: 3920, vat: 980, gross: 4900 },
  cardBrand: 'Visa',
  cardLast4: '4242',
  ...overrides,
});

/** 25 receipts, newest first: a page of 20, then 5. */
const all = Array.from({ length: 25 }, (_, i) => receipt(25 - i));

const pageOf = (request: RecordedRequest) => {
  const url = new URL(request.url, 'http://x');
  const page = Number(url.searchParams.get('page'));
  const perPage = Number(url.searchParams.get('perPage'));
  return ok({ items: all.slice(page * perPage, (page + 1) * perPage), total: 25, page, perPage });
};

const monthly: Receipt = receipt(7, {
  orderKind: 'subscription_payment',
  lines: [
    {
      description: 'Familja 50 GB',
      quantity: 1,
      unitPrice: { net: 23920, vat: 5980, gross: 29900 },
      total: { net: 23920, vat: 5980, gross: 29900 },
    },
    {
      description: 'Limur',
      quantity: 2,
      unitPrice: { net: 7920, vat: 1980, gross: 9900 },
      total: { net: 15840, vat: 3960, gross: 19800 },
    },
  ],
  total: { net: 39760, vat: 9940, gross: 49700 },
});

const pdfBytes = new TextEncoder().encode('%PDF-1.7\n%test\n');

const createObjectURL = vi.fn<(blob: Blob) => string>(() => 'blob:receipt-1');
const revokeObjectURL = vi.fn<(url: string) => void>();
let clicked: HTMLAnchorElement[] = [];

beforeEach(() => {
  clicked = [];
  browserOpen.urls = [];
  createObjectURL.mockClear();
  // jsdom has no object URLs and does not navigate on click: record what would be saved.
  Object.assign(URL, { createObjectURL, revokeObjectURL });
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
    this: HTMLAnchorElement,
  ) {
    clicked.push(this);
  });
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe('receipts /menu/kvittanir (SPEC §1 "download or email receipts", §2 receipts)', () => {
  it('is reached from the menu and lists number, date DD.MM.YYYY, what and the total with VAT, a page at a time', async () => {
    const app = await renderApp({
      user: demoUser,
      initialEntries: ['/menu'],
      api: { ...quietPolls, 'GET /receipts': pageOf },
    });
    await userEvent.click(await screen.findByRole('link', { name: 'Kvittanir' }));
    const list = await screen.findByRole('list', { name: 'Kvittanir' });
    const rows = () => within(list).getAllByRole('listitem');
    expect(rows()).toHaveLength(20);
    // 23:30 UTC on 20 November is 20.11.2026 in Tórshavn (UTC+0 in winter).
    expect(rows()[0]?.textContent).toContain('Eykapakki 25 GB');
    expect(rows()[0]?.textContent).toContain('K-2026-000025 · 20.11.2026');
    expect(rows()[0]?.textContent).toContain('49,00 kr.');
    expect(rows()[0]?.textContent).toContain('við MVG');
    await userEvent.click(screen.getByRole('button', { name: 'Vís fleiri' }));
    await waitFor(() => expect(rows()).toHaveLength(25));
    expect(screen.queryByRole('button', { name: 'Vís fleiri' })).toBeNull();
    expect(app.api.callsTo('GET /receipts').map((r) => r.url)).toEqual([
      expect.stringContaining('page=0&perPage=20'),
      expect.stringContaining('page=1&perPage=20'),
    ]);
  });

  it('opens a receipt with its lines, the total without VAT, the VAT 25 % and the total with VAT (SPEC §9)', async () => {
    await renderApp({
      user: demoUser,
      initialEntries: ['/menu/kvittanir'],
      api: {
        ...quietPolls,
        'GET /receipts': () => ok({ items: [monthly], total: 1, page: 0, perPage: 20 }),
        'GET /receipts/rcpt-7': () => ok(monthly),
      },
    });
    await userEvent.click(await screen.findByRole('link', { name: /Familja 50 GB og eitt annað/ }));
    const card = await screen.findByRole('region', { name: 'Kvittan K-2026-000007' });
    expect(card.textContent).toContain(
      'Útskrivað 20.11.2026 · goldið við Visa\u00a0••••\u00a04242',
    );
    const lines = within(card).getAllByRole('listitem');
    expect(lines[0]?.textContent).toContain('Familja 50 GB');
    expect(lines[0]?.textContent).toContain('299,00 kr.');
    expect(lines[1]?.textContent).toContain('2 × 99,00 kr.');
    expect(lines[1]?.textContent).toContain('198,00 kr.');
    expect(within(card).getByText('Uttan MVG').nextSibling?.textContent).toBe('397,60 kr.');
    expect(within(card).getByText('MVG 25 %').nextSibling?.textContent).toBe('99,40 kr.');
    expect(within(card).getByText('Tilsamans við MVG').nextSibling?.textContent).toBe('497,00 kr.');
  });

  it('"Tak niður" fetches the PDF with the bearer token and saves it as a file', async () => {
    const app = await renderApp({
      user: demoUser,
      initialEntries: ['/menu/kvittanir/rcpt-7'],
      api: {
        ...quietPolls,
        'GET /receipts/rcpt-7': () => ok(monthly),
        'GET /receipts/rcpt-7/pdf': () =>
          new Response(pdfBytes, { headers: { 'Content-Type': 'application/pdf' } }),
      },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Tak niður' }));
    await waitFor(() => expect(clicked).toHaveLength(1));
    const [request] = app.api.callsTo('GET /receipts/rcpt-7/pdf');
    expect(request?.headers.authorization).toBe('Bearer access-1');
    expect(request?.headers.accept).toBe('application/pdf');
    expect(clicked[0]?.download).toBe('kvittan-K-2026-000007.pdf');
    expect(clicked[0]?.href).toBe('blob:receipt-1');
    const blob = createObjectURL.mock.calls[0]?.[0];
    expect(new TextDecoder().decode(await blob?.arrayBuffer()).startsWith('%PDF')).toBe(true);
  });

  it('ADR 0054 native shell: "Tak niður" opens a pre-signed link to the PDF in the in-app browser (its web view cannot save files)', async () => {
    overridePlatform('android');
    try {
      const app = await renderApp({
        user: demoUser,
        initialEntries: ['/menu/kvittanir/rcpt-7'],
        api: {
          ...quietPolls,
          'GET /receipts/rcpt-7': () => ok(monthly),
          'POST /receipts/rcpt-7/pdf-link': () =>
            ok({
              path: '/receipt-files/rcpt-7?lang=fo&expires=1&signature=abc',
              expiresAt: '2026-11-22T10:05:00.000Z',
            }),
        },
      });
      await userEvent.click(await screen.findByRole('button', { name: 'Tak niður' }));
      await waitFor(() =>
        expect(browserOpen.urls).toEqual([
          '/api/receipt-files/rcpt-7?lang=fo&expires=1&signature=abc',
        ]),
      );
      expect(app.api.callsTo('POST /receipts/rcpt-7/pdf-link')[0]?.headers.authorization).toBe(
        'Bearer access-1',
      );
      expect(app.api.callsTo('GET /receipts/rcpt-7/pdf')).toHaveLength(0);
      expect(clicked).toHaveLength(0);
    } finally {
      overridePlatform(null);
    }
  });

  it('native shell: a link that cannot be made says the download failed', async () => {
    overridePlatform('ios');
    try {
      await renderApp({
        user: demoUser,
        initialEntries: ['/menu/kvittanir/rcpt-7'],
        api: {
          ...quietPolls,
          'GET /receipts/rcpt-7': () => ok(monthly),
          'POST /receipts/rcpt-7/pdf-link': () => fail(503, 'SERVICE_UNAVAILABLE'),
        },
      });
      await userEvent.click(await screen.findByRole('button', { name: 'Tak niður' }));
      expect(await screen.findByText('Vit kundu ikki taka kvittanina niður.')).toBeTruthy();
      expect(browserOpen.urls).toEqual([]);
    } finally {
      overridePlatform(null);
    }
  });

  it('"Send við telduposti" e-mails it and says where to', async () => {
    const app = await renderApp({
      user: demoUser,
      initialEntries: ['/menu/kvittanir/rcpt-7'],
      api: {
        ...quietPolls,
        'GET /receipts/rcpt-7': () => ok(monthly),
        'POST /receipts/rcpt-7/email': () => ok({ ok: true, sentTo: 'joannes@demo.alda.fo' }),
      },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Send við telduposti' }));
    expect(await screen.findByText('Kvittanin er send til joannes@demo.alda.fo')).toBeTruthy();
    expect(app.api.callsTo('POST /receipts/rcpt-7/email')).toHaveLength(1);
  });

  it('SPEC §8 receipt fetch, download and email: each failure has its own message', async () => {
    const app = await renderApp({
      user: demoUser,
      locale: 'en',
      initialEntries: ['/menu/kvittanir'],
      api: { ...quietPolls, 'GET /receipts': () => fail(500, 'INTERNAL') },
    });
    expect(await screen.findByText('We could not fetch your receipts.')).toBeTruthy();

    app.api.on('GET /receipts/rcpt-7', () => ok(monthly));
    app.api.on('GET /receipts/rcpt-7/pdf', () => fail(500, 'INTERNAL'));
    app.api.on('POST /receipts/rcpt-7/email', () =>
      fail(502, 'RECEIPT_EMAIL_FAILED', 'We could not send the receipt.'),
    );
    await app.router.navigate('/menu/kvittanir/rcpt-7');
    await userEvent.click(await screen.findByRole('button', { name: 'Download' }));
    expect(await screen.findByText('We could not download the receipt.')).toBeTruthy();
    expect(clicked).toHaveLength(0);
    await userEvent.click(screen.getByRole('button', { name: 'Send by e-mail' }));
    expect(await screen.findByText('We could not e-mail the receipt.')).toBeTruthy();
  });

  it('a receipt that cannot be fetched says so, with a retry', async () => {
    const app = await renderApp({
      user: demoUser,
      initialEntries: ['/menu/kvittanir/rcpt-7'],
      api: { ...quietPolls, 'GET /receipts/rcpt-7': () => fail(503, 'SERVICE_UNAVAILABLE') },
    });
    expect(await screen.findByText('Vit kundu ikki heinta kvittanina.')).toBeTruthy();
    app.api.on('GET /receipts/rcpt-7', () => ok(monthly));
    await userEvent.click(screen.getByRole('button', { name: 'Royn aftur' }));
    expect(await screen.findByRole('region', { name: 'Kvittan K-2026-000007' })).toBeTruthy();
  });

  it('says there are none yet', async () => {
    await renderApp({
      user: demoUser,
      initialEntries: ['/menu/kvittanir'],
      api: {
        ...quietPolls,
        'GET /receipts': () => ok({ items: [], total: 0, page: 0, perPage: 20 }),
      },
    });
    expect(await screen.findByRole('heading', { name: 'Ongar kvittanir enn' })).toBeTruthy();
  });
});
