import type { RouteObject } from 'react-router';

/** The customers area, under `/console/customers`: the search, and one customer. */
export const customersRoutes: RouteObject[] = [
  {
    index: true,
    lazy: () => import('./customers-screen').then((m) => ({ Component: m.CustomersScreen })),
  },
  {
    path: ':id',
    lazy: () => import('./customer-screen').then((m) => ({ Component: m.CustomerScreen })),
  },
];
