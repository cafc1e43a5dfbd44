import { startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { TOKEN_KEYS } from '@alda/contract/constants';
import { App } from '@/app/app';
import { initErrorReporting } from '@/app/error-reporting';
import { afterFirstScreen, firstScreenPath, preloadScreen } from '@/app/first-screen';
import { createAppRoutes } from '@/app/routes';
import { createAppServices } from '@/app/services';
import { resetStateOnSignOut } from '@/app/session-reset';
import { signedInShell } from '@/app/signed-in-shell-loader';
import { startup } from '@/app/startup';
import { chosenLine } from '@/shared/account/chosen-line';
import { httpAccountLoaders } from '@/shared/api/account-data';
import { dropEarlyResponses } from '@/shared/api/early-requests';
import { http } from '@/shared/api/client';
import { followConnectivity } from '@/shared/api/connectivity';
import { lazyValue } from '@/shared/api/lazy-value';
import { fetchCurrentUser } from '@/shared/auth/current-user';
import { rememberTappedStart } from '@/shared/auth/return-path-storage';
import { sessionStore } from '@/shared/auth/session-store';
import { tokenStore } from '@/shared/auth/token-store';
import { followAccountLocale, i18n, loadLaterTexts, restoreLocale } from '@/shared/i18n/i18n';
import { hideSplashScreen } from '@/shared/native/splash-screen';
import { preferences } from '@/shared/native/preferences';
import { createAppRouter, type AppRouter } from '@/shared/router/app-router';
import { afterFirstPaint, holdUntilFirstPaint } from '@/shared/ui/first-paint';
import { modalStore } from '@/shared/ui/modal/modal-store';
import { themeStore } from '@/shared/theme/theme-store';
import { toastStore } from '@/shared/ui/toast/toast-store';
import './styles.css';

// What the first screen does not show (the first poll, home's request inbox) waits until that
// screen is on the display (issue 45); the root layout's first commit lets it go.
holdUntilFirstPaint();

// Light or dark as the customer chose (ADR 0067), before anything is drawn.
void themeStore.restore();

// Online or not, from the device (issue 16 item 4): queries pause offline, writes fail at once.
followConnectivity();
// The query cache and the last known data per user, for a start without a connection (issue 16
// item 4, ADR 0069): a chunk of its own (issue 45, ADR 0086). A signed-in start loads it beside
// GET /auth/me; a guest's first screen does without it.
// The frame's signed-in parts (footer, polling) come with it.
const queries = lazyValue(() =>
  Promise.all([import('@/shared/api/query-runtime'), signedInShell.load()]).then(([m]) =>
    m.startQueryRuntime({ storage: preferences, session: sessionStore }),
  ),
);
const queryClient = () => queries.load().then((runtime) => runtime.queryClient);
const loaders = httpAccountLoaders(http, () => chosenLine.get());
const services = createAppServices({
  http,
  session: sessionStore,
  tokens: tokenStore,
  queryClient,
  loaders,
});
// The later screens' texts in the language shown: known once start-up has restored it (a screen
// preloaded before that must not fetch the default language's).
let localeRestored = () => {};
const restored = new Promise<void>((resolve) => (localeRestored = resolve));
const routes = createAppRoutes(
  {
    session: sessionStore,
    queryClient: { getQueryData: (key) => queries.get()?.queryClient.getQueryData(key) },
  },
  () => restored.then(() => loadLaterTexts()),
  () => queries.load(),
);
let router: AppRouter | null = null;

// The first screen's chunks (and, signed in, the schemas and zod) download while the start-up
// below restores the locale and fetches the user, not after it.
void preferences.get(TOKEN_KEYS.access).then(
  (token) => {
    preloadScreen(routes, firstScreenPath(routes, window.location.pathname, !!token));
    if (token) queries.load().catch(() => {});
  },
  () => {},
);

// SPEC §4 "Session": on logout or an unrecoverable 401, all state is reset and the user goes to login.
resetStateOnSignOut({
  session: sessionStore,
  queryClient: () => queries.get()?.queryClient ?? null,
  offlineCache: { wipe: () => queries.load().then((runtime) => runtime.offlineCache.wipe()) },
  modals: modalStore,
  toasts: toastStore,
  t: i18n.t.bind(i18n),
  navigate: (path) => void router?.navigate(path, { replace: true }),
});

void startup({
  registerPlugins: () => {
    void initErrorReporting().catch((error: unknown) =>
      console.warn('Error reporting did not start', error),
    );
  },
  restoreLocale: () => restoreLocale().finally(localeRestored),
  fetchUser: () =>
    fetchCurrentUser(http, tokenStore, (userId) =>
      queries.load().then((runtime) => runtime.offlineCache.restore(userId)),
    ),
  followLocale: followAccountLocale,
  session: sessionStore,
  queryClient,
  loaders,
  mount: () => {
    // Start where the guards would send this visitor (a guest on `/` → login): the router then
    // neither waits for nor downloads the screen it would leave at once (issue 13: on the login
    // screen, home's ~70 KiB of chunks held up the first paint).
    const signedIn = sessionStore.getState().user !== null;
    // A guest opened at a tapped notification's address lands there after signing in (issue 64).
    if (!signedIn) rememberTappedStart(window.location.pathname, window.location.search);
    const start = firstScreenPath(routes, window.location.pathname, signedIn);
    if (start !== window.location.pathname) window.history.replaceState(null, '', start);
    const appRouter = createAppRouter(routes);
    router = appRouter;
    const root = document.getElementById('root');
    if (!root) throw new Error('#root is missing from index.html');
    // The first screen's chunk (preloaded above) before the first render: the prerendered login
    // or the splash stays until the screen can replace it.
    void appRouter.ready().then(() => {
      const reactRoot = createRoot(root);
      // The first render as a transition (issue 45): React then renders in slices of a few
      // milliseconds and lets the browser in between, instead of one long task of the whole
      // first screen. What was shown before (the prerendered login or the splash) stays until
      // the screen is ready to replace it.
      startTransition(() =>
        reactRoot.render(
          <App
            router={appRouter}
            queries={queries}
            i18n={i18n}
            services={services}
            modals={modalStore}
            toasts={toastStore}
          />,
        ),
      );
    });
  },
  hideSplash: hideSplashScreen,
})
  // The other screens' texts once the first screen is up (their routes also wait for them).
  .then(() => (router ? afterFirstScreen(router) : undefined))
  // Not before the first screen is on the display either (issue 45): a request started before
  // its paint shares the link with what the paint waits for.
  .then(afterFirstPaint)
  .then(() => {
    // Start-up and the first screen have taken what index.html sent early (the purchase screen
    // asks for its own GETs once it shows); a later request must not get those answers.
    dropEarlyResponses();
    // A guest's query cache too, so the next screen does not wait for it.
    return Promise.all([loadLaterTexts(), queries.load()]);
  })
  .catch((error: unknown) => console.warn('The texts of the other screens did not load', error))
  // Then, by import() (the first screens carry none of it): notification taps (issue 64) and the
  // shell for a start without a network, once the first screen no longer shares the link.
  .then(() => import('@/app/later-start'))
  .then(({ startLater }) => startLater(router), console.warn);
