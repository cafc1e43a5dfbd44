import { Navigate, Outlet, useLocation } from 'react-router';
import { useServices, useSession } from '@/shared/services';
import { landingPath, mayUse, type AreaId } from './areas';
import { ConsoleLayout } from './layout';

/** Where a signed-out visit was going, for the sign-in screen to return to. */
export interface SignInState {
  from?: string;
}

/** The signed-in part of the console: the layout around it, or the sign-in screen. */
export function RequireSession() {
  const session = useSession();
  const { session: store } = useServices();
  const location = useLocation();
  if (!session) {
    // A deliberate sign-out starts afresh (the next person at the desk may be someone else); a
    // visit or an expired session returns where it was going.
    const notice = store.notice();
    const state: SignInState | undefined =
      notice === 'signed-out' || notice === 'signed-out-everywhere'
        ? undefined
        : { from: `${location.pathname}${location.search}` };
    return <Navigate to="/sign-in" replace state={state} />;
  }
  return (
    <ConsoleLayout session={session}>
      <Outlet />
    </ConsoleLayout>
  );
}

/** An area's routes, for the roles that may use it (areas.ts); others go to their landing page. */
export function RequireArea({ area }: { area: AreaId }) {
  const session = useSession();
  if (!session) return null;
  if (!mayUse(session.staff.role, area))
    return <Navigate to={landingPath(session.staff.role)} replace />;
  return <Outlet />;
}

/** `/console/` and unknown paths: the first area the role may use. */
export function LandingRedirect() {
  const session = useSession();
  if (!session) return null;
  return <Navigate to={landingPath(session.staff.role)} replace />;
}
