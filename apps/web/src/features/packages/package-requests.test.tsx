import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { PackageRequest } from '@alda/contract/schemas/controls';
import type { PackageOffer } from '@alda/contract/schemas/packages';
import type { SubscriptionsResponse } from '@alda/contract/schemas/subscriptions';
import {
  memberSubscriptions,
  ownerSubscriptions,
  sunneva,
  sunnevaPackageRequest,
} from '@/test/account-fixtures';
import { deferred, json, ok, quietPolls } from '@/test/fake-api';
import { demoUser } from '@/test/fixtures';
import { renderApp } from '@/test/render';
import { paymentRedirect } from '@/shared/payments/start-payment';

const offers: PackageOffer[] = [
  {
    id: 'pkg-5',
    kind: 'data',
    name: '5 GB',
    dataMb: 5120,
    price: { net: 4000, vat: 1000, gross: 5000 },
    validUntil: '2026-11-30T23:59:59.999Z',
  },
];

/** Sunneva, whose owner requires approval of her purchases. */
const approvalOn: SubscriptionsResponse = {
  ...memberSubscriptions,
  currentAccount: memberSubscriptions.currentAccount && {
    ...memberSubscriptions.currentAccount,
    currentMember: {
      ...sunneva,
      controls: { dataPaused: false, dataPausedAt: null, purchaseApproval: true },
    },
  },
};

let assign: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  window.sessionStorage.clear();
  assign = vi.spyOn(paymentRedirect, 'assign').mockImplementation(() => undefined);
});
afterEach(() => vi.restoreAllMocks());

