import type { RouteObject } from 'react-router';

/** The payments area, under `/console/payments`: the list, and one payment. */
export const paymentsRoutes: RouteObject[] = [
  {
    index: true,
    lazy: () => import('./payments-screen').then((m) => ({ Component: m.PaymentsScreen })),
  },
  {
    path: ':id',
    lazy: () => import('./payment-screen').then((m) => ({ Component: m.PaymentScreen })),
  },
];
