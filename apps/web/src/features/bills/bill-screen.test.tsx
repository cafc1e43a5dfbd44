import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { overridePlatform } from '@/shared/native/platform';
import { billList, memberBill, openBill, paidBill } from '@/test/bill-fixtures';
import { fail, ok, quietPolls, type Handler } from '@/test/fake-api';
import { demoUser } from '@/test/fixtures';
import { renderApp } from '@/test/render';

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

const pdfBytes = new TextEncoder().encode('%PDF-1.7\n%bill\n');
const createObjectURL = vi.fn<(blob: Blob) => string>(() => 'blob:bill-12');
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

const open = (api: Record<string, Handler> = {}, path = '/menu/rokningar/bill-12') =>
  renderApp({
    user: demoUser,
    initialEntries: [path],
    api: { ...quietPolls, 'GET /bills/bill-12': () => ok(openBill), ...api },
  });

/** The value beside a label of a description list. */
const valueOf = (within_: HTMLElement, label: string) =>
  within(within_).getByText(label).nextSibling?.textContent;

/** The card of the totals: without VAT, the VAT, with VAT, and how it was paid. */
const totalsCard = () => screen.getByText('Uttan MVG').closest('dl')!.parentElement!;

describe('a bill /menu/rokningar/:billId (ADR 0098)', () => {
  it('opens from the list: month, number, issue and due dates, state', async () => {
    await renderApp({
      user: demoUser,
      initialEntries: ['/menu/rokningar'],
      api: {
        ...quietPolls,
        'GET /bills': () => ok({ items: billList }),
        'GET /bills/bill-12': () => ok(openBill),
      },
    });
    await userEvent.click(await screen.findByRole('link', { name: /november 2026/ }));
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Rokning fyri november 2026' }),
    ).toBeTruthy();
    const head = screen.getByRole('region', { name: 'november 2026' });
    expect(valueOf(head, 'Rokningarnummar')).toBe('R-000042');
    expect(valueOf(head, 'Útskrivað')).toBe('01.12.2026');
    expect(valueOf(head, 'Gjaldsdagur')).toBe('15.12.2026');
    expect(within(head).getByText('Ógoldin')).toBeTruthy();
  });

  it("one section per number with its holder, items, subtotal and a link to the number's itemised use; the VAT split out", async () => {
    await open();
    const own = await screen.findByRole('region', { name: '21 43 65, Títt nummar' });
    expect(within(own).getByRole('listitem').textContent).toBe('Familja 50 GB299,00 kr.');
    expect(valueOf(own, 'Tilsamans')).toBe('299,00 kr.');
    expect(
      within(own)
        .getByRole('link', { name: 'Sundurgreinað nýtsla á 21 43 65' })
        .getAttribute('href'),
    ).toBe('/menu/rokningar/bill-12/nummar/214365');

    const sunneva = screen.getByRole('region', { name: '55 11 22, Sunneva' });
    const items = within(sunneva).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      'Limur í familjuhaldi99,00 kr.',
      'Eykapakki 10 GB99,00 kr.',
    ]);
    expect(valueOf(sunneva, 'Tilsamans')).toBe('198,00 kr.');
    expect(
      within(sunneva)
        .getByRole('link', { name: 'Sundurgreinað nýtsla á 55 11 22' })
        .getAttribute('href'),
    ).toBe('/menu/rokningar/bill-12/nummar/551122');

    const totals = totalsCard();
    expect(valueOf(totals, 'Uttan MVG')).toBe('397,60 kr.');
    expect(valueOf(totals, 'MVG 25 %')).toBe('99,40 kr.');
    expect(valueOf(totals, 'Tilsamans við MVG')).toBe('497,00 kr.');
  });

  it('unpaid: the bank transfer details, the reference with a copy button', async () => {
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(window.navigator, 'clipboard', {
      value: { writeText },
      configurable: true,
    });
    await open();
    const bank = await screen.findByRole('region', { name: 'Gjald við bankaflyting' });
    expect(valueOf(bank, 'Kontonummar')).toContain('6460 1234567');
    expect(valueOf(bank, 'IBAN')).toContain('FO97 6460 0001 2345 67');
    expect(valueOf(bank, 'Tilvísing')).toContain('000000422');
    expect(valueOf(bank, 'Upphædd')).toBe('497,00 kr.');
    expect(within(bank).getAllByText('Gjaldsdagur')[0]?.nextSibling?.textContent).toBe(
      '15.12.2026',
    );
    await userEvent.click(within(bank).getByRole('button', { name: 'Avrita Tilvísing' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith('000000422'));
    expect(await screen.findByText('Tilvísing: avritað')).toBeTruthy();
  });

  it('paid: when and how, and no bank transfer', async () => {
    await open({ 'GET /bills/bill-11': () => ok(paidBill) }, '/menu/rokningar/bill-11');
    const paid = await screen.findByText(/^Goldin 03\.11\.2026 við Visa/);
    expect(paid.textContent).toBe('Goldin 03.11.2026 við Visa\u00a0••••\u00a04242');
    expect(
      within(screen.getByRole('region', { name: 'oktober 2026' })).getByText('Goldin'),
    ).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Gjald við bankaflyting' })).toBeNull();
    expect(screen.queryByText('Tilvísing')).toBeNull();
  });

  it('partly paid: what is paid and what is left', async () => {
    await open({
      'GET /bills/bill-12': () =>
        ok({
          ...openBill,
          state: 'partly_paid',
          paidOere: 20000,
          payment: {
            method: 'agreement',
            paidAt: '2026-12-05T09:00:00.000Z',
            cardBrand: null,
            cardLast4: null,
          },
          bankTransfer: { ...openBill.bankTransfer!, amountOere: 29700 },
        }),
    });
    await screen.findByText('Uttan MVG');
    const totals = totalsCard();
    expect(valueOf(totals, 'Goldið higartil')).toBe('200,00 kr.');
    expect(valueOf(totals, 'Eftir at gjalda')).toBe('297,00 kr.');
    expect(within(totals).getByText('Goldin 05.12.2026 við gjaldsavtalu')).toBeTruthy();
    const bank = screen.getByRole('region', { name: 'Gjald við bankaflyting' });
    expect(valueOf(bank, 'Upphædd')).toBe('297,00 kr.');
    expect(screen.getAllByText('Partvís goldin').length).toBeGreaterThan(0);
  });

  it('"Tak niður PDF" fetches the PDF with the bearer token and saves it as a file', async () => {
    const app = await open({
      'GET /bills/bill-12/pdf': () =>
        new Response(pdfBytes, { headers: { 'Content-Type': 'application/pdf' } }),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Tak niður PDF' }));
    await waitFor(() => expect(clicked).toHaveLength(1));
    const [request] = app.api.callsTo('GET /bills/bill-12/pdf');
    expect(request?.headers.authorization).toBe('Bearer access-1');
    expect(request?.headers.accept).toBe('application/pdf');
    expect(clicked[0]?.download).toBe('rokning-R-000042.pdf');
    expect(clicked[0]?.href).toBe('blob:bill-12');
    const blob = createObjectURL.mock.calls[0]?.[0];
    expect(new TextDecoder().decode(await blob?.arrayBuffer()).startsWith('%PDF')).toBe(true);
  });

  it('ADR 0054 native shell: "Tak niður PDF" opens a pre-signed link in the in-app browser', async () => {
    overridePlatform('ios');
    try {
      const app = await open({
        'POST /bills/bill-12/pdf-link': () =>
          ok({
            path: '/bill-files/bill-12?lang=fo&expires=1&signature=abc',
            expiresAt: '2026-12-02T10:05:00.000Z',
          }),
      });
      await userEvent.click(await screen.findByRole('button', { name: 'Tak niður PDF' }));
      await waitFor(() =>
        expect(browserOpen.urls).toEqual([
          '/api/bill-files/bill-12?lang=fo&expires=1&signature=abc',
        ]),
      );
      expect(app.api.callsTo('GET /bills/bill-12/pdf')).toHaveLength(0);
      expect(clicked).toHaveLength(0);
    } finally {
      overridePlatform(null);
    }
  });

  it('e-mails it and says where to; each failure has its own message', async () => {
    const app = await open({
      'POST /bills/bill-12/email': () => ok({ ok: true, sentTo: 'rannva@example.fo' }),
      'GET /bills/bill-12/pdf': () => fail(500, 'INTERNAL'),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Send mær við telduposti' }));
    expect(await screen.findByText('Rokningin er send til rannva@example.fo')).toBeTruthy();
    expect(app.api.callsTo('POST /bills/bill-12/email')).toHaveLength(1);

    await userEvent.click(screen.getByRole('button', { name: 'Tak niður PDF' }));
    expect(await screen.findByText('Vit kundu ikki taka rokningina niður.')).toBeTruthy();
    expect(clicked).toHaveLength(0);
    app.api.on('POST /bills/bill-12/email', () => fail(502, 'EMAIL_FAILED'));
    await userEvent.click(screen.getByRole('button', { name: 'Send mær við telduposti' }));
    expect(await screen.findByText('Vit kundu ikki senda rokningina við telduposti.')).toBeTruthy();
  });

  it("a family member sees their own part, told so, without the PDF or e-mail (they are the payer's)", async () => {
    await open({ 'GET /bills/bill-12': () => ok(memberBill) });
    const section = await screen.findByRole('region', { name: '55 11 22' });
    expect(within(section).getAllByRole('listitem')).toHaveLength(2);
    expect(screen.queryByRole('region', { name: /21 43 65/ })).toBeNull();
    expect(screen.getByRole('status').textContent).toContain('Tú sært bert tín part av rokningini');
    expect(screen.queryByRole('button', { name: 'Tak niður PDF' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Send mær við telduposti' })).toBeNull();
  });

  it('the payer has the PDF and e-mail buttons', async () => {
    await open();
    expect(await screen.findByRole('button', { name: 'Tak niður PDF' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Send mær við telduposti' })).toBeTruthy();
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('a bill that cannot be fetched says so, with a retry', async () => {
    const app = await open({ 'GET /bills/bill-12': () => fail(503, 'SERVICE_UNAVAILABLE') });
    expect(await screen.findByText('Vit kundu ikki heinta rokningina.')).toBeTruthy();
    app.api.on('GET /bills/bill-12', () => ok(openBill));
    await userEvent.click(screen.getByRole('button', { name: 'Royn aftur' }));
    expect(await screen.findByRole('region', { name: 'november 2026' })).toBeTruthy();
  });
});
