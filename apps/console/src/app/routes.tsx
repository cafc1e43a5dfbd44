import type { RouteObject } from 'react-router';
import { SignInScreen } from '@/auth/sign-in-screen';
import { statusRoutes } from '@/areas/status/routes';
import { contentRoutes } from '@/areas/content/routes';
import { auditRoutes } from '@/areas/audit/routes';
import { numbersRoutes } from '@/areas/numbers/routes';
import { staffRoutes } from '@/areas/staff/routes';
import { partnersRoutes } from '@/areas/partners/routes';
import { paymentsRoutes } from '@/areas/payments/routes';
import { customersRoutes } from '@/areas/customers/routes';
import { ordersRoutes } from '@/areas/orders/routes';
import { savedRepliesRoutes, supportRoutes } from '@/areas/support/routes';
import { accountRoutes } from '@/account/routes';
import { AREAS, type AreaId } from './areas';
import { LandingRedirect, RequireArea, RequireSession } from './guards';
import { RouteError } from './route-error';

/*
 * The console's routes, under the base `/console/`:
 *   /sign-in           the sign-in screen
 *   /<area>/…          each area of areas.ts, inside the signed-in layout, for the roles it names
 *   /my-passkeys       the signed-in member's own passkeys, every role (src/account/)
 *   / and the rest     the first area the role may use
 *
 * ADDING AN AREA'S SCREENS (README "Adding an area"): the area exports its routes, relative to
 * `/<area>`, from `src/areas/<area>/routes.tsx` — one import and one entry below. An area
 * without an entry keeps its route and its place in the navigation, and shows nothing yet.
 */

const AREA_ROUTES: Partial<Record<AreaId, RouteObject[]>> = {
  status: statusRoutes,
  content: contentRoutes,
  numbers: numbersRoutes,
  audit: auditRoutes,
  staff: staffRoutes,
  partners: partnersRoutes,
  orders: ordersRoutes,
  payments: paymentsRoutes,
  customers: customersRoutes,
  support: supportRoutes,
  'saved-replies': savedRepliesRoutes,
};

/** An area that has no screens yet: its page is empty. */
const NOTHING_YET: RouteObject[] = [{ index: true, element: null }];

export function createConsoleRoutes(): RouteObject[] {
  return [
    {
      errorElement: <RouteError />,
      children: [
        { path: 'sign-in', element: <SignInScreen /> },
        {
          element: <RequireSession />,
          children: [
            { index: true, element: <LandingRedirect /> },
            ...AREAS.map((area): RouteObject => ({
              path: area.path,
              element: <RequireArea area={area.id} />,
              children: AREA_ROUTES[area.id] ?? NOTHING_YET,
            })),
            ...accountRoutes,
            { path: '*', element: <LandingRedirect /> },
          ],
        },
      ],
    },
  ];
}
