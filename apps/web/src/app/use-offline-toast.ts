import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { deviceConnectivity, type ConnectivitySource } from '@/shared/api/connectivity';
import { useToast } from '@/shared/ui/toast/toast-context';

export const OFFLINE_TOAST_ID = 'offline';

/**
 * SPEC §4 "Connectivity": offline shows a persistent error toast with the no-connection
 * message; reconnecting clears it.
 */
export function useOfflineToast(source: ConnectivitySource = deviceConnectivity): void {
  const { t } = useTranslation();
  const toast = useToast();
  useEffect(() => {
    let active = true;
    const apply = (connected: boolean) => {
      if (!active) return;
      if (connected) toast.dismiss(OFFLINE_TOAST_ID);
      else
        toast.show({ id: OFFLINE_TOAST_ID, type: 'error', message: t('offline'), duration: null });
    };
    source
      .isConnected()
      .then(apply, (error: unknown) => console.warn('Could not read the connection state', error));
    const unsubscribe = source.onChange(apply);
    return () => {
      active = false;
      unsubscribe();
    };
  }, [source, t, toast]);
}
