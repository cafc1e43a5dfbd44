import type { RouteObject } from 'react-router';

/** The number inventory, `/console/numbers` (`?state=&q=`). */
export const numbersRoutes: RouteObject[] = [
  {
    index: true,
    lazy: () => import('./numbers-screen').then((m) => ({ Component: m.NumbersScreen })),
  },
];
