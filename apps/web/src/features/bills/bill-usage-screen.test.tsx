import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { BillUsageItem } from '@alda/contract/schemas/bills';
import { openBill, usageItem, usagePage } from '@/test/bill-fixtures';
import { fail, ok, quietPolls, type Handler, type RecordedRequest } from '@/test/fake-api';
import { demoUser } from '@/test/fixtures';
import { renderApp } from '@/test/render';

/** Rannvá's own number in November 2026: two days of calls and SMS, one of data abroad, a call to the UK. */
const month: BillUsageItem[] = [
  usageItem(),
  usageItem({
    occurredAt: '2026-11-02T12:40:00.000Z',
    type: 'sms',
    otherParty: '551•••',
    quantity: 1,
    unit: 'count',
  }),
  usageItem({
    occurredAt: '2026-11-03T23:30:00.000Z',
    type: 'data',
    otherParty: null,
    quantity: 150,
    unit: 'MB',
    zone: 'eu',
  }),
  usageItem({
    occurredAt: '2026-11-05T18:05:00.000Z',
    otherParty: '+44 20 7946 0•••',
    quantity: 62,
    zone: 'world',
    chargeOere: 250,
    included: false,
  }),
];

const queryOf = (request: RecordedRequest) => new URL(request.url, 'http://x').searchParams;

/** The usage endpoint as the API answers it: filtered by `type`, masked unless `fullNumbers`. */
const usageOf =
  (items: BillUsageItem[], full: Record<string, string> = {}): Handler =>
  (request) => {
    const query = queryOf(request);
    const type = query.get('type');
    const fullNumbers = query.get('fullNumbers') === 'true';
    const shown = items
      .filter((item) => !type || item.type === type)
      .map((item) =>
        fullNumbers && item.otherParty
          ? { ...item, otherParty: full[item.otherParty] ?? item.otherParty }
          : item,
      );
    return ok(usagePage(shown, { fullNumbers }));
  };

const open = (phoneNumber: string, usage: Handler, locale: 'fo' | 'en' = 'fo') =>
  renderApp({
    user: demoUser,
    locale,
    initialEntries: [`/menu/rokningar/bill-12/nummar/${phoneNumber}`],
    api: {
      ...quietPolls,
      'GET /bills/bill-12': () => ok(openBill),
      'GET /bills/bill-12/usage': usage,
    },
  });

/** The rows of every day's list (not the footer's). */
const uses = () =>
  screen.queryAllByRole('region').flatMap((day) => within(day).queryAllByRole('listitem'));

const dayList = (day: string) =>
  within(screen.getByRole('region', { name: day })).getAllByRole('listitem');

