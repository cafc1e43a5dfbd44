import type { RouteObject } from 'react-router';

/** The orders area, under `/console/orders`: the provisioning queue, and one order. */
export const ordersRoutes: RouteObject[] = [
  {
    index: true,
    lazy: () => import('./orders-queue-screen').then((m) => ({ Component: m.OrdersQueueScreen })),
  },
  {
    path: ':id',
    lazy: () => import('./order-screen').then((m) => ({ Component: m.OrderScreen })),
  },
];
