import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import { fetchMe, ME_KEY } from '@/auth/auth-api';
import { useServices } from '@/shared/services';

/** How often the signed-in layout asks `GET /api/staff/auth/me` for the session's limits. */
export const ME_POLL_MS = 60_000;

/** What counts as the staff member being at the desk. */
const ACTIVITY_EVENTS = ['pointerdown', 'keydown', 'wheel', 'touchstart'] as const;

/**
 * Keeps the header's expiry times true to the server: `GET /api/staff/auth/me` on entering the
 * layout and every 60 s after (its answer is the session's exact idle and absolute expiry; the
 * API client moves the idle time after every other successful call meanwhile).
 *
 * Every staff call restarts the server's idle clock, so a poll on its own would keep an
 * unattended desk signed in until the 8-hour limit. The poll therefore runs only when the staff
 * member used the keyboard, mouse or touch since the last one; and once the shown idle expiry has
 * passed, one more call lets the server say whether the session is over (401 → the sign-in screen
 * with "you were signed out").
 */
export function useSessionWatch(): void {
  const { api, session } = useServices();
  const { refetch } = useQuery({
    queryKey: ME_KEY,
    queryFn: async ({ signal }) => {
      const me = await fetchMe(api, signal);
      session.refresh(me);
      return me;
    },
    // Only this hook decides when to ask again.
    staleTime: Infinity,
    refetchOnWindowFocus: false,
    retry: false,
  });

  useEffect(() => {
    let active = false;
    const markActive = () => {
      active = true;
    };
    for (const type of ACTIVITY_EVENTS) {
      window.addEventListener(type, markActive, { capture: true, passive: true });
    }
    const timer = window.setInterval(() => {
      const current = session.get();
      if (!current) return;
      const idlePassed = Date.now() >= Date.parse(current.idleExpiresAt);
      if (!active && !idlePassed) return;
      active = false;
      void refetch();
    }, ME_POLL_MS);
    return () => {
      window.clearInterval(timer);
      for (const type of ACTIVITY_EVENTS) {
        window.removeEventListener(type, markActive, { capture: true });
      }
    };
  }, [session, refetch]);
}
