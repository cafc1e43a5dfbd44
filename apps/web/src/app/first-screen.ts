import { loadScreen, matchAppRoutes, type AppRoute } from '@/shared/router/app-router';
import { ROUTES } from '@/shared/config/paths';

/**
 * The path of the screen the app will show first: where the guards (guards.ts) send a guest on a
 * signed-in route (login) and a signed-in user on a guest route (home). A guess from the saved
 * tokens, for preloading only: the guards decide.
 */
export function firstScreenPath(
  routes: AppRoute[],
  pathname: string,
  signedIn: boolean,
): string {
  const ids = matchAppRoutes(routes, pathname).map((route) => route.id);
  if (!signedIn && ids.includes('authenticated')) return ROUTES.login;
  if (signedIn && ids.includes('guest')) return ROUTES.home;
  return pathname;
}

/**
 * Starts downloading the screen at `pathname` (the `lazy` chunks of its routes) at once, so it
 * loads while start-up fetches the user and the account data instead of after it. The router
 * shows the same load (`loadScreen`) when it gets there.
 */
export function preloadScreen(routes: AppRoute[], pathname: string): void {
  for (const route of matchAppRoutes(routes, pathname)) {
    loadScreen(route)?.catch((error: unknown) => console.warn(`Could not preload ${pathname}`, error));
  }
}

/** What {@link afterFirstScreen} reads of the router. */
export interface RouterState {
  state: { initialized: boolean };
  subscribe: (listener: (state: { initialized: boolean }) => void) => () => void;
}

/**
 * Resolves once the router has shown its first screen (its lazy chunks and loaders done) and the
 * browser then has a moment to spare: work that can wait, such as downloading the other screens'
 * texts, does not compete with the first screen for a phone's bandwidth (issue 13).
 */
export function afterFirstScreen(router: RouterState, idleTimeoutMs = 2_000): Promise<void> {
  const shown = new Promise<void>((resolve) => {
    if (router.state.initialized) return resolve();
    const stop = router.subscribe((state) => {
      if (!state.initialized) return;
      stop();
      resolve();
    });
  });
  return shown.then(
    () =>
      new Promise<void>((resolve) => {
        if (typeof window.requestIdleCallback === 'function')
          window.requestIdleCallback(() => resolve(), { timeout: idleTimeoutMs });
        else setTimeout(resolve, 0);
      }),
  );
}