describe('package requests on the purchase screen (issue 16.3, ADR 0068)', () => {
  it('issue 16.3: a member whose owner requires approval is told so and what happens next; the button sends a request, never a payment; a double tap asks once', async () => {
    let pending: PackageRequest[] = [];
    const answer = deferred<Response>();
    const app = await renderApp({
      user: { ...demoUser, firstname: 'Sunneva' },
      initialEntries: ['/keyp-pakka'],
      data: { subscriptions: approvalOn, packages: offers, agreement: null },
      api: {
        ...quietPolls,
        'GET /package-requests': () => ok(pending),
        'POST /package-requests': () => answer.promise,
      },
    });
    const notice = await screen.findByText(
      'Eigarin av kontuni skal góðkenna keyp av eykapakkum á hesum nummarinum.',
    );
    expect(notice.closest('[role="status"], [role="alert"], div')?.textContent).toContain(
      'Eigarin fær boð og kann góðkenna ella avvísa.',
    );
    // No way to pay is offered.
    expect(screen.queryByRole('radiogroup', { name: 'Hvussu vilt tú gjalda?' })).toBeNull();

    const user = userEvent.setup();
    await user.click(
      within(screen.getByRole('radiogroup', { name: 'Vel pakka' })).getByRole('radio'),
    );
    const send = screen.getByRole('button', { name: 'Send umbøn til eigaran' });
    // A second tap while the first is on its way is the same ask.
    await user.click(send);
    await user.click(send);
    expect(app.api.callsTo('POST /package-requests')).toHaveLength(1);
    pending = [sunnevaPackageRequest()];
    answer.resolve(json(201, { data: sunnevaPackageRequest() }));
    const [sent] = app.api.callsTo('POST /package-requests');
    expect(sent?.headers['idempotency-key']).toBeTruthy();
    expect(sent?.body).toEqual({ packageId: 'pkg-5', phoneNumber: '214456' });
    expect(app.api.callsTo('POST /packages')).toHaveLength(0);
    expect(assign).not.toHaveBeenCalled();

    expect(await screen.findByText('Umbønin er send. Eigarin fær boð.')).toBeTruthy();
    const waiting = await screen.findByRole('region', { name: 'Bíðar eftir eigaranum' });
    expect(waiting.textContent).toContain('5 GB til 21 44 56, biðið um 20.11.2026');
    expect(waiting.textContent).toContain('Tú fært boð, tá ið eigarin hevur svarað.');
    expect(app.api.callsTo('POST /package-requests')).toHaveLength(1);
  });

  it('issue 16.3: the member withdraws a pending request', async () => {
    let pending = [sunnevaPackageRequest()];
    const app = await renderApp({
      user: { ...demoUser, firstname: 'Sunneva' },
      initialEntries: ['/keyp-pakka'],
      data: { subscriptions: approvalOn, packages: offers, agreement: null },
      api: {
        ...quietPolls,
        'GET /package-requests': () => ok(pending),
        'DELETE /package-requests/req-1': () => {
          pending = [];
          return ok(
            sunnevaPackageRequest({ status: 'withdrawn', decidedAt: '2026-11-20T11:00:00.000Z' }),
          );
        },
      },
    });
    const waiting = await screen.findByRole('region', { name: 'Bíðar eftir eigaranum' });
    await userEvent.click(within(waiting).getByRole('button', { name: 'Tak umbønina aftur' }));
    expect(await screen.findByText('Umbønin er tikin aftur.')).toBeTruthy();
    expect(app.api.callsTo('DELETE /package-requests/req-1')).toHaveLength(1);
    await waitFor(() =>
      expect(screen.queryByRole('region', { name: 'Bíðar eftir eigaranum' })).toBeNull(),
    );
  });

  it('issue 16.3: while the owner pays, the member sees that and cannot withdraw', async () => {
    await renderApp({
      user: { ...demoUser, firstname: 'Sunneva' },
      initialEntries: ['/keyp-pakka'],
      data: { subscriptions: approvalOn, packages: offers, agreement: null },
      api: {
        ...quietPolls,
        'GET /package-requests': () => ok([sunnevaPackageRequest({ orderId: 'o-9' })]),
      },
    });
    const waiting = await screen.findByRole('region', { name: 'Bíðar eftir eigaranum' });
    expect(waiting.textContent).toContain('Eigarin er í holt við at gjalda fyri pakkan.');
    expect(within(waiting).queryByRole('button')).toBeNull();
  });

  it('issue 16.3: the owner approves in the normal payment flow — the request’s number and package, paid by card on the provider page', async () => {
    const app = await renderApp({
      user: demoUser,
      initialEntries: ['/keyp-pakka?nummar=214456&pakki=pkg-5&umbon=req-1'],
      data: { subscriptions: ownerSubscriptions, packages: offers, agreement: null },
      api: {
        ...quietPolls,
        'GET /package-requests': () => ok([sunnevaPackageRequest({ isApprover: true })]),
        'POST /package-requests/req-1/approve': () =>
          json(201, {
            data: {
              order: {
                id: 'o-1',
                kind: 'extra_package',
                isComplete: false,
                isCancelled: false,
                isMainSubscription: false,
                planId: null,
                phoneNumber: '214456',
                price: { net: 4000, vat: 1000, gross: 5000 },
                paymentStatus: 'pending',
                createdAt: '2026-11-22T05:00:00.000Z',
                completedAt: null,
              },
              paymentUrl: 'http://pay.test/c/o-1',
            },
          }),
      },
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Góðkenn umbøn' })).toBeTruthy();
    expect(
      await screen.findByText(
        'Sunneva Joensen biður teg um at keypa 5 GB til 21 44 56. Tú gjaldar, og pakkin verður lagdur afturat, tá ið gjaldið er komið ígjøgnum.',
      ),
    ).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Góðkenn og gjald 50,00 kr.' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('http://pay.test/c/o-1'));
    const [sent] = app.api.callsTo('POST /package-requests/req-1/approve');
    expect(sent?.body).toEqual({ payWith: 'card' });
    expect(sent?.headers['idempotency-key']).toBeTruthy();
  });

  it('issue 16.3: a request that is no longer waiting says so instead of offering to pay', async () => {
    await renderApp({
      user: demoUser,
      initialEntries: ['/keyp-pakka?umbon=req-gone'],
      data: { subscriptions: ownerSubscriptions, packages: offers, agreement: null },
      api: { ...quietPolls, 'GET /package-requests': () => ok([]) },
    });
    expect(
      await screen.findByText(
        'Umbønin bíðar ikki longur. Hon er kanska tikin aftur ella longu svarað.',
      ),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Góðkenn og gjald/ })).toBeNull();
  });
});
