import { describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import { lazyValue } from '@/shared/api/lazy-value';
import { ROUTES } from '@/shared/config/paths';
import { createAppRouter } from '@/shared/router/app-router';
import { createTestContext } from '@/test/render';
import { App } from './app';
import { createAppRoutes } from './routes';

describe("a guest's start (issue 45: login's first download)", () => {
  it('shows the login screen without the query cache, and loads it for the next screen', async () => {
    const ctx = createTestContext();
    const loadQueries = vi.fn(async () => ({
      queryClient: ctx.queryClient,
      offlineCache: ctx.offlineCache,
    }));
    const queries = lazyValue(loadQueries);
    const routes = createAppRoutes(
      { session: ctx.session, queryClient: ctx.queryClient },
      async () => {},
      () => queries.load(),
    );
    const router = createAppRouter(routes, { initialEntries: [ROUTES.login] });
    await router.ready();
    render(
      <App
        router={router}
        queries={queries}
        i18n={ctx.i18n}
        services={ctx.services}
        modals={ctx.modals}
        toasts={ctx.toasts}
      />,
    );

    // The first screen, its frame (status check, offline toast) and no query cache: a hook that
    // needed one would have thrown "No QueryClient set" into the route's error screen.
    expect(await screen.findByText(ctx.i18n.t('auth.chooser.welcome'))).toBeTruthy();
    expect(loadQueries).not.toHaveBeenCalled();

    // Any other screen waits for the query cache with its chunk, and then uses it.
    await router.navigate(ROUTES.loginEmail);
    expect(
      await screen.findByRole('heading', { name: ctx.i18n.t('auth.email.heading') }),
    ).toBeTruthy();
    expect(loadQueries).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(queries.get()?.queryClient).toBe(ctx.queryClient));
  });
});
