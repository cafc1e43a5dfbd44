import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fail, ok } from '@/test/fake-api';
import {
  addingBardur,
  memberSubscriptions,
  ownerData,
  ownerOrders,
  sunneva,
  sunnevaDetail,
} from '@/test/account-fixtures';
import { demoUser } from '@/test/fixtures';
import { renderApp } from '@/test/render';

describe('family member detail (SPEC §2 familju-limur/:id, owner only)', () => {
  it("shows the member's data, plan and monthly price with and without VAT (SPEC §9)", async () => {
    const app = await renderApp({
      user: demoUser,
      data: ownerData,
      initialEntries: ['/familju-limur/sub-sunneva'],
      api: { 'GET /subscriptions/sub-sunneva': () => ok(sunnevaDetail) },
    });
    expect(await screen.findByRole('heading', { level: 2, name: 'Sunneva Joensen' })).toBeTruthy();
    expect(screen.getByText('21 44 56')).toBeTruthy();
    const ring = screen.getByRole('meter', { name: 'Data eftir í Føroyum' });
    expect(ring.getAttribute('aria-valuetext')).toBe('2 GB eftir av 50 GB');
    const plan = screen.getByRole('region', { name: 'Familjuhald' });
    expect(plan.textContent).toContain('50 GB');
    expect(plan.textContent).toContain('99,00 kr. um mánaðin');
    expect(plan.textContent).toContain('79,20 kr. uttan MVG · MVG 19,80 kr.');
    expect(screen.getByText('eSIM')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Umsit haldið' }).getAttribute('href')).toBe(
      '/umsit-hald/214456',
    );
    // The member's usage history (issue 16, ADR 0066).
    expect(screen.getByRole('link', { name: 'Nýtsla' }).getAttribute('href')).toBe(
      '/nytsla/sub-sunneva',
    );
    expect(app.api.callsTo('GET /subscriptions/sub-sunneva')).toHaveLength(1);
    // The owner's lifecycle actions for the member (ADR 0056; tested in manage-lifecycle.test).
    expect(screen.getByRole('button', { name: 'Tak úr familjuni' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Strika nummarið' })).toBeTruthy();
  });

  it("shows the API's refusal with a retry (403 OWNER_ONLY, SPEC §6)", async () => {
    let answer = () => fail(403, 'OWNER_ONLY', 'Only the owner');
    await renderApp({
      user: demoUser,
      data: ownerData,
      initialEntries: ['/familju-limur/sub-sunneva'],
      api: { 'GET /subscriptions/sub-sunneva': () => answer() },
    });
    expect(await screen.findByRole('alert')).toBeTruthy();
    answer = () => ok(sunnevaDetail);
    await userEvent.click(screen.getByRole('button', { name: 'Royn aftur' }));
    expect(await screen.findByRole('heading', { level: 2, name: 'Sunneva Joensen' })).toBeTruthy();
  });

  it('is reached from the family on home', async () => {
    const app = await renderApp({
      user: demoUser,
      data: ownerData,
      api: { 'GET /subscriptions/sub-sunneva': () => ok(sunnevaDetail) },
    });
    await userEvent.click(await screen.findByRole('link', { name: /Sunneva Joensen/ }));
    await waitFor(() =>
      expect(app.router.state.location.pathname).toBe('/familju-limur/sub-sunneva'),
    );
    expect(await screen.findByRole('heading', { level: 2, name: 'Sunneva Joensen' })).toBeTruthy();
  });
});

describe('family member in processing (SPEC §2 familju-limur/vidgerd/:phoneNumber, §4)', () => {
  it('says the member is being added and that it can take days', async () => {
    await renderApp({
      user: demoUser,
      data: ownerData,
      initialEntries: ['/familju-limur/vidgerd/214457'],
    });
    expect(await screen.findByText('Bárður Joensen')).toBeTruthy();
    expect(screen.getAllByText('Í gerð – kann taka nakrar dagar').length).toBeGreaterThan(0);
    const steps = screen.getByRole('region', { name: 'Soleiðis gongst' });
    expect(within(steps).getByText('20.05.2025')).toBeTruthy();
    expect(steps.querySelector('[aria-current="step"]')?.textContent).toContain('Í gerð');
    expect(screen.getByText('Nýggjur familjulimur')).toBeTruthy();
    expect(screen.getByText('49,00 kr.')).toBeTruthy();
    expect(screen.getByText('39,20 kr. uttan MVG · MVG 9,80 kr.')).toBeTruthy();
  });

  it('points to the member once the number is set up', async () => {
    await renderApp({
      user: demoUser,
      data: {
        ...ownerData,
        orders: ownerOrders.map((o) => (o.id === addingBardur.id ? { ...o, isComplete: true } : o)),
        subscriptions: {
          ...ownerData.subscriptions,
          currentAccount: {
            ...ownerData.subscriptions.currentAccount!,
            members: [
              ...ownerData.subscriptions.currentAccount!.members,
              { ...sunneva, id: 'sub-bardur', phoneNumber: '214457' },
            ],
          },
        },
      },
      initialEntries: ['/familju-limur/vidgerd/214457'],
    });
    expect(await screen.findByRole('heading', { name: 'Nummarið er klárt' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Opna limin' }).getAttribute('href')).toBe(
      '/familju-limur/sub-bardur',
    );
  });
});

describe('owner-only routes with real-shaped data (SPEC §2 "Owner routes send non-owners to home", §6)', () => {
  it.each([
    '/familju-limur/sub-joannes',
    '/familju-limur/vidgerd/214457',
    '/umsit-hald/214455',
    '/umsit-familju-hald',
  ])('sends a family member who is not the owner from %s to home', async (path) => {
    const app = await renderApp({
      user: { ...demoUser, firstname: 'Sunneva' },
      data: { ...ownerData, subscriptions: memberSubscriptions },
      initialEntries: [path],
    });
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/'));
    expect(await screen.findByRole('meter', { name: 'Data eftir í Føroyum' })).toBeTruthy();
    expect(app.api.requests.filter((r) => r.path.startsWith('/subscriptions/'))).toHaveLength(0);
  });
});
