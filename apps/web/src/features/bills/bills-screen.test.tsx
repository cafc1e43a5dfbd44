import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { billList, billSummary } from '@/test/bill-fixtures';
import { deferred, fail, ok, quietPolls } from '@/test/fake-api';
import { demoUser } from '@/test/fixtures';
import { renderApp } from '@/test/render';

const rowsOf = async () =>
  within(await screen.findByRole('list', { name: 'Rokningar' })).getAllByRole('listitem');

describe('bills /menu/rokningar (ADR 0098)', () => {
  it('is reached from the menu next to the receipts and lists month, total, state and when paid or due, as the API orders them', async () => {
    const app = await renderApp({
      user: demoUser,
      initialEntries: ['/menu'],
      api: { ...quietPolls, 'GET /bills': () => ok({ items: billList }) },
    });
    const menuLink = await screen.findByRole('link', { name: 'Rokningar' });
    expect(menuLink.getAttribute('href')).toBe('/menu/rokningar');
    // Right after the receipts in the menu.
    const links = screen.getAllByRole('link').map((link) => link.textContent);
    expect(links.indexOf('Rokningar')).toBe(links.indexOf('Kvittanir') + 1);
    await userEvent.click(menuLink);

    const rows = await rowsOf();
    expect(rows).toHaveLength(4);
    const [open, paid, partly, overdue] = rows as [HTMLElement, ...HTMLElement[]];
    // The newest first, as the API sends them; the month is the contract's formatMonth.
    expect(open.textContent).toContain('november 2026');
    expect(open.textContent).toContain('497,00 kr.');
    expect(within(open).getByText('Ógoldin')).toBeTruthy();
    expect(open.textContent).toContain('Gjaldsdagur 15. des.');
    expect(within(open).getByRole('link').getAttribute('href')).toBe('/menu/rokningar/bill-12');

    expect(paid?.textContent).toContain('oktober 2026');
    expect(within(paid!).getByText('Goldin')).toBeTruthy();
    expect(paid?.textContent).toContain('Goldin 3. nov. við MobilePay');
    expect(paid?.textContent).not.toContain('Gjaldsdagur');

    expect(within(partly!).getByText('Partvís goldin')).toBeTruthy();
    expect(partly?.textContent).toContain('Gjaldsdagur 15. okt.');
    expect(within(overdue!).getByText('Farin um gjaldsdag')).toBeTruthy();
    expect(overdue?.textContent).toContain('Gjaldsdagur 15. sep.');

    // The state is a word and an icon of its own, not the colour alone.
    const badge = within(paid!).getByText('Goldin');
    expect(badge.querySelector('svg')).toBeTruthy();
    expect(app.api.callsTo('GET /bills')).toHaveLength(1);
    expect(screen.queryByText(/Tú sært bert tín part/)).toBeNull();
  });

  it('in English: the states, due and paid dates in English', async () => {
    await renderApp({
      user: demoUser,
      locale: 'en',
      initialEntries: ['/menu/rokningar'],
      api: { ...quietPolls, 'GET /bills': () => ok({ items: billList }) },
    });
    const rows = within(await screen.findByRole('list', { name: 'Bills' })).getAllByRole(
      'listitem',
    );
    expect(rows[0]?.textContent).toContain('November 2026');
    expect(within(rows[0]!).getByText('Unpaid')).toBeTruthy();
    expect(rows[0]?.textContent).toContain('Due 15 Dec');
    expect(rows[1]?.textContent).toContain('Paid 3 Nov with MobilePay');
    expect(within(rows[2]!).getByText('Partly paid')).toBeTruthy();
    expect(within(rows[3]!).getByText('Overdue')).toBeTruthy();
  });

  it('a family member is told they see only their own number', async () => {
    await renderApp({
      user: demoUser,
      initialEntries: ['/menu/rokningar'],
      api: {
        ...quietPolls,
        'GET /bills': () => ok({ items: [billSummary({ scope: 'member' })] }),
      },
    });
    expect(await rowsOf()).toHaveLength(1);
    expect(screen.getByRole('status').textContent).toContain(
      'Tú sært bert tín part av rokningunum',
    );
  });

  it('shows placeholders while it loads', async () => {
    const answer = deferred<Response>();
    await renderApp({
      user: demoUser,
      initialEntries: ['/menu/rokningar'],
      api: { ...quietPolls, 'GET /bills': () => answer.promise },
    });
    expect(await screen.findByLabelText('Heintar…')).toBeTruthy();
    answer.resolve(ok({ items: billList }));
    expect(await rowsOf()).toHaveLength(4);
    expect(screen.queryByLabelText('Heintar…')).toBeNull();
  });

  it('says there is no bill yet', async () => {
    await renderApp({
      user: demoUser,
      initialEntries: ['/menu/rokningar'],
      api: { ...quietPolls, 'GET /bills': () => ok({ items: [] }) },
    });
    expect(await screen.findByRole('heading', { name: 'Eingin rokning enn' })).toBeTruthy();
    expect(screen.getByText('Fyrsta rokningin kemur, tá ið mánaðurin er liðin.')).toBeTruthy();
  });

  it('a list that cannot be fetched says so, with a retry', async () => {
    const app = await renderApp({
      user: demoUser,
      initialEntries: ['/menu/rokningar'],
      api: { ...quietPolls, 'GET /bills': () => fail(503, 'SERVICE_UNAVAILABLE') },
    });
    expect(await screen.findByText('Vit kundu ikki heinta rokningarnar.')).toBeTruthy();
    app.api.on('GET /bills', () => ok({ items: billList }));
    await userEvent.click(screen.getByRole('button', { name: 'Royn aftur' }));
    expect(await rowsOf()).toHaveLength(4);
  });
});
