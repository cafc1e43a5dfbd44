import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { useDataRequestInbox } from '@/features/data-sharing/data-request-inbox';
import { useNotificationsPoller } from '@/features/notifications/notifications-api';
import { pollIntervalMs } from '@/shared/config/polling';
import { useSession } from '@/shared/services/app-services';
import { afterFirstPaint } from '@/shared/ui/first-paint';
import { ROUTES } from '@/shared/config/paths';

/**
 * SPEC §4 "Polling": while a user is signed in, every interval (60 s) fetch the pending
 * data-transfer requests and the notifications; notifications are skipped on the notifications
 * screen (it loads them itself). The first poll runs at sign-in (at start-up, once the first
 * screen has been painted); logout stops it and forgets the
 * queue. Only signed-in users poll.
 */
export function usePolling(intervalMs: number = pollIntervalMs()) {
  const userId = useSession().user?.id ?? null;
  const { pathname } = useLocation();
  const onNotifications = useRef(false);
  useEffect(() => {
    onNotifications.current = pathname === ROUTES.notifications;
  }, [pathname]);
  const inbox = useDataRequestInbox();
  const notifications = useNotificationsPoller();

  useEffect(() => {
    if (userId === null) return;
    const tick = () => {
      void inbox.poll();
      if (!onNotifications.current) void notifications.poll();
    };
    // The first poll once the first screen is on the display (issue 45): its chunks and requests
    // do not compete with that screen's paint. At once on any later sign-in.
    let stopped = false;
    void afterFirstPaint().then(() => {
      if (!stopped) tick();
    });
    const timer = setInterval(tick, intervalMs);
    return () => {
      stopped = true;
      clearInterval(timer);
      inbox.reset();
      notifications.reset();
    };
  }, [userId, intervalMs, inbox, notifications]);
}
