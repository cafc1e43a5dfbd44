import { describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { connection } from '@/shared/api/connectivity';
import { accountKeys } from '@/shared/api/account-data';
import type { SubscriptionsResponse } from '@alda/contract/schemas/subscriptions';
import { fail, ok } from '@/test/fake-api';
import {
  addingBardur,
  firstSubscriptionProcessing,
  individualPlan,
  joannes,
  joensenFamily,
  makeMember,
  memberSubscriptions,
  newCustomer,
  ownerData,
  ownerSubscriptions,
  plans,
  sunneva,
  unlimitedPlan,
} from '@/test/account-fixtures';
import { demoUser } from '@/test/fixtures';
import { renderApp } from '@/test/render';
import { chosenLine } from '@/shared/account/chosen-line';

const dataRing = () => screen.findByRole('meter', { name: 'Data eftir í Føroyum' });

describe('home: data of the current line (SPEC §1 "view data use and remaining data", §9)', () => {
  it('shows what is left as a ring in GB with 1024 MB per GB (SPEC §9 "Data unit")', async () => {
    await renderApp({ user: demoUser, data: ownerData });
    const ring = await dataRing();
    // 30,720 MB left of 51,200 MB: 30 GB of 50 GB, 60 %.
    expect(ring.getAttribute('aria-valuetext')).toBe('30 GB eftir av 50 GB');
    expect(ring.getAttribute('aria-valuenow')).toBe('60');
    expect(within(ring).getByText('30').nextElementSibling?.textContent).toBe('GB');
    expect(within(ring).getByText('av 50 GB')).toBeTruthy();
    // Used this month (from the answer) and gifts given against the monthly ceiling.
    expect(screen.getByText('Brúkt').nextElementSibling?.textContent).toBe('20 GB');
    expect(screen.getByText('Givið burtur').nextElementSibling?.textContent).toBe('1 GB av 10 GB');
  });

  it('shows fractions of a GB with a decimal comma in Faroese and a point in English', async () => {
    const member = makeMember({
      id: 'sub-x',
      phoneNumber: '214455',
      dataRemaining: { domestic: 1536, eu: null },
      dataTotal: { domestic: 10240, eu: null },
    });
    const subscriptions = {
      ...ownerSubscriptions,
      currentAccount: { ...joensenFamily, currentMember: member },
    };
    const fo = await renderApp({ user: demoUser, data: { ...ownerData, subscriptions } });
    expect((await dataRing()).getAttribute('aria-valuetext')).toBe('1,5 GB eftir av 10 GB');
    fo.view.unmount();
    await renderApp({ user: demoUser, data: { ...ownerData, subscriptions }, locale: 'en' });
    const ring = await screen.findByRole('meter', { name: 'Data left in the Faroe Islands' });
    expect(ring.getAttribute('aria-valuetext')).toBe('1.5 GB left of 10 GB');
  });

  it('shows "unlimited" from 1,024,000 MB with a full ring, and the use so far (SPEC §9 "Unlimited display")', async () => {
    const member = makeMember({
      id: 'sub-u',
      phoneNumber: '214455',
      planId: unlimitedPlan.planId,
      dataRemaining: { domestic: 1_024_000, eu: null },
      dataTotal: { domestic: 1_024_000, eu: null },
      dataUsed: { domestic: 3584, eu: null },
    });
    const subscriptions: SubscriptionsResponse = {
      ...ownerSubscriptions,
      currentAccount: {
        ...joensenFamily,
        type: 'individual_plan',
        planId: unlimitedPlan.planId,
        members: [member],
        otherMembers: [],
        currentMember: member,
        family: null,
      },
    };
    await renderApp({ user: demoUser, data: { ...ownerData, subscriptions } });
    const ring = await dataRing();
    expect(ring.getAttribute('aria-valuetext')).toBe('Óavmarkað data');
    expect(ring.getAttribute('aria-valuenow')).toBe('100');
    expect(within(ring).getByText('Óavmarkað')).toBeTruthy();
    expect(screen.getByText('Brúkt').nextElementSibling?.textContent).toBe('3,5 GB');
  });

  it('says when the balance was last updated, on the Faroese clock', async () => {
    // 13:32 UTC in May is 14:32 in Tórshavn (summer time).
    await renderApp({ user: demoUser, data: ownerData });
    expect(await screen.findByText('Dagført 12.05.2025 kl. 14:32')).toBeTruthy();
  });

  it('says "today" for a balance updated today', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2025-05-12T20:00:00.000Z'));
    await renderApp({ user: demoUser, data: ownerData });
    expect(await screen.findByText('Dagført í dag kl. 14:32')).toBeTruthy();
  });

  it('asks the API again on refresh and shows the new figures', async () => {
    const fresh = {
      ...ownerSubscriptions,
      currentAccount: {
        ...joensenFamily,
        currentMember: {
          ...joannes,
          dataRemaining: { domestic: 25600, eu: null },
          dataUpdatedAt: '2025-05-12T14:05:00.000Z',
        },
      },
    };
    const app = await renderApp({
      user: demoUser,
      data: ownerData,
      api: { 'GET /subscriptions': () => ok(fresh) },
    });
    await dataRing();
    await userEvent.click(screen.getByRole('button', { name: 'Dagfør tølini' }));
    await waitFor(async () =>
      expect((await dataRing()).getAttribute('aria-valuetext')).toBe('25 GB eftir av 50 GB'),
    );
    expect(screen.getByText('Dagført 12.05.2025 kl. 15:05')).toBeTruthy();
    // The refetch keeps the line on screen (SPEC §2 switching lines).
    expect(app.api.callsTo('GET /subscriptions')[0]?.url).toContain('line=214455');
  });
});

