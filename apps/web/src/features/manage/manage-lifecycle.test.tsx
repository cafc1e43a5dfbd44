import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { formatDate } from '@alda/contract/format/date';
import {
  cancellationEffectiveAt,
  lastDayBefore,
  monthsStillOwed,
  startOfNextMonth,
} from '@alda/contract/rules/lifecycle';
import { fail, ok } from '@/test/fake-api';
import { joensenFamily, ownerData, ownerSubscriptions, sunneva } from '@/test/account-fixtures';
import { demoUser } from '@/test/fixtures';
import {
  annaDetail,
  annaSubscriptions,
  annaWith,
  lifecycleOrder,
  lifecyclePlans,
  nextMonth,
} from '@/test/lifecycle-fixtures';
import { renderApp } from '@/test/render';
import { dialogClosed } from '@/test/dialogs';

const waiting = (action: 'cancel_subscription' | 'deactivate_plan') =>
  ok({
    order: lifecycleOrder({
      id: 'order-cancel',
      kind: 'cancellation',
      lifecycle: {
        action,
        effectiveAt: nextMonth().toISOString(),
        fromPlanId: null,
        canWithdraw: true,
      },
    }),
    paymentUrl: null,
  });

function openAnna(member = annaWith(), api: Record<string, () => Response> = {}) {
  return renderApp({
    user: demoUser,
    data: { subscriptions: annaSubscriptions(member), orders: [], plans: lifecyclePlans },
    initialEntries: ['/umsit-hald/557711'],
    api: {
      'GET /subscriptions': () => ok(annaSubscriptions(member)),
      'GET /subscriptions/sub-anna': () => ok(annaDetail(member)),
      'GET /orders': () => ok([]),
      ...api,
    },
  });
}

