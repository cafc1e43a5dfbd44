import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useOnline } from '@/shared/api/connectivity';
import { pollIntervalMs } from '@/shared/config/polling';
import { useAppServices, useSession } from '@/shared/services/app-services';
import { hasKeptSupportMessages } from '@/features/support/outbox-keys';

/**
 * Issue 46 "Written while offline, a message is kept on the device and sent when the connection
 * is back": wherever the customer is in the app, not only on the support screens. Signed in and
 * online with messages waiting, the outbox (loaded then, not before) sends them, and again every
 * polling interval while some still wait; the API keeps each `clientId` once.
 */
export function useSupportOutbox(intervalMs: number = pollIntervalMs()) {
  const { http } = useAppServices();
  const queryClient = useQueryClient();
  const userId = useSession().user?.id ?? null;
  const online = useOnline();

  useEffect(() => {
    if (userId === null || !online) return;
    const send = () => {
      if (!hasKeptSupportMessages(userId)) return;
      void import('@/features/support/outbox').then(({ sendKept }) =>
        sendKept(http, queryClient, userId),
      );
    };
    send();
    const timer = setInterval(send, intervalMs);
    return () => clearInterval(timer);
  }, [userId, online, http, queryClient, intervalMs]);
}
