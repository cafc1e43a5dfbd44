import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ok } from '@/test/fake-api';
import {
  joannesDetail,
  joensenFamily,
  newCustomer,
  ownerData,
  ownerSubscriptions,
} from '@/test/account-fixtures';
import { demoUser } from '@/test/fixtures';
import { renderApp } from '@/test/render';

describe('manage subscription (SPEC §2 umsit-hald/:phoneNumber, owner only)', () => {
  it('shows the number, plan, price with and without VAT, data and settings', async () => {
    const app = await renderApp({
      user: demoUser,
      data: ownerData,
      initialEntries: ['/umsit-hald/214455'],
      api: { 'GET /subscriptions/sub-joannes': () => ok(joannesDetail) },
    });
    expect(await screen.findByText('Jóannes Joensen')).toBeTruthy();
    const plan = screen.getByRole('region', { name: 'Familjuhald' });
    expect(plan.textContent).toContain('299,00 kr. um mánaðin');
    expect(plan.textContent).toContain('239,20 kr. uttan MVG · MVG 59,80 kr.');
    const data = screen.getByRole('region', { name: 'Data hendan mánaðin' });
    expect(
      within(data).getByRole('meter', { name: 'Í Føroyum' }).getAttribute('aria-valuetext'),
    ).toBe('30 GB eftir av 50 GB');
    expect(within(data).getByText('Dagført 12.05.2025 kl. 14:32')).toBeTruthy();
    expect(screen.getByText('6 mánaðir')).toBeTruthy();
    // The number's usage history (issue 16, ADR 0066).
    expect(screen.getByRole('link', { name: 'Nýtsla' }).getAttribute('href')).toBe(
      '/nytsla/sub-joannes',
    );
    expect(app.api.callsTo('GET /subscriptions/sub-joannes')).toHaveLength(1);
  });

  it('leads to buying extra data for this number (no top-up: it is not prepaid)', async () => {
    const app = await renderApp({
      user: demoUser,
      data: ownerData,
      initialEntries: ['/umsit-hald/214455'],
      api: { 'GET /subscriptions/sub-joannes': () => ok(joannesDetail) },
    });
    const buy = await screen.findByRole('link', { name: 'Keyp eyka data' });
    expect(screen.queryByRole('link', { name: 'Fyll uppá' })).toBeNull();
    await userEvent.click(buy);
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/keyp-pakka'));
    expect(app.router.state.location.search).toBe('?nummar=214455');
  });

  it('is opened from home by the owner', async () => {
    const app = await renderApp({
      user: demoUser,
      data: ownerData,
      api: { 'GET /subscriptions/sub-joannes': () => ok(joannesDetail) },
    });
    await userEvent.click(await screen.findByRole('link', { name: 'Umsit haldið' }));
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/umsit-hald/214455'));
    expect(await screen.findByText('Jóannes Joensen')).toBeTruthy();
  });

  it('says so when the number is not one of the customer’s', async () => {
    await renderApp({ user: demoUser, data: ownerData, initialEntries: ['/umsit-hald/999999'] });
    expect(await screen.findByRole('heading', { name: 'Nummarið finst ikki' })).toBeTruthy();
  });
});

describe('manage family subscription (SPEC §2 umsit-familju-hald, §4 family capacity and prices)', () => {
  it("shows each member's price by position, the month's total with and without VAT and the next member's price", async () => {
    await renderApp({ user: demoUser, data: ownerData, initialEntries: ['/umsit-familju-hald'] });
    const plan = await screen.findByRole('region', { name: 'Familjuhald' });
    // 299 kr. for the first member, 99 kr. for the second: 398 kr. a month.
    expect(plan.textContent).toContain('398,00 kr. um mánaðin');
    expect(plan.textContent).toContain('318,40 kr. uttan MVG · MVG 79,60 kr.');
    expect(plan.textContent).toContain('2 av 5 limum');
    expect(plan.textContent).toContain('Ein limur afturat kostar +49 kr. um mánaðin.');
    const members = screen.getByRole('region', { name: 'Limir' });
    const rows = within(members).getAllByRole('listitem');
    expect(rows[0]?.textContent).toContain('Jóannes Joensen · tú');
    expect(rows[0]?.textContent).toContain('299,00 kr.');
    expect(rows[1]?.textContent).toContain('Sunneva Joensen');
    expect(rows[1]?.textContent).toContain('99,00 kr.');
    expect(rows[2]?.textContent).toContain('Bárður Joensen');
    expect(rows[2]?.textContent).toContain('Í gerðkann taka nakrar dagar');
    expect(members.textContent).not.toContain('Rógvi');
  });

  it('says the customer has no family plan (and shows the plans) when there is none', async () => {
    await renderApp({
      user: demoUser,
      data: {
        ...ownerData,
        subscriptions: {
          ...ownerSubscriptions,
          currentAccount: { ...joensenFamily, type: 'individual_plan', family: null },
        },
      },
      initialEntries: ['/umsit-familju-hald'],
    });
    expect(await screen.findByRole('heading', { name: 'Einki familjuhald' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Sí hald okkara' }).getAttribute('href')).toBe(
      '/menu/hald',
    );
  });

  it('is in English too', async () => {
    await renderApp({
      user: demoUser,
      data: ownerData,
      locale: 'en',
      initialEntries: ['/umsit-familju-hald'],
    });
    const plan = await screen.findByRole('region', { name: 'Family plan' });
    expect(plan.textContent).toContain('398.00 kr. a month');
    expect(plan.textContent).toContain('318.40 kr. excl. VAT · VAT 79.60 kr.');
  });

  it('keeps an owner without data out of nothing: no family plan, no crash', async () => {
    await renderApp({
      user: demoUser,
      data: { ...ownerData, subscriptions: newCustomer },
      initialEntries: ['/umsit-familju-hald'],
    });
    expect(await screen.findByRole('heading', { name: 'Einki familjuhald' })).toBeTruthy();
  });
});
