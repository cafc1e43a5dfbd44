import type { QueryClient } from '@tanstack/react-query';
import { getOrders, getSubscriptions, isOwner, visibleOrders } from '@/shared/api/account-data';
import type { SessionStore } from '@/shared/auth/session-store';
import { ROUTES } from '@/shared/config/paths';

export interface GuardDeps {
  session: Pick<SessionStore, 'getState'>;
  /**
   * The start-up data. A signed-in session always has it loaded (start-up and sign-in load it
   * before the session flips); a guest's guards never read it.
   */
  queryClient: Pick<QueryClient, 'getQueryData'>;
}

/**
 * Route guards of SPEC §2: where to send the visitor instead, or null (app-router.tsx `guard`). They read the session and the start-up data
 * synchronously: the start-up sequence has settled both before the router exists.
 */
export function createGuards({ session, queryClient }: GuardDeps) {
  const signedIn = () => session.getState().user !== null;

  return {
    /** Guest routes send a signed-in user to home. */
    guestOnly: () => (signedIn() ? ROUTES.home : null),

    /** Auth-required routes send a user without a session to login. */
    authRequired: () => (signedIn() ? null : ROUTES.login),

    /** Owner routes send non-owners to home (isOwner defaults to true). */
    ownerOnly: () => (signedIn() && !isOwner(queryClient) ? ROUTES.home : null),

    /**
     * Home goes to the welcome screen when the user has no current account and no orders.
     * Both must be known: when the subscriptions or orders could not be loaded, nothing is
     * known about them and home stays (it shows an honest empty state).
     */
    home: () => {
      if (!signedIn()) return null;
      const subscriptions = getSubscriptions(queryClient);
      const orders = getOrders(queryClient);
      if (subscriptions === undefined || orders === undefined) return null;
      return !subscriptions.currentAccount && visibleOrders(orders).length === 0
        ? ROUTES.welcome
        : null;
    },

    /** The welcome screen goes to home once the current account has a planId. */
    welcome: () => {
      if (!signedIn()) return null;
      const planId = getSubscriptions(queryClient)?.currentAccount?.planId;
      return planId !== undefined && planId !== null && planId !== ''
        ? ROUTES.home
        : null;
    },
  };
}

export type Guards = ReturnType<typeof createGuards>;
