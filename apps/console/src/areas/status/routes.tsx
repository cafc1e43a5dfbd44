import type { RouteObject } from 'react-router';

/** The status messages area, under `/console/status`: compose, preview, list, end. */
export const statusRoutes: RouteObject[] = [
  {
    index: true,
    lazy: () => import('./status-screen').then((m) => ({ Component: m.StatusScreen })),
  },
];
