import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { formatDate } from '@alda/contract/format/date';
import { fail, ok } from '@/test/fake-api';
import { demoUser } from '@/test/fixtures';
import { renderApp } from '@/test/render';
import {
  annaDetail,
  annaSubscriptions,
  annaWith,
  lifecycleOrder,
  lifecyclePlans,
  nextMonth,
} from '@/test/lifecycle-fixtures';
import { dialogClosed } from '@/test/dialogs';

const placed = (action: 'plan_upgrade' | 'plan_downgrade', effectiveAt: Date) =>
  ok({
    order: lifecycleOrder({
      id: 'order-change',
      kind: 'plan_change',
      lifecycle: {
        action,
        effectiveAt: effectiveAt.toISOString(),
        fromPlanId: 'plan-individual-20',
        canWithdraw: action === 'plan_downgrade',
      },
    }),
    paymentUrl: null,
  });

function open(options: { orders?: unknown[]; api?: Record<string, () => Response> } = {}) {
  return renderApp({
    user: demoUser,
    data: {
      subscriptions: annaSubscriptions(),
      orders: options.orders ?? [],
      plans: lifecyclePlans,
    },
    initialEntries: ['/dagfor-hald/sub-anna'],
    api: { 'GET /subscriptions/sub-anna': () => ok(annaDetail()), ...options.api },
  });
}

