import { Navigate, type RouteObject } from 'react-router';

/** The content area, under `/console/content`: a page per text (terms, privacy). */
export const contentRoutes: RouteObject[] = [
  { index: true, element: <Navigate to="terms" replace /> },
  {
    path: ':slug',
    lazy: () => import('./content-screen').then((m) => ({ Component: m.ContentScreen })),
  },
];
