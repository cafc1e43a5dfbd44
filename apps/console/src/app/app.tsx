import { useEffect, type ReactNode } from 'react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { i18n as I18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { RouterProvider, type createBrowserRouter } from 'react-router';
import { ServicesProvider, type ConsoleServices } from '@/shared/services';

export interface ConsoleProvidersProps {
  services: ConsoleServices;
  queryClient: QueryClient;
  i18n: I18n;
  children: ReactNode;
}

/**
 * The providers every screen runs in: texts, the query cache, the API and the session. When the
 * session ends (sign-out, or a 401 of any call) the cache is emptied: no customer's data stays
 * in the tab for the next person at the desk.
 */
export function ConsoleProviders({ services, queryClient, i18n, children }: ConsoleProvidersProps) {
  const { session } = services;
  useEffect(
    () =>
      session.subscribe(() => {
        if (!session.get()) queryClient.clear();
      }),
    [session, queryClient],
  );
  return (
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <ServicesProvider services={services}>{children}</ServicesProvider>
      </QueryClientProvider>
    </I18nextProvider>
  );
}

/** The console: its providers around the router (main.tsx). */
export function ConsoleApp({
  router,
  ...providers
}: Omit<ConsoleProvidersProps, 'children'> & { router: ReturnType<typeof createBrowserRouter> }) {
  return (
    <ConsoleProviders {...providers}>
      <RouterProvider router={router} />
    </ConsoleProviders>
  );
}
