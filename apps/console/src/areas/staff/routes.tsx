import type { RouteObject } from 'react-router';

/** Staff accounts (admin), `/console/staff`. */
export const staffRoutes: RouteObject[] = [
  {
    index: true,
    lazy: () => import('./staff-screen').then((m) => ({ Component: m.StaffScreen })),
  },
];
