import type { RouteObject } from 'react-router';

/** The audit log (admin), `/console/audit` (`?actor=&action=&target=&from=&to=`). */
export const auditRoutes: RouteObject[] = [
  {
    index: true,
    lazy: () => import('./audit-screen').then((m) => ({ Component: m.AuditScreen })),
  },
];
