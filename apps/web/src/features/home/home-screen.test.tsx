import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ok } from '@/test/fake-api';
import { demoUser, noSubscriptions, processingOrder, subscriptionsWithPlan } from '@/test/fixtures';
import { renderApp } from '@/test/render';

describe('home (SPEC §2 /)', () => {
  it('greets the user by name and summarises the current account from the loaded subscriptions', async () => {
    await renderApp({ user: demoUser, data: { subscriptions: subscriptionsWithPlan, orders: [] } });
    expect(await screen.findByRole('heading', { level: 1, name: /Rannvá/ })).toBeTruthy();
    const summary = screen
      .getByRole('heading', { name: 'Títt hald' })
      .closest('div')!.parentElement!;
    expect(summary.textContent).toContain('Familjuhald');
    expect(summary.textContent).toContain('21 43 65');
    expect(summary.textContent).toContain('20 GB');
    expect(summary.textContent).toContain('2 limir');
  });

  it('notes a main subscription still being processed (SPEC §4 "Orders")', async () => {
    await renderApp({
      user: demoUser,
      data: { subscriptions: subscriptionsWithPlan, orders: [processingOrder] },
    });
    expect(await screen.findByText(/Haldið verður gjøgnumført/)).toBeTruthy();
  });

  it('shows an honest empty state, not made-up data, when the subscriptions did not load (SPEC §1)', async () => {
    await renderApp({ user: demoUser });
    expect(await screen.findByRole('heading', { name: 'Hald tíni' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Títt hald' })).toBeNull();
  });

  it('loads the account data again on retry and shows it when it arrives', async () => {
    const app = await renderApp({
      user: demoUser,
      data: { orders: [] },
      api: { 'GET /subscriptions': () => ok(subscriptionsWithPlan) },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Royn aftur' }));
    expect(await screen.findByRole('heading', { name: 'Títt hald' })).toBeTruthy();
    expect(app.api.callsTo('GET /subscriptions')).toHaveLength(1);
  });

  it('does not show the summary for a user without a current account', async () => {
    await renderApp({
      user: demoUser,
      data: { subscriptions: noSubscriptions, orders: [processingOrder] },
    });
    expect(await screen.findByRole('heading', { name: 'Hald tíni' })).toBeTruthy();
  });
});

describe('welcome (SPEC §2 /valkomin)', () => {
  it('welcomes a customer without a subscription with the roaming offer facts (SPEC §1)', async () => {
    await renderApp({
      user: demoUser,
      data: { subscriptions: noSubscriptions, orders: [] },
      locale: 'en',
    });
    expect(await screen.findByRole('heading', { name: 'Welcome to Alda, Rannvá!' })).toBeTruthy();
    expect(screen.getByText('20 hours of calls')).toBeTruthy();
    expect(screen.getByText('Free SMS')).toBeTruthy();
    expect(screen.getByText('Up to 50 GB of data')).toBeTruthy();
  });
});

describe('profile (SPEC §2 /min-brukari)', () => {
  it("shows the user's details read-only", async () => {
    await renderApp({ user: demoUser, initialEntries: ['/min-brukari'] });
    expect(await screen.findByText('Rannvá Joensen')).toBeTruthy();
    expect(screen.getByText('rannva@example.fo')).toBeTruthy();
    expect(screen.getByText('21 43 65')).toBeTruthy();
    expect(screen.getByText('12.04.1988')).toBeTruthy();
    expect(screen.getByText('100 Tórshavn')).toBeTruthy();
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(screen.getByRole('button', { name: 'Rita út' })).toBeTruthy();
  });
});