describe('home: family (SPEC §3 "Derived", §4 "Orders", §6)', () => {
  it("lists the owner's family members with their data, and members in processing marked as taking days", async () => {
    await renderApp({ user: demoUser, data: ownerData });
    const family = await screen.findByRole('region', { name: 'Familjan' });
    const sunneva = within(family).getByRole('link', { name: /Sunneva Joensen/ });
    expect(sunneva.getAttribute('href')).toBe('/familju-limur/sub-sunneva');
    expect(sunneva.textContent).toContain('2 GB eftir av 50 GB');
    const bardur = within(family).getByRole('link', { name: /Bárður Joensen/ });
    expect(within(bardur).getByText('Í gerð')).toBeTruthy();
    expect(within(bardur).getByText('kann taka nakrar dagar')).toBeTruthy();
    expect(bardur.getAttribute('href')).toBe('/familju-limur/vidgerd/214457');
    // Cancelled orders are hidden (SPEC §3).
    expect(within(family).queryByText(/Rógvi/)).toBeNull();
    // Capacity and the next member's price as +{price} kr. (SPEC §4).
    expect(family.textContent).toContain('2 av 5 limum · næsti limur +49 kr.');
    expect(within(family).getByRole('link', { name: 'Umsit' }).getAttribute('href')).toBe(
      '/umsit-familju-hald',
    );
  });

  it('shows no family and no manage links to a member who does not own the plan (SPEC §6)', async () => {
    await renderApp({
      user: { ...demoUser, firstname: 'Sunneva' },
      data: { ...ownerData, subscriptions: memberSubscriptions },
    });
    expect((await dataRing()).getAttribute('aria-valuetext')).toBe('2 GB eftir av 50 GB');
    expect(screen.queryByRole('region', { name: 'Familjan' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Umsit haldið' })).toBeNull();
  });
});

describe('home: switching lines (SPEC §2 home, §3 otherAccounts)', () => {
  const secondLine = makeMember({
    id: 'sub-work',
    phoneNumber: '557812',
    planId: individualPlan.planId,
    dataRemaining: { domestic: 5120, eu: null },
    dataTotal: { domestic: 10240, eu: null },
  });
  const workAccount = {
    ...joensenFamily,
    id: 'acc-work',
    type: 'individual_plan' as const,
    planId: individualPlan.planId,
    members: [secondLine],
    otherMembers: [],
    currentMember: secondLine,
    family: null,
  };
  const twoLines: SubscriptionsResponse = { ...ownerSubscriptions, otherAccounts: [workAccount] };
  const switched: SubscriptionsResponse = {
    ...ownerSubscriptions,
    currentAccount: workAccount,
    otherAccounts: [joensenFamily],
  };

  it("offers the customer's numbers as tabs and shows the chosen line's data", async () => {
    const app = await renderApp({
      user: demoUser,
      data: { ...ownerData, subscriptions: twoLines },
      api: { 'GET /subscriptions': () => ok(switched) },
    });
    const tabs = await screen.findByRole('tablist', { name: 'Tíni nummur' });
    const current = within(tabs).getByRole('tab', { name: '21 44 55' });
    expect(current.getAttribute('aria-selected')).toBe('true');
    await userEvent.click(within(tabs).getByRole('tab', { name: '55 78 12' }));
    await waitFor(async () =>
      expect((await dataRing()).getAttribute('aria-valuetext')).toBe('5 GB eftir av 10 GB'),
    );
    expect(app.api.callsTo('GET /subscriptions')[0]?.url).toContain('line=557812');
    expect(screen.getByRole('tab', { name: '55 78 12' }).getAttribute('aria-selected')).toBe(
      'true',
    );
    expect(screen.getByText('Einstaklingahald · 10 GB')).toBeTruthy();
    // Remembered on the device for the next start (see shared/api/account-data.test.ts).
    await waitFor(async () => expect(await chosenLine.get()).toBe('557812'));
  });

  it('shows no tabs for a customer with one line', async () => {
    await renderApp({ user: demoUser, data: ownerData });
    await dataRing();
    expect(screen.queryByRole('tablist')).toBeNull();
  });

  it('keeps the current line and says so when switching fails', async () => {
    const app = await renderApp({
      user: demoUser,
      data: { ...ownerData, subscriptions: twoLines },
      api: { 'GET /subscriptions': () => fail(503, 'SERVICE_UNAVAILABLE', 'Down') },
    });
    await userEvent.click(await screen.findByRole('tab', { name: '55 78 12' }));
    await waitFor(() => expect(app.toasts.getToasts()).toHaveLength(1));
    expect((await dataRing()).getAttribute('aria-valuetext')).toBe('30 GB eftir av 50 GB');
  });
});

describe('home: abroad, processing, offers (SPEC §1, §3, §4)', () => {
  it('shows the roaming offer with its price on the plan while the EU package is off', async () => {
    await renderApp({ user: demoUser, data: ownerData });
    const abroad = await screen.findByRole('region', { name: 'Uttanlands' });
    expect(abroad.textContent).toContain('20 tímar av telefonsamrøðum');
    expect(abroad.textContent).toContain('Ókeypis SMS');
    expect(abroad.textContent).toContain('Upp til 50 GB av data');
    expect(abroad.textContent).toContain('49,00 kr. um mánaðin');
    expect(abroad.textContent).toContain('39,20 kr. uttan MVG · MVG 9,80 kr.');
    expect(within(abroad).queryByRole('button')).toBeNull();
  });

  it('shows the EU data left while the package is on', async () => {
    const member = {
      ...joannes,
      dataRemaining: { domestic: 30720, eu: 40960 },
      dataTotal: { domestic: 51200, eu: 51200 },
    };
    const subscriptions = {
      ...ownerSubscriptions,
      currentAccount: { ...joensenFamily, euPackage: true, currentMember: member },
    };
    await renderApp({ user: demoUser, data: { ...ownerData, subscriptions }, locale: 'en' });
    const abroad = await screen.findByRole('region', { name: 'Abroad' });
    const meter = within(abroad).getByRole('meter', { name: 'Data left abroad' });
    expect(meter.getAttribute('aria-valuetext')).toBe('40 GB left of 50 GB');
    expect(abroad.textContent).toContain('20 hours of calls');
  });

  const roaming = (over: Partial<NonNullable<(typeof joannes)['roaming']>> = {}) => ({
    capOere: 37300,
    defaultCapOere: 37300,
    chargedOere: 32800,
    chargedMb: 3280,
    pricePerMbOere: 10,
    stopped: false,
    stoppedAt: null,
    ...over,
  });
  const withRoaming = (
    member: typeof joannes,
    base: SubscriptionsResponse = ownerSubscriptions,
  ): SubscriptionsResponse => ({
    ...base,
    currentAccount: { ...base.currentAccount!, currentMember: member },
  });

  it("issue 33 §2: shows the month's roaming charges against the cap, or with no cap, linking to the cap", async () => {
    await renderApp({
      user: demoUser,
      data: { ...ownerData, subscriptions: withRoaming({ ...joannes, roaming: roaming() }) },
    });
    const abroad = await screen.findByRole('region', { name: 'Uttanlands' });
    const link = within(abroad).getByRole('link', {
      name: 'Kostnaður uttanlands: 328 kr. av 373 kr.',
    });
    expect(link.getAttribute('href')).toBe(`/utreidsluloft/${joannes.id}`);
    cleanup();

    await renderApp({
      user: demoUser,
      data: {
        ...ownerData,
        subscriptions: withRoaming({ ...joannes, roaming: roaming({ capOere: null }) }),
      },
    });
    const noCap = await screen.findByRole('region', { name: 'Uttanlands' });
    expect(
      within(noCap).getByRole('link', { name: 'Kostnaður uttanlands: 328 kr. (einki loft)' }),
    ).toBeTruthy();
  });

  it('issue 33 §2: a stopped number says so; the owner gets one tap to raise the cap, a member is told to ask', async () => {
    const stopped = roaming({
      chargedOere: 37400,
      stopped: true,
      stoppedAt: '2026-11-25T10:00:00Z',
    });
    await renderApp({
      user: demoUser,
      data: { ...ownerData, subscriptions: withRoaming({ ...joannes, roaming: stopped }) },
    });
    const abroad = await screen.findByRole('region', { name: 'Uttanlands' });
    expect(within(abroad).getByRole('status').textContent).toContain(
      'Loftið 373 kr. er nátt, og data uttanlands er steðgað.',
    );
    expect(within(abroad).getByRole('link', { name: 'Hækka loftið' }).getAttribute('href')).toMatch(
      new RegExp(`^/utreidsluloft/${joannes.id}\\?`),
    );
    cleanup();

    await renderApp({
      user: demoUser,
      data: {
        ...ownerData,
        subscriptions: withRoaming({ ...sunneva, roaming: stopped }, memberSubscriptions),
      },
    });
    const member = await screen.findByRole('region', { name: 'Uttanlands' });
    expect(member.textContent).toContain('Bið eigaran av kontuni hækka loftið.');
    expect(within(member).queryByRole('link', { name: 'Hækka loftið' })).toBeNull();
  });

  it('marks the main subscription that is still processing (SPEC §3 backup order, §4)', async () => {
    await renderApp({
      user: demoUser,
      data: {
        ...ownerData,
        orders: [{ ...firstSubscriptionProcessing, phoneNumber: '214455' }],
      },
    });
    const notice = await screen.findByRole('link', { name: /Haldið verður gjøgnumført/ });
    expect(notice.textContent).toContain('Bílagt 28.05.2025. Hetta kann taka nakrar dagar.');
    // It opens the order with its steps (SPEC §4 "Subscription processing can take days").
    expect(notice.getAttribute('href')).toBe('/menu/bilegingar/order-first');
  });

  it('says which step the processing subscription has reached (SPEC §4 "Subscription processing can take days")', async () => {
    await renderApp({
      user: demoUser,
      data: {
        ...ownerData,
        orders: [
          {
            ...firstSubscriptionProcessing,
            phoneNumber: '214455',
            provisioning: {
              steps: [
                { step: 'received', at: '2025-05-28T09:00:00.000Z', reason: null },
                { step: 'sim_sent', at: '2025-05-28T12:00:00.000Z', reason: null },
              ],
              upcoming: ['active'],
              waitingFor: 'customer_sim',
              expectedAt: '2025-05-31T12:00:00.000Z',
              delivery: 'home',
              pickupLocation: null,
              isPorting: false,
              portDate: null,
            },
          },
        ],
      },
    });
    const notice = await screen.findByRole('link', { name: /Haldið verður gjøgnumført/ });
    expect(notice.textContent).toContain('Nú: SIM-kort sent');
  });

  it('opens the 2-for-1 promotion with store links (SPEC §1, §2 app-promotion modal)', async () => {
    await renderApp({ user: demoUser, data: ownerData, locale: 'en' });
    await userEvent.click(await screen.findByRole('button', { name: /^2 for 1 Buy one/ }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('link', { name: /App Store/ })).toBeTruthy();
    expect(within(dialog).getByRole('link', { name: /Google Play/ })).toBeTruthy();
  });

  it('offers give data, request data and buy package as quick actions; top-up only on a prepaid line (SPEC §1)', async () => {
    await renderApp({ user: demoUser, data: ownerData });
    await dataRing();
    const actions = screen.getByRole('navigation', { name: 'Skjót val' });
    expect(
      within(actions)
        .getAllByRole('link')
        .map((link) => [link.textContent, link.getAttribute('href')]),
    ).toEqual([
      ['Gev data', '/gev-data'],
      ['Bið um data', '/bidja-um-data'],
      ['Keyp pakka', '/keyp-pakka'],
    ]);
  });

  it('offers top-up on a prepaid (talutíð) line', async () => {
    const member = { ...ownerSubscriptions.currentAccount!.currentMember, prepaidBalance: 2350 };
    await renderApp({
      user: demoUser,
      data: {
        ...ownerData,
        subscriptions: {
          ...ownerSubscriptions,
          currentAccount: { ...ownerSubscriptions.currentAccount!, currentMember: member },
        },
      },
    });
    await dataRing();
    const actions = screen.getByRole('navigation', { name: 'Skjót val' });
    expect(within(actions).getByRole('link', { name: 'Fyll uppá' }).getAttribute('href')).toBe(
      '/fyll-uppa',
    );
  });
});

describe('home: loading, failure and the welcome guards (SPEC §1 start-up, §2 guards)', () => {
  it('loads the subscriptions itself when the start-up could not, with a retry on failure', async () => {
    let answer = () => fail(503, 'SERVICE_UNAVAILABLE', 'Down');
    await renderApp({
      user: demoUser,
      api: {
        'GET /subscriptions': () => answer(),
        'GET /orders': () => ok(ownerData.orders),
        'GET /plans': () => ok(plans),
      },
    });
    expect(await screen.findByRole('alert')).toBeTruthy();
    answer = () => ok(ownerSubscriptions);
    await userEvent.click(screen.getByRole('button', { name: 'Royn aftur' }));
    expect((await dataRing()).getAttribute('aria-valuetext')).toBe('30 GB eftir av 50 GB');
  });

  it('goes to welcome for a new customer with no line and no orders (SPEC §2)', async () => {
    const app = await renderApp({
      user: demoUser,
      data: { subscriptions: newCustomer, orders: [] },
    });
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/valkomin'));
    expect(await screen.findByRole('heading', { name: 'Vælkomin til Alda, Rannvá!' })).toBeTruthy();
  });

  it('goes to welcome when the answers arrive after start-up and say there is nothing yet', async () => {
    const app = await renderApp({
      user: demoUser,
      api: {
        'GET /subscriptions': () => ok(newCustomer),
        'GET /orders': () => ok([{ ...addingBardur, isCancelled: true }]),
        'GET /plans': () => ok(plans),
      },
    });
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/valkomin'));
  });

  it('stays home while the first subscription is on its way (SPEC §2, §4 "can take days")', async () => {
    const app = await renderApp({
      user: demoUser,
      data: { subscriptions: newCustomer, orders: [firstSubscriptionProcessing], plans },
    });
    expect(await screen.findByRole('heading', { name: 'Haldið er á veg' })).toBeTruthy();
    expect(screen.getByText('Bílagt 28.05.2025')).toBeTruthy();
    expect(app.router.state.location.pathname).toBe('/');
  });

  it('sends welcome home once the current account has a planId (SPEC §2)', async () => {
    const app = await renderApp({ user: demoUser, data: ownerData, initialEntries: ['/valkomin'] });
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/'));
    await dataRing();
  });

  it('keeps welcome while the current account has no planId yet (SPEC §2)', async () => {
    const app = await renderApp({
      user: demoUser,
      data: {
        ...ownerData,
        subscriptions: {
          ...ownerSubscriptions,
          currentAccount: { ...joensenFamily, planId: null },
        },
      },
      initialEntries: ['/valkomin'],
    });
    expect(await screen.findByRole('heading', { name: /Vælkomin til Alda/ })).toBeTruthy();
    expect(app.router.state.location.pathname).toBe('/valkomin');
  });
});

describe('home without a connection (issue 16 item 4, SPEC §8 offline)', () => {
  const twoHoursAgo = () => Date.now() - 2 * 60 * 60 * 1000 - 5 * 60 * 1000;
  const fresher = {
    ...ownerSubscriptions,
    currentAccount: {
      ...joensenFamily,
      currentMember: { ...joannes, dataRemaining: { domestic: 10240, eu: null } },
    },
  };

  it('issue 16.4: offline, shows the last known figures with their age, and fresh ones once back online', async () => {
    connection.set(false);
    const app = await renderApp({
      user: demoUser,
      data: ownerData,
      api: { 'GET /subscriptions': () => ok(fresher) },
    });
    app.queryClient.setQueryData(accountKeys.resource('subscriptions'), ownerSubscriptions, {
      updatedAt: twoHoursAgo(),
    });
    expect((await dataRing()).getAttribute('aria-valuetext')).toBe('30 GB eftir av 50 GB');
    expect(await screen.findByText('Dagført fyri 2 tímum síðan')).toBeTruthy();
    expect(app.api.callsTo('GET /subscriptions')).toEqual([]);

    connection.set(true);
    await waitFor(async () =>
      expect((await dataRing()).getAttribute('aria-valuetext')).toBe('10 GB eftir av 50 GB'),
    );
    expect(screen.queryByText(/Dagført fyri/)).toBeNull();
  });

  it('issue 16.4: says the age in English too', async () => {
    connection.set(false);
    const app = await renderApp({ user: demoUser, data: ownerData, locale: 'en' });
    app.queryClient.setQueryData(accountKeys.resource('subscriptions'), ownerSubscriptions, {
      updatedAt: twoHoursAgo(),
    });
    expect(await screen.findByText('Updated 2 hours ago')).toBeTruthy();
  });

  it('issue 16.4: online, the figures are fresh and carry no age', async () => {
    await renderApp({ user: demoUser, data: ownerData });
    await dataRing();
    expect(screen.queryByText(/Dagført fyri/)).toBeNull();
  });

  it('issue 16.4: when a refresh fails, the figures stay with their age', async () => {
    const app = await renderApp({
      user: demoUser,
      data: ownerData,
      api: { 'GET /subscriptions': () => fail(503, 'DATABASE_UNAVAILABLE') },
    });
    app.queryClient.setQueryData(accountKeys.resource('subscriptions'), ownerSubscriptions, {
      updatedAt: twoHoursAgo(),
    });
    await dataRing();
    await userEvent.click(screen.getByRole('button', { name: 'Dagfør tølini' }));
    expect(await screen.findByText('Dagført fyri 2 tímum síðan')).toBeTruthy();
    expect((await dataRing()).getAttribute('aria-valuetext')).toBe('30 GB eftir av 50 GB');
  });
});

describe('welcome (SPEC §2 /valkomin)', () => {
  it('welcomes a customer without a subscription with the roaming offer facts (SPEC §1)', async () => {
    await renderApp({
      user: demoUser,
      data: { subscriptions: newCustomer, orders: [] },
      locale: 'en',
    });
    expect(await screen.findByRole('heading', { name: 'Welcome to Alda, Rannvá!' })).toBeTruthy();
    expect(screen.getByText('20 hours of calls')).toBeTruthy();
    expect(screen.getByText('Free SMS')).toBeTruthy();
    expect(screen.getByText('Up to 50 GB of data')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'See our plans' }).getAttribute('href')).toBe(
      '/menu/hald',
    );
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
  });
});
