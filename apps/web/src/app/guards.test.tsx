import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { Outlet } from 'react-router';
import { ok } from '@/test/fake-api';
import {
  demoUser,
  familyAccount,
  noSubscriptions,
  processingOrder,
  subscriptionsWithPlan,
} from '@/test/fixtures';
import { renderApp, type TestContext } from '@/test/render';
import { createGuards } from './guards';

const contentApi = {
  'GET /content/terms': () =>
    ok({
      slug: 'terms',
      locale: 'fo',
      title: 'Treytir',
      markdown: '# Treytir',
      updatedAt: '2025-01-01T00:00:00Z',
    }),
};

describe('route guards (SPEC §2)', () => {
  it('sends a user without a session from an auth-required route to login (SPEC §2)', async () => {
    const app = await renderApp({ initialEntries: ['/menu'] });
    expect(await screen.findByRole('heading', { name: 'Hvussu vilt tú rita inn?' })).toBeTruthy();
    expect(app.router.state.location.pathname).toBe('/rita-inn');
  });

  it.each(['/', '/valkomin', '/menu/treytir', '/menu/mal', '/min-brukari'])(
    'guards %s as auth-required (SPEC §2)',
    async (path) => {
      const app = await renderApp({ initialEntries: [path], api: contentApi });
      await waitFor(() => expect(app.router.state.location.pathname).toBe('/rita-inn'));
    },
  );

  it('sends a signed-in user from the guest-only login to home (SPEC §2)', async () => {
    const app = await renderApp({ user: demoUser, initialEntries: ['/rita-inn'] });
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/'));
    expect(await screen.findByRole('heading', { level: 1, name: /Rannvá/ })).toBeTruthy();
  });

  it('guards the children of /rita-inn as guest-only too (SPEC §2)', async () => {
    const app = await renderApp({ user: demoUser, initialEntries: ['/rita-inn/vid-telduposti'] });
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/'));
  });

  it('shows the login chooser to a guest (SPEC §2 auth.login)', async () => {
    await renderApp({ initialEntries: ['/rita-inn'] });
    expect(await screen.findByRole('link', { name: /Við teldupostinum/ })).toBeTruthy();
  });

  it('sends home to the welcome screen when the user has no current account and no orders (SPEC §2)', async () => {
    const app = await renderApp({
      user: demoUser,
      data: { subscriptions: noSubscriptions, orders: [] },
    });
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/valkomin'));
    expect(await screen.findByRole('heading', { name: 'Vælkomin til Alda, Rannvá!' })).toBeTruthy();
  });

  it('keeps home when there is no current account but an order (SPEC §2)', async () => {
    const app = await renderApp({
      user: demoUser,
      data: { subscriptions: noSubscriptions, orders: [processingOrder] },
    });
    expect(await screen.findByRole('heading', { level: 1, name: /Rannvá/ })).toBeTruthy();
    expect(app.router.state.location.pathname).toBe('/');
  });

  it('ignores cancelled orders when deciding home → welcome (SPEC §2, §3 "Cancelled orders are hidden")', async () => {
    const app = await renderApp({
      user: demoUser,
      data: { subscriptions: noSubscriptions, orders: [{ ...processingOrder, isCancelled: true }] },
    });
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/valkomin'));
  });

  it('keeps home when the subscriptions could not be loaded: nothing is known, nothing is faked (SPEC §1, §2)', async () => {
    const app = await renderApp({ user: demoUser });
    // Home asks again itself; when that fails too it says so and offers a retry.
    expect(await screen.findByRole('button', { name: 'Royn aftur' })).toBeTruthy();
    expect(screen.queryByRole('meter')).toBeNull();
    expect(app.router.state.location.pathname).toBe('/');
  });

  it('sends the welcome screen to home once the current account has a planId (SPEC §2)', async () => {
    const app = await renderApp({
      user: demoUser,
      data: { subscriptions: subscriptionsWithPlan, orders: [] },
      initialEntries: ['/valkomin'],
    });
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/'));
    expect(await screen.findByRole('heading', { name: 'Títt data' })).toBeTruthy();
  });

  it('keeps the welcome screen while the current account has no planId (SPEC §2)', async () => {
    const app = await renderApp({
      user: demoUser,
      data: {
        subscriptions: { ...noSubscriptions, currentAccount: { ...familyAccount, planId: null } },
      },
      initialEntries: ['/valkomin'],
    });
    expect(await screen.findByRole('heading', { name: /Vælkomin til Alda/ })).toBeTruthy();
    expect(app.router.state.location.pathname).toBe('/valkomin');
  });

  it('redirects unknown paths to home (SPEC §2)', async () => {
    const app = await renderApp({ user: demoUser, initialEntries: ['/finst/ikki'] });
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/'));
  });

  it('redirects unknown paths of a guest to home and on to login (SPEC §2)', async () => {
    const app = await renderApp({ initialEntries: ['/finst/ikki'] });
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/rita-inn'));
  });
});

describe('owner-only guard (SPEC §2, §6)', () => {
  const ownerRoutes = (ctx: TestContext) => {
    const guards = createGuards({ session: ctx.session, queryClient: ctx.queryClient });
    return [
      {
        element: <Outlet />,
        hydrateFallbackElement: <p>loading</p>,
        children: [
          { index: true, element: <h1>home</h1> },
          {
            guard: guards.ownerOnly,
            children: [{ path: 'umsit-familju-hald', element: <h1>manage family</h1> }],
          },
        ],
      },
    ];
  };

  it('sends non-owners to home (SPEC §2 "Owner routes send non-owners to home")', async () => {
    const app = await renderApp({
      user: demoUser,
      data: { subscriptions: { ...subscriptionsWithPlan, isOwner: false } },
      routes: ownerRoutes,
      initialEntries: ['/umsit-familju-hald'],
    });
    expect(await screen.findByRole('heading', { name: 'home' })).toBeTruthy();
    expect(app.router.state.location.pathname).toBe('/');
  });

  it('lets owners through (SPEC §6)', async () => {
    await renderApp({
      user: demoUser,
      data: { subscriptions: subscriptionsWithPlan },
      routes: ownerRoutes,
      initialEntries: ['/umsit-familju-hald'],
    });
    expect(await screen.findByRole('heading', { name: 'manage family' })).toBeTruthy();
  });

  it('treats a user as owner when the subscriptions are not loaded (SPEC §3 "isOwner … default true")', async () => {
    await renderApp({
      user: demoUser,
      routes: ownerRoutes,
      initialEntries: ['/umsit-familju-hald'],
    });
    expect(await screen.findByRole('heading', { name: 'manage family' })).toBeTruthy();
  });
});

describe('footer by route flag (SPEC §2)', () => {
  it('shows the footer navigation on footer routes', async () => {
    await renderApp({ user: demoUser });
    const nav = await screen.findByRole('navigation', { name: 'Høvuðsvalmynd' });
    expect(nav.textContent).toContain('Heim');
    expect(nav.textContent).toContain('Mín brúkari');
    expect(nav.textContent).toContain('Valmynd');
    expect(screen.getByRole('button', { name: 'Opna 2 fyri 1' })).toBeTruthy();
  });

  it('hides it on routes without the flag (login)', async () => {
    await renderApp({ initialEntries: ['/rita-inn'] });
    await screen.findByRole('heading', { name: 'Hvussu vilt tú rita inn?' });
    expect(screen.queryByRole('navigation', { name: 'Høvuðsvalmynd' })).toBeNull();
  });
});
