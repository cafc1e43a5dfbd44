import { matchRoutes, type RouteObject } from 'react-router';
import { ROUTES } from '@/shared/config/paths';

/**
 * The path of the screen the app will show first: where the guards (guards.ts) send a guest on a
 * signed-in route (login) and a signed-in user on a guest route (home). A guess from the saved
 * tokens, for preloading only: the guards decide.
 */
export function firstScreenPath(
  routes: RouteObject[],
  pathname: string,
  signedIn: boolean,
): string {
  const ids = (matchRoutes(routes, pathname) ?? []).map((match) => match.route.id);
  if (!signedIn && ids.includes('authenticated')) return ROUTES.login;
  if (signedIn && ids.includes('guest')) return ROUTES.home;
  return pathname;
}

/**
 * Starts downloading the screen at `pathname` (the `lazy` chunks of its routes) at once, so it
 * loads while start-up fetches the user and the account data instead of after it. The router
 * calls the same `lazy` later and gets the loaded module.
 */
export function preloadScreen(routes: RouteObject[], pathname: string): void {
  for (const { route } of matchRoutes(routes, pathname) ?? []) {
    if (typeof route.lazy !== 'function') continue;
    route.lazy().catch((error: unknown) => console.warn(`Could not preload ${pathname}`, error));
  }
}
