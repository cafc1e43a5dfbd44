import { useQuery } from '@tanstack/react-query';
import { useSession } from '@/shared/services/app-services';

/** Query key of the unread-notification count: filled by the poll and the notifications screen. */
export const UNREAD_NOTIFICATIONS_KEY = ['notifications', 'unread'] as const;

/**
 * Unread notifications of the signed-in user, for badges (footer, menu): 0 until the first poll
 * answers. Never fetched by itself: polling (SPEC §4) and the notifications screen keep it.
 */
export function useUnreadNotifications(): number {
  const { user } = useSession();
  const { data } = useQuery<number>({
    queryKey: UNREAD_NOTIFICATIONS_KEY,
    queryFn: () => 0,
    enabled: false,
  });
  return user ? (data ?? 0) : 0;
}
