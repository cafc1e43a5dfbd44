import { useCallback, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { appConfig } from '@/shared/config/app-config';
import { canOpenApp, openApp } from '@/shared/native/app-launcher';
import { openExternalUrl } from '@/shared/native/browser';
import { getPlatform, isNativePlatform, type Platform } from '@/shared/native/platform';
import { Button } from '@/shared/ui/button';
import { AppleLogo, GooglePlayLogo } from '@/shared/ui/icons';
import { useModal } from '@/shared/ui/modal/modal-context';

export interface PartnerAppDeps {
  isNative: () => boolean;
  platform: () => Platform;
  canOpenApp: (target: string) => Promise<boolean>;
  openApp: (target: string) => Promise<boolean>;
  openUrl: (url: string) => Promise<void>;
}

export const defaultPartnerAppDeps: PartnerAppDeps = {
  isNative: isNativePlatform,
  platform: getPlatform,
  canOpenApp,
  openApp,
  openUrl: openExternalUrl,
};

/**
 * The round logo button of the footer (SPEC §2): in the native shell it opens the provider's
 * 2-for-1 app when it is installed; otherwise (and always on the web) the change-app modal
 * with the store links.
 */
export function usePartnerApp(
  deps: PartnerAppDeps = defaultPartnerAppDeps,
): () => Promise<'opened' | 'promoted'> {
  const { t } = useTranslation();
  const modal = useModal();
  return useCallback(async () => {
    if (deps.isNative()) {
      const { iosUrlScheme, androidPackage } = appConfig.partnerApp;
      const target = deps.platform() === 'ios' ? iosUrlScheme : androidPackage;
      if ((await deps.canOpenApp(target)) && (await deps.openApp(target))) return 'opened';
    }
    void modal.custom({
      title: t('partnerApp.heading'),
      message: t('partnerApp.body'),
      icon: <PartnerAppBadge />,
      render: (close) => <StoreLinks deps={deps} close={close} />,
    });
    return 'promoted';
  }, [deps, modal, t]);
}

function PartnerAppBadge() {
  return (
    <span
      aria-hidden="true"
      className="flex size-16 items-center justify-center rounded-2xl bg-linear-to-br from-puffin-400 to-puffin-600 text-heading font-black text-white shadow-card"
    >
      2:1
    </span>
  );
}

const storeLinkClasses =
  'flex min-h-13 items-center justify-center gap-3 rounded-control bg-mist-900 px-4 font-semibold text-white hover:bg-mist-800';

/** The app-promotion modal body: store links (App Store, Google Play) and "not now". */
function StoreLinks({ deps, close }: { deps: PartnerAppDeps; close: () => void }) {
  const { t } = useTranslation();
  const { appStoreUrl, playStoreUrl } = appConfig.partnerApp;
  // In the native shell a plain link would navigate the app's own WebView; open it outside.
  const openOutside = (url: string) => (event: MouseEvent) => {
    if (!deps.isNative()) return;
    event.preventDefault();
    void deps.openUrl(url);
  };
  const platform = deps.platform();
  const links = [
    {
      url: appStoreUrl,
      label: t('partnerApp.appStore'),
      icon: <AppleLogo className="size-6" />,
      for: 'ios',
    },
    {
      url: playStoreUrl,
      label: t('partnerApp.googlePlay'),
      icon: <GooglePlayLogo className="size-6" />,
      for: 'android',
    },
  ].filter((link) => platform === 'web' || link.for === platform);
  return (
    <div className="flex flex-col gap-2">
      {links.map((link) => (
        <a
          key={link.url}
          href={link.url}
          target="_blank"
          rel="noopener noreferrer"
          onClick={openOutside(link.url)}
          className={storeLinkClasses}
        >
          {link.icon}
          {link.label}
        </a>
      ))}
      <Button variant="ghost" block onClick={close}>
        {t('partnerApp.close')}
      </Button>
    </div>
  );
}
