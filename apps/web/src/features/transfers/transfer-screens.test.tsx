import { beforeAll, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Agreement } from '@alda/contract/schemas/agreements';
import type { Order } from '@alda/contract/schemas/orders';
import type { Account, SubscriptionsResponse } from '@alda/contract/schemas/subscriptions';
import {
  individualPlan,
  joensenFamily,
  makeMember,
  memberSubscriptions,
  ownerData,
  ownerSubscriptions,
  sunnevaDetail,
} from '@/test/account-fixtures';
import { fail, ok, quietPolls, type Handler } from '@/test/fake-api';
import { demoUser } from '@/test/fixtures';
import { renderApp } from '@/test/render';
import { dialogClosed } from '@/test/dialogs';

const card: Agreement = {
  id: 'agr-1',
  status: 'active',
  needsRenewal: false,
  cardBrand: 'Visa',
  cardLast4: '4242',
  cardExpiry: '12/29',
  createdAt: '2026-01-01T10:00:00.000Z',
};

const transferOrder: Order = {
  id: 'order-move',
  kind: 'transfer',
  isComplete: false,
  isCancelled: false,
  isMainSubscription: false,
  planId: 'plan-individual-10',
  phoneNumber: '214456',
  price: null,
  paymentStatus: 'not_required',
  createdAt: '2026-11-23T09:00:00.000Z',
  completedAt: null,
};
const placed = () => ok({ order: transferOrder, paymentUrl: null });

/** Rannvá on an individual plan of her own (557700). */
const solo = makeMember({
  id: 'sub-solo',
  phoneNumber: '557700',
  planId: individualPlan.planId,
  user: { id: 'u-1', firstname: 'Rannvá', lastname: 'Joensen' },
});
const soloAccount: Account = {
  id: 'acc-solo',
  planId: individualPlan.planId,
  planTypeId: 'type-individual',
  type: 'individual_plan',
  members: [solo],
  otherMembers: [],
  currentMember: solo,
  euPackage: false,
  family: null,
};

async function open(
  path: string,
  options: {
    subscriptions?: SubscriptionsResponse;
    agreement?: Agreement | null;
    api?: Record<string, Handler>;
  } = {},
) {
  const app = await renderApp({
    user: demoUser,
    initialEntries: [path],
    data: {
      ...ownerData,
      subscriptions: options.subscriptions ?? ownerSubscriptions,
      agreement: options.agreement === undefined ? card : options.agreement,
    },
    api: {
      ...quietPolls,
      [`GET /orders/${transferOrder.id}`]: () => ok(transferOrder),
      ...options.api,
    },
  });
  return { ...app, user: userEvent.setup() };
}
type App = Awaited<ReturnType<typeof open>>;

async function confirmInDialog(app: App, label: string) {
  const dialog = await screen.findByRole('dialog');
  await app.user.click(within(dialog).getByRole('button', { name: label }));
  await dialogClosed();
}

const openedOrder = (app: App) =>
  waitFor(() => expect(app.router.state.location.pathname).toBe('/menu/bilegingar/order-move'));

beforeAll(async () => {
  await import('./transfer-screens');
}, 20_000);

