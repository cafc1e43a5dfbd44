import type { RouteObject } from 'react-router';

/**
 * The signed-in member's own pages, for every role (not an area of areas.ts: nothing in them is
 * another person's data): `/console/my-passkeys` (ADR 0097).
 */
export const MY_PASSKEYS_PATH = 'my-passkeys';

export const accountRoutes: RouteObject[] = [
  {
    path: MY_PASSKEYS_PATH,
    lazy: () => import('./my-passkeys-screen').then((m) => ({ Component: m.MyPasskeysScreen })),
  },
];
