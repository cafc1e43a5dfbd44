import type { RouteObject } from 'react-router';

/** Partner clients of the CAMARA APIs (admin), `/console/partners`. */
export const partnersRoutes: RouteObject[] = [
  {
    index: true,
    lazy: () => import('./partners-screen').then((m) => ({ Component: m.PartnersScreen })),
  },
];