describe('move my number into a family (SPEC §2 /flyt-til-familjuhald, ADR 0056)', () => {
  it('SPEC §4 Family capacity: family-account-exists true joins my family at the next member price (+49 kr.), without planInfo', async () => {
    const app = await open('/flyt-til-familjuhald', {
      subscriptions: {
        ...ownerSubscriptions,
        currentAccount: soloAccount,
        otherAccounts: [joensenFamily],
      },
      api: {
        'GET /subscriptions/family-account-exists': () =>
          ok({ exists: true, accountId: joensenFamily.id }),
        'PATCH /subscriptions/transfer-subscription-to-family-account/sub-solo': placed,
      },
    });
    expect(await screen.findByText('+49 kr. um mánaðin')).toBeTruthy();
    expect(screen.queryByRole('radio')).toBeNull();
    await app.user.click(screen.getByRole('button', { name: 'Flyt í familjuhaldið' }));
    expect((await screen.findByRole('dialog')).textContent).toContain('+49 kr.');
    await confirmInDialog(app, 'Flyt nummarið');
    await openedOrder(app);
    const [call] = app.api.callsTo(
      'PATCH /subscriptions/transfer-subscription-to-family-account/sub-solo',
    );
    expect(call?.body).toEqual({});
    expect(call?.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('family-account-exists false creates a family: a family plan is chosen and sent as planInfo', async () => {
    const app = await open('/flyt-til-familjuhald', {
      subscriptions: { ...ownerSubscriptions, currentAccount: soloAccount },
      api: {
        'GET /subscriptions/family-account-exists': () => ok({ exists: false, accountId: null }),
        'PATCH /subscriptions/transfer-subscription-to-family-account/sub-solo': placed,
      },
    });
    await app.user.click(await screen.findByRole('button', { name: 'Stovna familjuhald' }));
    expect(await screen.findByText('Vel eitt hald fyrst.')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    await app.user.click(screen.getByRole('radio', { name: /^50 GB/ }));
    await app.user.click(screen.getByRole('button', { name: 'Stovna familjuhald' }));
    await confirmInDialog(app, 'Flyt nummarið');
    await openedOrder(app);
    const [call] = app.api.callsTo(
      'PATCH /subscriptions/transfer-subscription-to-family-account/sub-solo',
    );
    expect(call?.body).toEqual({ planInfo: { planId: 'plan-family-50', euPackage: false } });
  });

  it('SPEC §8 an unknown failure says "We could not move the number"; the confirm can be cancelled', async () => {
    const app = await open('/flyt-til-familjuhald', {
      subscriptions: memberSubscriptions,
      api: {
        'GET /subscriptions/family-account-exists': () => ok({ exists: false, accountId: null }),
        'PATCH /subscriptions/transfer-subscription-to-family-account/sub-sunneva': () =>
          fail(500, 'INTERNAL'),
      },
    });
    await app.user.click(await screen.findByRole('radio', { name: /^50 GB/ }));
    await app.user.click(screen.getByRole('button', { name: 'Stovna familjuhald' }));
    await confirmInDialog(app, 'Angra');
    expect(
      app.api.callsTo('PATCH /subscriptions/transfer-subscription-to-family-account/sub-sunneva'),
    ).toHaveLength(0);
    await app.user.click(screen.getByRole('button', { name: 'Stovna familjuhald' }));
    await confirmInDialog(app, 'Flyt nummarið');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('Vit kundu ikki flyta nummarið.');
  });
});

describe('move my number to my own plan (SPEC §2 /flyt-til-einstaklingahald)', () => {
  it('needs a card on file: without one it links to the payment agreement and does not move', async () => {
    await open('/flyt-til-einstaklingahald', {
      subscriptions: memberSubscriptions,
      agreement: null,
    });
    const link = await screen.findByRole('link', { name: 'Skráset eitt kort' });
    expect(link.getAttribute('href')).toBe('/min-brukari/gjaldsavtala');
    expect(
      (screen.getByRole('button', { name: 'Flyt til eitt einstaklingahald' }) as HTMLButtonElement)
        .disabled,
    ).toBe(true);
  });

  it('a member moves their own number onto an individual plan; SPEC §8 an unknown failure says transfers.individualFailed', async () => {
    let answer: Handler = () => fail(500, 'INTERNAL');
    const app = await open('/flyt-til-einstaklingahald', {
      subscriptions: memberSubscriptions,
      api: {
        'PATCH /subscriptions/transfer-subscription-to-new-account/sub-sunneva': (r) => answer(r),
      },
    });
    await app.user.click(await screen.findByRole('radio', { name: /^10 GB/ }));
    await app.user.click(screen.getByRole('button', { name: 'Flyt til eitt einstaklingahald' }));
    expect((await screen.findByRole('dialog')).textContent).toContain('frá næsta mánaði');
    await confirmInDialog(app, 'Flyt nummarið');
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Vit kundu ikki flyta nummarið til eitt einstaklingahald.',
    );

    answer = placed;
    await app.user.click(screen.getByRole('button', { name: 'Flyt til eitt einstaklingahald' }));
    await confirmInDialog(app, 'Flyt nummarið');
    await openedOrder(app);
    const calls = app.api.callsTo(
      'PATCH /subscriptions/transfer-subscription-to-new-account/sub-sunneva',
    );
    expect(calls.at(-1)?.body).toEqual({ planId: 'plan-individual-10' });
  });

  it('AGREEMENT_REQUIRED from the API shows its text and the way to register a card', async () => {
    const app = await open('/flyt-til-einstaklingahald', {
      subscriptions: memberSubscriptions,
      api: {
        'PATCH /subscriptions/transfer-subscription-to-new-account/sub-sunneva': () =>
          fail(409, 'AGREEMENT_REQUIRED'),
      },
    });
    await app.user.click(await screen.findByRole('radio', { name: /^10 GB/ }));
    await app.user.click(screen.getByRole('button', { name: 'Flyt til eitt einstaklingahald' }));
    await confirmInDialog(app, 'Flyt nummarið');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Tú hevur ikki skrásett eitt kort.');
    expect(within(alert).getByRole('link', { name: 'Skráset eitt kort' })).toBeTruthy();
  });
});

describe('owner moves (SPEC §2, §6; ADR 0056)', () => {
  it('family → individual only with one member left: with more it explains and links to the family', async () => {
    await open('/broyt-til-einstaklingahald');
    expect(
      await screen.findByRole('heading', { name: 'Familjuhaldið hevur fleiri limir' }),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Til familjuhaldið' }).getAttribute('href')).toBe(
      '/umsit-familju-hald',
    );
  });

  it('a member to an individual plan the owner pays for', async () => {
    const app = await open('/flyt-hald/familju-lim/sub-sunneva', {
      api: {
        'GET /subscriptions/sub-sunneva': () => ok(sunnevaDetail),
        'PATCH /subscriptions/transfer-subscription-to-new-account/sub-sunneva': placed,
      },
    });
    await app.user.click(await screen.findByRole('radio', { name: /^10 GB/ }));
    await app.user.click(screen.getByRole('button', { name: 'Flyt til einstaklingahald' }));
    await confirmInDialog(app, 'Flyt nummarið');
    await openedOrder(app);
    expect(
      app.api.callsTo('PATCH /subscriptions/transfer-subscription-to-new-account/sub-sunneva')[0]
        ?.body,
    ).toEqual({ planId: 'plan-individual-10' });
  });

  it("hands a member's number to their own user by e-mail and shows that it waits for them", async () => {
    const app = await open('/flyt-hald/familju-lim/sub-sunneva', {
      api: {
        'GET /subscriptions/sub-sunneva': () => ok(sunnevaDetail),
        'PATCH /subscriptions/transfer-subscription-to-user-customer': () =>
          ok({
            id: 'h-1',
            phoneNumber: '214456',
            status: 'pending',
            from: { firstname: 'Jóannes', lastname: 'Joensen' },
            to: { firstname: 'Sunneva', lastname: 'Joensen' },
            planId: 'plan-individual-10',
            planName: '10 GB',
            monthlyPrice: { net: 11920, vat: 2980, gross: 14900 },
            isReceiver: false,
            createdAt: '2026-11-23T09:00:00.000Z',
            decidedAt: null,
            orderId: null,
          }),
      },
    });
    await app.user.click(await screen.findByRole('radio', { name: /Gev nummarið víðari/ }));
    await app.user.click(screen.getByRole('radio', { name: /^10 GB/ }));
    await app.user.click(screen.getByRole('button', { name: 'Gev nummarið víðari' }));
    expect(await screen.findByText('Hetta er eitt kravt felt')).toBeTruthy();
    expect(
      app.api.callsTo('PATCH /subscriptions/transfer-subscription-to-user-customer'),
    ).toHaveLength(0);
    await app.user.type(
      screen.getByLabelText('Teldupostur hjá móttakaranum'),
      'sunneva@example.fo',
    );
    await app.user.click(screen.getByRole('button', { name: 'Gev nummarið víðari' }));
    await confirmInDialog(app, 'Gev nummarið víðari');
    expect(
      await screen.findByText('Vit bíða eftir, at sunneva@example.fo tekur ímóti 21 44 56.'),
    ).toBeTruthy();
    expect(
      app.api.callsTo('PATCH /subscriptions/transfer-subscription-to-user-customer')[0]?.body,
    ).toEqual({
      subscriptionId: 'sub-sunneva',
      email: 'sunneva@example.fo',
      planId: 'plan-individual-10',
    });
    expect(screen.getByRole('link', { name: 'Sí boðini' }).getAttribute('href')).toBe(
      '/yvirtaka/h-1',
    );
  }, 20_000);
});