describe("a number's itemised use /menu/rokningar/:billId/nummar/:phoneNumber (ADR 0098)", () => {
  it('opens from the bill, and lists the use day by day with time, type, the masked other party, length or amount, included or the charge', async () => {
    const app = await renderApp({
      user: demoUser,
      initialEntries: ['/menu/rokningar/bill-12'],
      api: {
        ...quietPolls,
        'GET /bills/bill-12': () => ok(openBill),
        'GET /bills/bill-12/usage': usageOf(month),
      },
    });
    await userEvent.click(
      await screen.findByRole('link', { name: 'Sundurgreinað nýtsla á 21 43 65' }),
    );
    expect(await screen.findByRole('heading', { level: 1, name: 'Sundurgreinað nýtsla' }));
    expect(
      await screen.findByRole('heading', { level: 2, name: '21 43 65 í november 2026' }),
    ).toBeTruthy();
    // Faroese days (23:30 UTC on 3 November is still the 3rd in Tórshavn, UTC+0 in winter).
    expect(
      screen.getAllByRole('heading', { level: 3 }).map((heading) => heading.textContent),
    ).toEqual(['mánadagur 2. nov.', 'týsdagur 3. nov.', 'hósdagur 5. nov.']);

    const [call, sms] = dayList('mánadagur 2. nov.') as [HTMLElement, HTMLElement];
    expect(within(call).getByText('08:15')).toBeTruthy();
    expect(call.querySelector('svg.lucide-phone')).toBeTruthy();
    expect(call.textContent).toContain('Samtala: 316•••');
    expect(call.textContent).toContain('3:25');
    expect(call.textContent).toContain('Innifalið');
    expect(sms.querySelector('svg.lucide-message-square')).toBeTruthy();
    expect(sms.textContent).toContain('SMS: 551•••');
    expect(sms.textContent).toContain('1 SMS');

    const [data] = dayList('týsdagur 3. nov.') as [HTMLElement];
    expect(within(data).getByText('23:30')).toBeTruthy();
    expect(data.querySelector('svg.lucide-signal')).toBeTruthy();
    expect(data.textContent).toContain('150 MB · Í ES');

    const [abroad] = dayList('hósdagur 5. nov.') as [HTMLElement];
    expect(abroad.textContent).toContain('+44 20 7946 0•••');
    expect(abroad.textContent).toContain('1:02 · Uttan fyri ES');
    expect(abroad.textContent).toContain('2,50 kr.');
    expect(abroad.textContent).not.toContain('Innifalið');

    const [request] = app.api.callsTo('GET /bills/bill-12/usage');
    expect(Object.fromEntries(queryOf(request!))).toEqual({
      phoneNumber: '214365',
      page: '1',
      perPage: '50',
    });
  });

  it('on their own number the caller may show full numbers: the toggle sends fullNumbers=true', async () => {
    const app = await open('214365', usageOf(month, { '316•••': '316 241' }));
    const toggle = await screen.findByRole('switch', { name: 'Vís full nummur' });
    expect((toggle as HTMLInputElement).checked).toBe(false);
    expect(await screen.findByText('316•••')).toBeTruthy();
    await userEvent.click(toggle);
    expect(await screen.findByText('316 241')).toBeTruthy();
    expect(screen.queryByText('316•••')).toBeNull();
    const calls = app.api.callsTo('GET /bills/bill-12/usage');
    expect(queryOf(calls.at(-1)!).get('fullNumbers')).toBe('true');
    expect(queryOf(calls[0]!).get('fullNumbers')).toBeNull();
  });

  it("on someone else's number (Sunneva's) there is no toggle, and the numbers stay masked", async () => {
    const app = await open('551122', usageOf(month));
    expect(
      await screen.findByRole('heading', { level: 2, name: '55 11 22 í november 2026' }),
    ).toBeTruthy();
    expect(screen.getByText('Sunneva')).toBeTruthy();
    expect(await screen.findByText('316•••')).toBeTruthy();
    expect(screen.getByText('+44 20 7946 0•••')).toBeTruthy();
    expect(screen.queryByRole('switch')).toBeNull();
    expect(screen.queryByText('Vís full nummur')).toBeNull();
    for (const request of app.api.callsTo('GET /bills/bill-12/usage'))
      expect(queryOf(request).get('fullNumbers')).toBeNull();
  });

  it('the filter asks for one type of use, and All for every type', async () => {
    const app = await open('214365', usageOf(month));
    const filter = await screen.findByRole('radiogroup', { name: 'Vís' });
    const option = (name: string) => within(filter).getByRole('radio', { name });
    expect(option('Alt').getAttribute('aria-checked')).toBe('true');
    expect(await screen.findByText('316•••')).toBeTruthy();

    await userEvent.click(option('SMS'));
    expect(option('SMS').getAttribute('aria-checked')).toBe('true');
    expect(option('Alt').getAttribute('aria-checked')).toBe('false');
    await waitFor(() => expect(screen.queryByText('316•••')).toBeNull());
    expect(uses()).toHaveLength(1);
    expect(queryOf(app.api.callsTo('GET /bills/bill-12/usage').at(-1)!).get('type')).toBe('sms');

    await userEvent.click(option('Samtalur'));
    await waitFor(() => expect(uses()).toHaveLength(2));
    expect(queryOf(app.api.callsTo('GET /bills/bill-12/usage').at(-1)!).get('type')).toBe('voice');

    await userEvent.click(option('Data'));
    await waitFor(() => expect(uses()).toHaveLength(1));
    expect(queryOf(app.api.callsTo('GET /bills/bill-12/usage').at(-1)!).get('type')).toBe('data');

    await userEvent.click(option('Alt'));
    await waitFor(() => expect(uses()).toHaveLength(4));
    expect(
      app.api
        .callsTo('GET /bills/bill-12/usage')
        .slice(0, 4)
        .map((request) => queryOf(request).get('type')),
    ).toEqual([null, 'sms', 'voice', 'data']);
  });

  it('"Vís fleiri" loads the next page, and is gone after the last', async () => {
    const all = Array.from({ length: 60 }, (_, i) =>
      usageItem({
        occurredAt: new Date(Date.UTC(2026, 10, 2, 0, i)).toISOString(),
        otherParty: `${300 + i}•••`,
      }),
    );
    const app = await open('214365', (request) => {
      const page = Number(queryOf(request).get('page'));
      const perPage = Number(queryOf(request).get('perPage'));
      return ok(
        usagePage(all.slice((page - 1) * perPage, page * perPage), { page, perPage, total: 60 }),
      );
    });
    await screen.findByText('300•••');
    expect(uses()).toHaveLength(50);
    expect(screen.queryByText('359•••')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Vís fleiri' }));
    await waitFor(() => expect(uses()).toHaveLength(60));
    expect(screen.getByText('359•••')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Vís fleiri' })).toBeNull();
    expect(
      app.api.callsTo('GET /bills/bill-12/usage').map((request) => queryOf(request).get('page')),
    ).toEqual(['1', '2']);
  });

  it('says when there is no use of the chosen kind', async () => {
    await open('214365', usageOf([]));
    expect(await screen.findByRole('heading', { name: 'Eingin nýtsla' })).toBeTruthy();
    expect(screen.getByText('Einki er skrásett á nummarinum í november 2026.')).toBeTruthy();
    await userEvent.click(screen.getByRole('radio', { name: 'Data' }));
    expect(
      await screen.findByText('Einki av hesum slagi er skrásett á nummarinum í november 2026.'),
    ).toBeTruthy();
  });

  it('a month whose use is no longer kept says so, without the filter or the toggle', async () => {
    await open('214365', () => ok(usagePage([], { expired: true })));
    expect(
      await screen.findByRole('heading', { name: 'Nýtslan er ikki goymd longur' }),
    ).toBeTruthy();
    expect(
      screen.getByText(
        /^Vit goyma sundurgreinaða nýtslu í 6 mánaðir\. Rokningin fyri november 2026/,
      ),
    ).toBeTruthy();
    expect(screen.queryByRole('radiogroup')).toBeNull();
    expect(screen.queryByRole('switch')).toBeNull();
  });

  it('use that cannot be fetched says so, with a retry', async () => {
    const app = await open('214365', () => fail(503, 'SERVICE_UNAVAILABLE'));
    expect(await screen.findByText('Vit kundu ikki heinta nýtsluna.')).toBeTruthy();
    app.api.on('GET /bills/bill-12/usage', usageOf(month));
    await userEvent.click(screen.getByRole('button', { name: 'Royn aftur' }));
    expect(await screen.findByText('316•••')).toBeTruthy();
  });

  it('in English', async () => {
    await open('214365', usageOf(month), 'en');
    expect(await screen.findByRole('switch', { name: 'Show full numbers' })).toBeTruthy();
    expect(
      screen.getAllByRole('heading', { level: 3 }).map((heading) => heading.textContent),
    ).toEqual(['Monday 2 Nov', 'Tuesday 3 Nov', 'Thursday 5 Nov']);
    expect(dayList('Monday 2 Nov')[0]?.textContent).toContain('Included');
    expect(dayList('Thursday 5 Nov')[0]?.textContent).toContain('Outside the EU');
  });
});