describe('the lifecycle on the manage-subscription screen (SPEC §2 umsit-hald, ADR 0056)', () => {
  it('SPEC §4 Subscription lifecycle: cancelling confirms the last day of service and the months still owed in the commitment, then cancels the account of that number', async () => {
    // The commitment ends three months from now: this month is paid as usual, two more are owed.
    const commitmentEndsAt = startOfNextMonth(startOfNextMonth(nextMonth())).toISOString();
    const now = new Date();
    const lastDay = formatDate(lastDayBefore(cancellationEffectiveAt(commitmentEndsAt, now)));
    expect(monthsStillOwed(commitmentEndsAt, now)).toBe(2);
    const app = await openAnna(annaWith({ commitmentEndsAt }), {
      'DELETE /subscriptions': () => waiting('cancel_subscription'),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Sig haldið upp' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sig haldið upp?' });
    expect(dialog.textContent).toContain(`Haldið endar ${lastDay}.`);
    expect(dialog.textContent).toContain('skalt tú enn gjalda 2 mánaðir (398,00 kr.)');
    await user.click(within(dialog).getByRole('button', { name: 'Sig upp' }));

    expect(await screen.findByText(`Haldið er sagt upp. Tað endar ${lastDay}.`)).toBeTruthy();
    const [call] = app.api.callsTo('DELETE /subscriptions');
    expect(call?.url).toContain('line=557711');
    expect(call?.headers['idempotency-key']).toBeTruthy();
    // A change waiting for month end: the screen stays, and the account data is fetched again.
    expect(app.router.state.location.pathname).toBe('/umsit-hald/557711');
    await waitFor(() => expect(app.api.callsTo('GET /subscriptions').length).toBeGreaterThan(0));
  });

  it('SPEC §4 Subscription lifecycle: without a commitment nothing more is owed; cancelling the confirm places nothing', async () => {
    const app = await openAnna();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Sig haldið upp' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sig haldið upp?' });
    expect(dialog.textContent).toContain(`Haldið endar ${formatDate(lastDayBefore(nextMonth()))}.`);
    expect(dialog.textContent).toContain('Tú gjaldar bert hendan mánaðin sum vanligt.');
    await user.click(within(dialog).getByRole('button', { name: 'Nei, lat tað vera' }));
    await dialogClosed();
    expect(app.api.callsTo('DELETE /subscriptions')).toHaveLength(0);
  });

  it('SPEC §8 deleting a subscription: the app’s own message when cancelling fails without a known code', async () => {
    await openAnna(annaWith(), { 'DELETE /subscriptions': () => fail(500, 'SOMETHING_NEW') });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Sig haldið upp' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sig haldið upp?' });
    await user.click(within(dialog).getByRole('button', { name: 'Sig upp' }));
    expect(await screen.findByText('Vit kundu ikki siga haldið upp.')).toBeTruthy();
  });

  it('offers changing the plan and going to a family plan on an individual account', async () => {
    await openAnna();
    expect((await screen.findByRole('link', { name: 'Dagfør hald' })).getAttribute('href')).toBe(
      '/dagfor-hald/sub-anna',
    );
    expect(screen.getByRole('link', { name: 'Broyt til familjuhald' }).getAttribute('href')).toBe(
      '/broyt-til-familjuhald',
    );
    // On an individual account ending the plan is the cancellation: offered once.
    expect(screen.queryByRole('button', { name: 'Enda haldið (verður talutíð)' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Strika nummarið' })).toBeTruthy();
  });

  it('SPEC §4 Subscription lifecycle: a waiting change is shown with its date, and undo withdraws its order', async () => {
    const member = annaWith({
      pendingChange: {
        orderId: 'order-pending',
        action: 'cancel_subscription',
        effectiveAt: nextMonth().toISOString(),
        planId: null,
      },
    });
    const app = await openAnna(member, {
      'POST /orders/order-pending/withdraw': () =>
        ok(lifecycleOrder({ id: 'order-pending', kind: 'cancellation', isCancelled: true })),
    });
    const user = userEvent.setup();
    expect(
      await screen.findByText(`Endar ${formatDate(lastDayBefore(nextMonth()))} og verður talutíð.`),
    ).toBeTruthy();
    // One change at a time: no other change is offered while this one waits.
    expect(screen.queryByRole('button', { name: 'Sig haldið upp' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Angra' }));
    expect(await screen.findByText('Broytingin er tikin aftur.')).toBeTruthy();
    expect(app.api.callsTo('POST /orders/order-pending/withdraw')).toHaveLength(1);
  });

  it('SPEC §8: undo that fails without a known code says so in the app’s words; a known code in the contract’s', async () => {
    const member = annaWith({
      pendingChange: {
        orderId: 'order-pending',
        action: 'plan_downgrade',
        effectiveAt: nextMonth().toISOString(),
        planId: 'plan-individual-10',
      },
    });
    let answer = () => fail(502, 'BAD_GATEWAY_THING');
    await openAnna(member, { 'POST /orders/order-pending/withdraw': () => answer() });
    const user = userEvent.setup();
    expect(await screen.findByText(`Broytist til 10 GB ${formatDate(nextMonth())}.`)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Angra' }));
    expect(await screen.findByText('Vit kundu ikki angra broytingina.')).toBeTruthy();
    answer = () => fail(409, 'ORDER_NOT_WAITING');
    await user.click(screen.getByRole('button', { name: 'Angra' }));
    expect(await screen.findByText('Bíleggingin bíðar ikki eftir hesum longur.')).toBeTruthy();
  });

  it('SPEC §4 Subscription lifecycle: deleting a talutíð number says it goes at once with its credit, and the quarantine', async () => {
    const member = annaWith({ prepaidBalance: 5000 });
    const app = await openAnna(member, {
      'DELETE /subscriptions/delete-number/sub-anna': () => fail(503, 'UNAVAILABLE_X'),
    });
    const user = userEvent.setup();
    // Talutíð has no plan to change or end.
    await screen.findByRole('button', { name: 'Strika nummarið' });
    expect(screen.queryByRole('link', { name: 'Dagfør hald' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Strika nummarið' }));
    const dialog = await screen.findByRole('dialog', { name: 'Strika 55 77 11?' });
    expect(dialog.textContent).toContain('verður strikað beinanvegin');
    expect(dialog.textContent).toContain('50,00 kr.');
    expect(dialog.textContent).toContain('90 dagar');
    await user.click(within(dialog).getByRole('button', { name: 'Strika nummarið' }));
    expect(await screen.findByText('Vit kundu ikki strika nummarið.')).toBeTruthy();
    expect(app.api.callsTo('DELETE /subscriptions/delete-number/sub-anna')).toHaveLength(1);
  });
});

describe('the lifecycle on the family screens (SPEC §2 umsit-familju-hald, familju-limur/:id)', () => {
  it('manage family: add a member with the next member’s price, change plan, cancel; no change to an individual plan with two members', async () => {
    const app = await renderApp({
      user: demoUser,
      data: ownerData,
      initialEntries: ['/umsit-familju-hald'],
      api: {
        'DELETE /subscriptions': () => waiting('cancel_subscription'),
        'GET /subscriptions': () => ok(ownerSubscriptions),
      },
    });
    const add = await screen.findByRole('link', { name: /Legg ein lim afturat/ });
    expect(add.getAttribute('href')).toBe('/stovna-familju-lim');
    expect(add.textContent).toContain('+49 kr.');
    expect(screen.getByRole('link', { name: 'Dagfør hald' }).getAttribute('href')).toBe(
      '/dagfor-hald/sub-joannes',
    );
    expect(screen.queryByRole('link', { name: 'Broyt til einstaklingahald' })).toBeNull();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Sig haldið upp' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sig haldið upp?' });
    await user.click(within(dialog).getByRole('button', { name: 'Sig upp' }));
    await waitFor(() => expect(app.api.callsTo('DELETE /subscriptions')).toHaveLength(1));
    expect(app.api.callsTo('DELETE /subscriptions')[0]?.url).toContain('line=214455');
  });

  it('manage family: with one member left it offers the change to an individual plan', async () => {
    const alone = { ...joensenFamily, members: [joensenFamily.currentMember], otherMembers: [] };
    await renderApp({
      user: demoUser,
      data: { ...ownerData, subscriptions: { ...ownerSubscriptions, currentAccount: alone } },
      initialEntries: ['/umsit-familju-hald'],
    });
    expect(
      (await screen.findByRole('link', { name: 'Broyt til einstaklingahald' })).getAttribute(
        'href',
      ),
    ).toBe('/broyt-til-einstaklingahald');
  });

  it('family member: remove from the family (becomes talutíð at month end) and move to an own plan', async () => {
    const detail = {
      accountId: joensenFamily.id,
      accountType: 'family_plan' as const,
      isOwner: true,
      member: sunneva,
      plan: null,
      monthlyPrice: { net: 7920, vat: 1980, gross: 9900 },
      euPackage: false,
    };
    const app = await renderApp({
      user: demoUser,
      data: ownerData,
      initialEntries: ['/familju-limur/sub-sunneva'],
      api: {
        'GET /subscriptions/sub-sunneva': () => ok(detail),
        'DELETE /subscriptions/deactivate-plan/sub-sunneva': () => waiting('deactivate_plan'),
      },
    });
    const user = userEvent.setup();
    expect(
      (await screen.findByRole('link', { name: 'Flyt til egið hald' })).getAttribute('href'),
    ).toBe('/flyt-hald/familju-lim/sub-sunneva');
    await user.click(screen.getByRole('button', { name: 'Tak úr familjuni' }));
    const dialog = await screen.findByRole('dialog', { name: 'Tak Sunneva Joensen úr familjuni?' });
    expect(dialog.textContent).toContain(
      `til og við ${formatDate(lastDayBefore(nextMonth()))}. Eftir tað verður 21 44 56 talutíð`,
    );
    await user.click(within(dialog).getByRole('button', { name: 'Tak úr familjuni' }));
    await waitFor(() =>
      expect(app.api.callsTo('DELETE /subscriptions/deactivate-plan/sub-sunneva')).toHaveLength(1),
    );
    expect(
      app.api.callsTo('DELETE /subscriptions/deactivate-plan/sub-sunneva')[0]?.headers[
        'idempotency-key'
      ],
    ).toBeTruthy();
  });
});
