import { useContext, useEffect } from 'react';
import { QueryClientContext } from '@tanstack/react-query';
import { useI18n } from '@/shared/i18n/use-i18n';
import { createStatusCheck } from '@/features/app-status/status-check';
import { appConfig } from '@/shared/config/app-config';
import { onAppResume } from '@/shared/native/app-events';
import { openExternalUrl } from '@/shared/native/browser';
import { getDeviceMeta } from '@/shared/native/device';
import { getPlatform, isNativePlatform } from '@/shared/native/platform';
import { preferences } from '@/shared/native/preferences';
import { useAppServices } from '@/shared/services/app-services';
import { useModal } from '@/shared/ui/modal/modal-context';

/** Query key under which unread status messages are kept for the screens that list them. */
export const STATUS_MESSAGES_KEY = ['status', 'messages'] as const;

/** Runs the status check each time the native app resumes (SPEC §1, §4 "Upgrade check"). */
export function useStatusCheckOnResume(): void {
  const i18n = useI18n();
  const { http } = useAppServices();
  const modals = useModal();
  // A guest's first screen runs without the query cache (issue 45): the messages are kept once
  // it has loaded.
  const queryClient = useContext(QueryClientContext);
  useEffect(() => {
    const runStatusCheck = createStatusCheck({
      isNative: isNativePlatform,
      platform: getPlatform,
      http,
      getDeviceMeta,
      storage: preferences,
      modals,
      t: i18n.t.bind(i18n),
      openUrl: openExternalUrl,
      storeUrls: appConfig.store,
      storeMessages: (messages) => void queryClient?.setQueryData(STATUS_MESSAGES_KEY, messages),
    });
    return onAppResume(() => void runStatusCheck());
  }, [http, i18n, modals, queryClient]);
}
