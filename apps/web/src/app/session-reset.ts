import type { QueryClient } from '@tanstack/react-query';
import type { OfflineCache } from '@/shared/api/offline-cache';
import type { TFunction } from 'i18next';
import type { SessionStore } from '@/shared/auth/session-store';
import type { ModalStore } from '@/shared/ui/modal/modal-store';
import type { ToastStore } from '@/shared/ui/toast/toast-store';
import { forgetSignupDrafts } from '@/features/signup/signup-draft';
import { forgetSupportOutboxes } from '@/features/support/outbox-keys';
import { OFFLINE_TOAST_ID } from './use-offline-toast';
import { ROUTES } from '@/shared/config/paths';

export interface SessionResetDeps {
  session: Pick<SessionStore, 'onSignOut'>;
  /** The query cache, if it has loaded (a guest's may not have). */
  queryClient: () => Pick<QueryClient, 'clear'> | null;
  /** The data kept on the device for offline use (issue 16 item 4): wiped with the session. */
  offlineCache: Pick<OfflineCache, 'wipe'>;
  modals: Pick<ModalStore, 'closeAll'>;
  toasts: ToastStore;
  t: TFunction;
  /** Navigates to a path (the router, once it exists). */
  navigate: (path: string) => void;
}

/**
 * SPEC §4 "Session": on logout or an unrecoverable 401, all state is reset and the user is sent
 * to login, and the data kept on the device for offline use is wiped. The offline toast stays (it is about the device, not the session); an expired
 * session says why the user is back at login.
 */
export function resetStateOnSignOut({
  session,
  queryClient,
  offlineCache,
  modals,
  toasts,
  t,
  navigate,
}: SessionResetDeps) {
  return session.onSignOut((reason) => {
    queryClient()?.clear();
    // The last known data is this user's; the next person on the device never sees it.
    void offlineCache.wipe();
    // A sign-up in progress is this user's; the next person on the device starts with nothing.
    forgetSignupDrafts();
    // Support messages waiting for a connection too (issue 46).
    forgetSupportOutboxes();
    modals.closeAll();
    for (const toast of toasts.getToasts())
      if (toast.id !== OFFLINE_TOAST_ID) toasts.dismiss(toast.id);
    if (reason === 'expired')
      toasts.show({ type: 'info', message: t('UNAUTHORIZED', { ns: 'errors' }) });
    navigate(ROUTES.login);
  });
}
