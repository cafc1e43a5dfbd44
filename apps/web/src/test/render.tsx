import type { ReactElement } from 'react';
import { act, render } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { I18nextProvider } from 'react-i18next';
import type { Locale } from '@alda/contract/locale';
import type { User } from '@alda/contract/schemas/auth';
import { createAppRoutes } from '@/app/routes';
import { createAppServices } from '@/app/services';
import { signedInShell } from '@/app/signed-in-shell-loader';
import { resetStateOnSignOut } from '@/app/session-reset';
import { accountKeys, httpAccountLoaders, type AccountResource } from '@/shared/api/account-data';
import { isOnline } from '@/shared/api/connectivity';
import { createHttpClient } from '@/shared/api/http';
import { createOfflineCache } from '@/shared/api/offline-cache';
import { createSessionStore } from '@/shared/auth/session-store';
import { createTokenStore } from '@/shared/auth/token-store';
import { createI18n } from '@/shared/i18n/i18n';
import { resources } from '@/shared/i18n/resources';
import { getPlatform } from '@/shared/native/platform';
import { createMemoryStorage } from '@/shared/native/preferences';
import { createAppRouter, RouterView, type AppRoute } from '@/shared/router/app-router';
import { AppServicesContext } from '@/shared/services/app-services';
import { ModalContext } from '@/shared/ui/modal/modal-context';
import { preloadModalHost } from '@/shared/ui/modal/lazy-modal-host';
import { createModalStore } from '@/shared/ui/modal/modal-store';
import { ToastContext } from '@/shared/ui/toast/toast-context';
import { createToastStore } from '@/shared/ui/toast/toast-store';
import { createFakeApi, type Handler } from './fake-api';
// The schemas of the calls the entry chunk makes (start-up, sign-in, polling, the status check)
// load lazily in the app. Tests load them up front (and the modal host, see renderApp), so that
// neither a test's time limit nor its fake timers depend on how long loading a module takes.
import '@/shared/api/account-schemas';
import '@alda/contract/schemas/auth';
import '@alda/contract/schemas/data-transfers';
import '@alda/contract/schemas/notifications';
import '@alda/contract/schemas/status';

export interface TestAppOptions {
  /** Start signed in as this user (tokens 'access-1' / 'refresh-1'). */
  user?: User | null;
  /** Start-up data already in the cache. */
  data?: Partial<Record<AccountResource, unknown>>;
  api?: Record<string, Handler>;
  locale?: Locale;
  initialEntries?: string[];
  /** Custom routes instead of the app's. */
  routes?: (deps: ReturnType<typeof createTestContext>) => AppRoute[];
}

/** Everything the app wires together, with fakes at the edges (fetch, storage). */
export function createTestContext(options: TestAppOptions = {}) {
  const api = createFakeApi(options.api);
  const storage = createMemoryStorage(
    options.user ? { accessToken: 'access-1', refreshToken: 'refresh-1' } : {},
  );
  const tokens = createTokenStore(storage);
  const session = createSessionStore(
    options.user ? { user: options.user, userFetched: true } : { user: null, userFetched: true },
  );
  const i18n = createI18n(options.locale ?? 'fo', resources);
  const queryClient = new QueryClient({
    // As in production (shared/api/query-client.ts), minus retries: start-up data stays fresh
    // for a minute, so a screen does not refetch what the start-up just loaded.
    defaultOptions: {
      queries: { retry: false, gcTime: Infinity, staleTime: 60_000, refetchOnWindowFocus: false },
      mutations: { retry: false, networkMode: 'always' },
    },
  });
  for (const [resource, value] of Object.entries(options.data ?? {})) {
    queryClient.setQueryData(accountKeys.resource(resource as AccountResource), value);
  }
  const http = createHttpClient({
    fetch: api.fetch,
    getLocale: () => i18n.language,
    tokens,
    onSessionExpired: () => session.signOut('expired'),
    isOnline,
    getPlatform,
  });
  // Not started: a test that keeps data for offline use starts it (`offlineCache.start()`).
  const offlineCache = createOfflineCache({ queryClient, storage, session, delayMs: 0 });
  const loaders = httpAccountLoaders(http);
  const services = createAppServices({
    http,
    session,
    tokens,
    queryClient: async () => queryClient,
    loaders,
  });
  const modals = createModalStore();
  const toasts = createToastStore();
  return {
    api,
    storage,
    tokens,
    session,
    i18n,
    queryClient,
    http,
    services,
    modals,
    toasts,
    offlineCache,
  };
}

export type TestContext = ReturnType<typeof createTestContext>;

export function Providers({
  ctx,
  children,
}: {
  ctx: ReturnType<typeof createTestContext>;
  children: ReactElement;
}) {
  return (
    <I18nextProvider i18n={ctx.i18n}>
      <QueryClientProvider client={ctx.queryClient}>
        <AppServicesContext.Provider value={ctx.services}>
          <ModalContext.Provider value={ctx.modals}>
            <ToastContext.Provider value={ctx.toasts}>{children}</ToastContext.Provider>
          </ModalContext.Provider>
        </AppServicesContext.Provider>
      </QueryClientProvider>
    </I18nextProvider>
  );
}

/** Renders the app (or custom routes) in a memory router at `initialEntries`. */
export async function renderApp(options: TestAppOptions = {}) {
  // As in the app once it is idle after its first screen: modals open at once.
  await preloadModalHost();
  // The footer and polling, which the app loads with the query cache.
  await signedInShell.load();
  const ctx = createTestContext(options);
  if (options.user) await ctx.tokens.load();
  const routes = options.routes
    ? options.routes(ctx)
    : createAppRoutes({ session: ctx.session, queryClient: ctx.queryClient });
  const router = createAppRouter(routes, { initialEntries: options.initialEntries ?? ['/'] });
  resetStateOnSignOut({
    session: ctx.session,
    queryClient: () => ctx.queryClient,
    offlineCache: ctx.offlineCache,
    modals: ctx.modals,
    toasts: ctx.toasts,
    t: ctx.i18n.t.bind(ctx.i18n),
    navigate: (path) => void router.navigate(path, { replace: true }),
  });
  // As the app: the first screen's chunk before the first render. Parts of a screen may still
  // load (React.lazy): React shows them once the awaited act is over.
  await router.ready();
  const app = (
    <Providers ctx={ctx}>
      <RouterView router={router} />
    </Providers>
  );
  let view!: ReturnType<typeof render>;
  await act(async () => {
    view = render(app);
  });
  return { ...ctx, router, view };
}