describe('plan change (SPEC §2 subscription-update, /dagfor-hald/:id)', () => {
  it('SPEC §4 Subscription lifecycle: a smaller plan takes effect at month end and warns that the rollover is deleted, with the amount', async () => {
    const app = await open({
      api: { 'PATCH /subscriptions/sub-anna': () => placed('plan_downgrade', nextMonth()) },
    });
    const user = userEvent.setup();
    const current = await screen.findByRole('region', { name: 'Núverandi hald' });
    expect(current.textContent).toContain('20 GB');
    expect(current.textContent).toContain('199,00 kr. um mánaðin');
    // The other plans of the same type only (no family plan, not the current one).
    const radios = screen.getAllByRole('radio');
    expect(radios.map((r) => (r as HTMLInputElement).value)).toEqual([
      'plan-individual-10',
      'plan-individual-unlimited',
    ]);

    await user.click(screen.getByRole('radio', { name: /10 GB/ }));
    const date = formatDate(nextMonth());
    const effect = screen.getByRole('region', { name: 'Hetta hendir' });
    expect(effect.textContent).toContain(`Broytingin kemur í gildi ${date}`);
    // 7 GB left of a 20 GB plan would carry over: that is what the smaller plan deletes.
    expect(effect.textContent).toContain('Tú missir 7 GB av goymdum data (rollover).');
    expect(effect.textContent).toContain('2 GB av tí, tú hevur nú, eru goymd frá seinasta mánaði.');
    expect(effect.textContent).toContain(`Frá ${date} kostar haldið 149,00 kr. um mánaðin.`);

    await user.click(screen.getByRole('button', { name: 'Halt fram' }));
    const dialog = await screen.findByRole('dialog', { name: 'Skift til 10 GB?' });
    expect(dialog.textContent).toContain('Tú missir 7 GB av goymdum data (rollover).');
    await user.click(within(dialog).getByRole('button', { name: 'Dagfør hald' }));

    await waitFor(() =>
      expect(app.router.state.location.pathname).toBe('/menu/bilegingar/order-change'),
    );
    const [patch] = app.api.callsTo('PATCH /subscriptions/sub-anna');
    expect(patch?.body).toEqual({ planId: 'plan-individual-10' });
    expect(patch?.headers['idempotency-key']).toBeTruthy();
  });

  it('SPEC §4 Subscription lifecycle: a bigger plan takes effect now, without a rollover warning', async () => {
    await open();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('radio', { name: /Óavmarkað/ }));
    const effect = screen.getByRole('region', { name: 'Hetta hendir' });
    expect(effect.textContent).toContain('Broytingin kemur í gildi beinanvegin');
    expect(effect.textContent).toContain(
      'Tú gjaldar 299,00 kr. um mánaðin frá næsta mánaðargjaldi.',
    );
    expect(effect.textContent).not.toContain('rollover');
  });

  it('a retry of the same confirm after no answer keeps its Idempotency-Key (the order is placed once)', async () => {
    let attempt = 0;
    const app = await open({
      api: {
        'PATCH /subscriptions/sub-anna': () => {
          attempt += 1;
          if (attempt === 1) throw new TypeError('Failed to fetch');
          return placed('plan_upgrade', new Date());
        },
      },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('radio', { name: /Óavmarkað/ }));
    await user.click(screen.getByRole('button', { name: 'Halt fram' }));
    let dialog = await screen.findByRole('dialog', { name: 'Skift til Óavmarkað?' });
    await user.click(within(dialog).getByRole('button', { name: 'Dagfør hald' }));
    expect(
      await screen.findByText('Vit náddu ikki ambætaran. Kanna netsambandið og royn aftur.'),
    ).toBeTruthy();
    await dialogClosed();

    await user.click(screen.getByRole('button', { name: 'Halt fram' }));
    dialog = await screen.findByRole('dialog', { name: 'Skift til Óavmarkað?' });
    await user.click(within(dialog).getByRole('button', { name: 'Dagfør hald' }));
    await waitFor(() =>
      expect(app.router.state.location.pathname).toBe('/menu/bilegingar/order-change'),
    );
    const calls = app.api.callsTo('PATCH /subscriptions/sub-anna');
    expect(calls).toHaveLength(2);
    expect(calls[1]?.headers['idempotency-key']).toBe(calls[0]?.headers['idempotency-key']);
  });

  it('SPEC §8 updating a subscription: the app’s own message when the call fails without a known code, the contract’s text for a known one', async () => {
    let answer = () => fail(500, 'SOMETHING_NEW');
    await open({ api: { 'PATCH /subscriptions/sub-anna': () => answer() } });
    const user = userEvent.setup();
    const change = async () => {
      await user.click(screen.getByRole('button', { name: 'Halt fram' }));
      const dialog = await screen.findByRole('dialog', { name: 'Skift til Óavmarkað?' });
      await user.click(within(dialog).getByRole('button', { name: 'Dagfør hald' }));
    };
    await user.click(await screen.findByRole('radio', { name: /Óavmarkað/ }));
    await change();
    expect(await screen.findByText('Vit kundu ikki dagføra haldið.')).toBeTruthy();
    await dialogClosed();
    answer = () => fail(409, 'FAMILY_FULL');
    await change();
    expect(
      await screen.findByText('Familjuhaldið hevur ikki pláss fyri fleiri limum.'),
    ).toBeTruthy();
  });

  it('SPEC §4 Subscription lifecycle: plan changes are blocked while an order is processing — the reason and the order instead of the plans', async () => {
    const app = await open({
      orders: [lifecycleOrder({ id: 'order-open', kind: 'extra_package' })],
    });
    expect(
      await screen.findByText('Haldið kann ikki broytast júst nú', { exact: false }),
    ).toBeTruthy();
    expect(screen.queryAllByRole('radio')).toHaveLength(0);
    expect(screen.queryByRole('button', { name: 'Halt fram' })).toBeNull();
    await userEvent.click(screen.getByRole('link', { name: 'Sí bíleggingina' }));
    await waitFor(() =>
      expect(app.router.state.location.pathname).toBe('/menu/bilegingar/order-open'),
    );
  });

  it('SPEC §4 Subscription lifecycle: a change waiting for month end blocks too, and can be undone from here', async () => {
    const member = annaWith({
      pendingChange: {
        orderId: 'order-pending',
        action: 'plan_downgrade',
        effectiveAt: nextMonth().toISOString(),
        planId: 'plan-individual-10',
      },
    });
    const app = await renderApp({
      user: demoUser,
      data: { subscriptions: annaSubscriptions(member), orders: [], plans: lifecyclePlans },
      initialEntries: ['/dagfor-hald/sub-anna'],
      api: {
        'GET /subscriptions/sub-anna': () => ok(annaDetail(member)),
        'POST /orders/order-pending/withdraw': () =>
          ok(lifecycleOrder({ id: 'order-pending', kind: 'plan_change', isCancelled: true })),
      },
    });
    expect(await screen.findByText('Ein broyting bíðar longu')).toBeTruthy();
    expect(
      screen.getByText(`Broytist til 10 GB ${formatDate(nextMonth())}.`, { exact: false }),
    ).toBeTruthy();
    expect(screen.queryAllByRole('radio')).toHaveLength(0);
    await userEvent.click(screen.getByRole('button', { name: 'Angra' }));
    await waitFor(() =>
      expect(app.api.callsTo('POST /orders/order-pending/withdraw')).toHaveLength(1),
    );
  });

  it('is in English too', async () => {
    await renderApp({
      user: demoUser,
      locale: 'en',
      data: { subscriptions: annaSubscriptions(), orders: [], plans: lifecyclePlans },
      initialEntries: ['/dagfor-hald/sub-anna'],
      api: { 'GET /subscriptions/sub-anna': () => ok(annaDetail()) },
    });
    await userEvent.click(await screen.findByRole('radio', { name: /10 GB/ }));
    const effect = screen.getByRole('region', { name: 'What happens' });
    expect(effect.textContent).toContain('You lose 7 GB of saved data (rollover).');
  });
});
