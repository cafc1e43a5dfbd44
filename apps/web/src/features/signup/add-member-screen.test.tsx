import { beforeAll, describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Agreement } from '@alda/contract/schemas/agreements';
import type { Order } from '@alda/contract/schemas/orders';
import type { SubscriptionsResponse } from '@alda/contract/schemas/subscriptions';
import { joensenFamily, ownerData, ownerSubscriptions } from '@/test/account-fixtures';
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

const addOrder: Order = {
  id: 'order-add',
  kind: 'add_member',
  isComplete: false,
  isCancelled: false,
  isMainSubscription: false,
  planId: 'plan-family-50',
  phoneNumber: '551234',
  price: null,
  paymentStatus: 'not_required',
  createdAt: '2026-11-23T09:00:00.000Z',
  completedAt: null,
  memberName: 'Bárður Joensen',
};

const inHalfAnHour = () => new Date(Date.now() + 30 * 60_000).toISOString();

async function open(
  api: Record<string, Handler> = {},
  subscriptions: SubscriptionsResponse = ownerSubscriptions,
) {
  const app = await renderApp({
    user: demoUser,
    initialEntries: ['/stovna-familju-lim'],
    data: { ...ownerData, subscriptions, agreement: card },
    api: {
      ...quietPolls,
      'POST /auth/reserved-numbers': (r) =>
        ok({
          phoneNumber: (r.body as { phoneNumber: string }).phoneNumber,
          status: 'free',
          reservationId: 'res-551234',
          reservedUntil: inHalfAnHour(),
          suggestions: [],
          numberClass: null,
          oneOffPrice: null,
        }),
      'GET /auth/free-numbers': () => ok({ numbers: [], golden: [], nearest: null }),
      'PATCH /subscriptions': () => ok({ orders: [addOrder] }),
      [`GET /orders/${addOrder.id}`]: () => ok(addOrder),
      ...api,
    },
  });
  return { ...app, user: userEvent.setup() };
}
type App = Awaited<ReturnType<typeof open>>;

const next = (app: App) => app.user.click(screen.getByRole('button', { name: 'Halt fram' }));

/** Name → a reserved new number → eSIM → the summary. */
async function fillIn(app: App) {
  await app.user.type(await screen.findByLabelText('Fornavn'), 'Bárður');
  await app.user.type(screen.getByLabelText('Eftirnavn'), 'Joensen');
  await next(app);
  await screen.findByRole('heading', { name: 'Hvat nummar vilt tú hava?' });
  await app.user.type(screen.getByLabelText('Ynskta nummarið'), '551234');
  await app.user.click(screen.getByRole('button', { name: 'Leita' }));
  await screen.findByText('Nummarið er tikið frá til tín');
  await next(app);
  await screen.findByRole('heading', { name: 'Hvussu vilt tú hava SIM-kortið?' });
  await app.user.click(screen.getByRole('radio', { name: /^eSIM/ }));
  await next(app);
  await screen.findByRole('heading', { name: 'Er alt rætt?' });
}

beforeAll(async () => {
  await import('./add-member-screen');
}, 20_000);

