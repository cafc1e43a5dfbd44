import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Plan } from '@alda/contract/schemas/plans';
import { ok } from '@/test/fake-api';
import { individualPlan, ownerData } from '@/test/account-fixtures';
import { demoUser } from '@/test/fixtures';
import { renderApp } from '@/test/render';

describe('plans (SPEC §1 "view plans", §3 "Plan", §9 VAT)', () => {
  it('lists every plan type with its plans, data and price with and without VAT, marking the own plan', async () => {
    await renderApp({ user: demoUser, data: ownerData, initialEntries: ['/menu/hald'] });
    const family = await screen.findByRole('region', { name: 'Familjuhald' });
    const own = within(family).getByRole('link', { name: /50 GB/ });
    expect(own.getAttribute('aria-current')).toBe('true');
    expect(own.textContent).toContain('Títt hald');
    expect(own.textContent).toContain('50 GB til hvønn lim · upp til 5 limir');
    expect(own.textContent).toContain('299,00 kr. um mánaðin');
    const individual = screen.getByRole('region', { name: 'Einstaklingahald' });
    const unlimited = within(individual).getByRole('link', { name: /Óavmarkað/ });
    expect(unlimited.textContent).toContain('Óavmarkað data um mánaðin');
    expect(within(individual).getByRole('link', { name: /10 GB/ }).textContent).toContain(
      '119,20 kr. uttan MVG · MVG 29,80 kr.',
    );
  });

  it("opens a plan with each member's price by position (SPEC §4)", async () => {
    const app = await renderApp({
      user: demoUser,
      data: ownerData,
      initialEntries: ['/menu/hald'],
    });
    await userEvent.click(await screen.findByRole('link', { name: /50 GB/ }));
    await waitFor(() =>
      expect(app.router.state.location.pathname).toBe('/menu/hald/plan-family-50'),
    );
    const prices = await screen.findByRole('region', { name: 'Prísur fyri hvønn lim' });
    const rows = within(prices).getAllByRole('term');
    expect(rows).toHaveLength(5);
    expect(prices.textContent).toContain('Limur 1299,00 kr. um mánaðin');
    expect(prices.textContent).toContain('Limur 299,00 kr. um mánaðin');
    // Capped at the last entry from the third member on.
    expect(prices.textContent).toContain('Limur 549,00 kr. um mánaðin');
    // From the plan list: no request.
    expect(app.api.callsTo('GET /plans/plan-family-50')).toHaveLength(0);
  });

  it('asks GET /plans/{id} for a plan the list does not carry', async () => {
    const prepaid: Plan = {
      ...individualPlan,
      planId: 'plan-prepaid',
      type: 'prepaid',
      name: 'Talutíð',
      dataMb: 1024,
      memberPrices: [{ price: 0 }],
      euPackage: null,
      commitmentMonths: 0,
      planTypeName: 'Talutíð',
    };
    const app = await renderApp({
      user: demoUser,
      data: ownerData,
      initialEntries: ['/menu/hald/plan-prepaid'],
      api: { 'GET /plans/plan-prepaid': () => ok(prepaid) },
    });
    expect(await screen.findByText('Eingin bindingartíð')).toBeTruthy();
    expect(app.api.callsTo('GET /plans/plan-prepaid')).toHaveLength(1);
  });

  it('is linked from the menu, in English too', async () => {
    const app = await renderApp({
      user: demoUser,
      data: ownerData,
      locale: 'en',
      initialEntries: ['/menu'],
    });
    await userEvent.click(await screen.findByRole('link', { name: 'Plans and prices' }));
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/menu/hald'));
    expect(await screen.findByText('All our plans with their monthly price.')).toBeTruthy();
  });
});
