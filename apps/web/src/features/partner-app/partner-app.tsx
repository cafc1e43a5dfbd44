import { useCallback } from 'react';
import { appConfig } from '@/shared/config/app-config';
import { canOpenApp, openApp } from '@/shared/native/app-launcher';
import {
  defaultAppPromotionDeps,
  useAppPromotion,
  type AppPromotionDeps,
} from '@/shared/ui/app-promotion';

export interface PartnerAppDeps extends AppPromotionDeps {
  canOpenApp: (target: string) => Promise<boolean>;
  openApp: (target: string) => Promise<boolean>;
}

export const defaultPartnerAppDeps: PartnerAppDeps = {
  ...defaultAppPromotionDeps,
  canOpenApp,
  openApp,
};

/**
 * The round logo button of the footer (SPEC §2): in the native shell it opens the provider's
 * 2-for-1 app when it is installed; otherwise (and always on the web) the change-app modal
 * with the store links.
 */
export function usePartnerApp(
  deps: PartnerAppDeps = defaultPartnerAppDeps,
): () => Promise<'opened' | 'promoted'> {
  const promote = useAppPromotion(deps);
  return useCallback(async () => {
    if (deps.isNative()) {
      const { iosUrlScheme, androidPackage } = appConfig.partnerApp;
      const target = deps.platform() === 'ios' ? iosUrlScheme : androidPackage;
      if ((await deps.canOpenApp(target)) && (await deps.openApp(target))) return 'opened';
    }
    void promote();
    return 'promoted';
  }, [deps, promote]);
}