describe('add a family member (SPEC §2 /stovna-familju-lim, ADR 0056 "Family members")', () => {
  it('SPEC §4 Family capacity: sends the newFamilyMember payload (name, the reserved number, eSIM) with an Idempotency-Key after the same-address confirmation, shows +49 kr., then the order', async () => {
    const app = await open();
    await fillIn(app);
    // Two members: the next member's price is memberPrices[2] = 49 kr. (SPEC §4).
    expect(screen.getByText('+49 kr. um mánaðin')).toBeTruthy();
    expect(screen.getByText('Bárður Joensen')).toBeTruthy();

    await app.user.click(screen.getByRole('button', { name: 'Legg limin afturat' }));
    expect(await screen.findByText('Tú mást góðtaka fyri at halda fram.')).toBeTruthy();
    expect(app.api.callsTo('PATCH /subscriptions')).toHaveLength(0);

    await app.user.click(screen.getByLabelText(/býr á sama bústaði/));
    await app.user.click(screen.getByRole('button', { name: 'Legg limin afturat' }));
    await waitFor(() =>
      expect(app.router.state.location.pathname).toBe('/menu/bilegingar/order-add'),
    );
    const [call] = app.api.callsTo('PATCH /subscriptions');
    expect(new URL(call!.url, 'http://x').searchParams.get('line')).toBe('214455');
    expect(call?.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(call?.body).toEqual({
      addMembers: [
        {
          firstname: 'Bárður',
          lastname: 'Joensen',
          phoneNumberReservationId: 'res-551234',
          eSim: true,
          simcardNumber: null,
          porting: null,
          simPickupLocationId: null,
          simShippingAddress: null,
        },
      ],
    });
  }, 20_000);

  it("issue 33 §1: an easy number's one-off price is on the summary before the member is added", async () => {
    const app = await open({
      'POST /auth/reserved-numbers': (r) =>
        ok({
          phoneNumber: (r.body as { phoneNumber: string }).phoneNumber,
          status: 'free',
          reservationId: 'res-551234',
          reservedUntil: inHalfAnHour(),
          suggestions: [],
          numberClass: 'pairs',
          oneOffPrice: { net: 12000, vat: 3000, gross: 15000 },
        }),
    });
    await fillIn(app);
    expect(screen.getByText('Eingangsgjald fyri nummarið')).toBeTruthy();
    expect(screen.getByText(/^150,00 kr\./)).toBeTruthy();
  }, 20_000);

  it('SPEC §4 Family capacity: FAMILY_FULL from the API is shown under "could not add the member", everything kept', async () => {
    const app = await open({ 'PATCH /subscriptions': () => fail(409, 'FAMILY_FULL') });
    await fillIn(app);
    await app.user.click(screen.getByLabelText(/býr á sama bústaði/));
    await app.user.click(screen.getByRole('button', { name: 'Legg limin afturat' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Vit kundu ikki leggja limin afturat.');
    expect(alert.textContent).toContain('Familjuhaldið hevur ikki pláss fyri fleiri limum.');
    expect(app.router.state.location.pathname).toBe('/stovna-familju-lim');
  }, 20_000);

  it('SPEC §4 Family capacity: a full family (canAddMember false) explains why instead of the form', async () => {
    await open(
      {},
      {
        ...ownerSubscriptions,
        currentAccount: {
          ...joensenFamily,
          family: {
            canAddMember: false,
            nextMemberPrice: 4900,
            processingMembers: 1,
            maxMembers: 3,
          },
        },
      },
    );
    expect(await screen.findByRole('heading', { name: 'Familjuhaldið er fult' })).toBeTruthy();
    expect(screen.queryByLabelText('Fornavn')).toBeNull();
    expect(screen.getByRole('link', { name: 'Til familjuhaldið' }).getAttribute('href')).toBe(
      '/umsit-familju-hald',
    );
  });

  it('SPEC §4 Family capacity: a family still being set up says so', async () => {
    await open(
      {},
      {
        ...ownerSubscriptions,
        currentAccount: {
          ...joensenFamily,
          planId: null,
          family: {
            canAddMember: false,
            nextMemberPrice: null,
            processingMembers: 0,
            maxMembers: 5,
          },
        },
      },
    );
    expect(
      await screen.findByRole('heading', { name: 'Familjuhaldið verður enn gjørt klárt' }),
    ).toBeTruthy();
  });

  it('SPEC §5 leaving with something typed asks first', async () => {
    const app = await open();
    await app.user.type(await screen.findByLabelText('Fornavn'), 'Bárður');
    await app.user.click(screen.getByRole('button', { name: 'Aftur' }));
    expect(await screen.findByText('Fara frá uttan at leggja limin afturat?')).toBeTruthy();
    await app.user.click(screen.getByRole('button', { name: 'Verð verandi' }));
    await dialogClosed();
    expect(app.router.state.location.pathname).toBe('/stovna-familju-lim');
  });
});
