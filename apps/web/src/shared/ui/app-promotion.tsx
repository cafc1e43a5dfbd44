import { useCallback, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { appConfig } from '@/shared/config/app-config';
import { openExternalUrl } from '@/shared/native/browser';
import { getPlatform, isNativePlatform, type Platform } from '@/shared/native/platform';
import { Button } from './button';
import { AppleLogo, GooglePlayLogo } from './icons';
import { useModal } from './modal/modal-context';

/** What the promotion needs from the device: where it runs and how to open a store link. */
export interface AppPromotionDeps {
  isNative: () => boolean;
  platform: () => Platform;
  openUrl: (url: string) => Promise<void>;
}

export const defaultAppPromotionDeps: AppPromotionDeps = {
  isNative: isNativePlatform,
  platform: getPlatform,
  openUrl: openExternalUrl,
};

/**
 * The app-promotion modal of SPEC §2 for the 2-for-1 partner-offers app (SPEC §1): what it is
 * and its store links (both stores on the web, the device's own store in the native shell).
 * Opened by the footer's logo button when the app is not installed, and by the offer on home.
 */
export function useAppPromotion(
  deps: AppPromotionDeps = defaultAppPromotionDeps,
): () => Promise<void> {
  const { t } = useTranslation();
  const modal = useModal();
  return useCallback(
    () =>
      modal.custom({
        title: t('partnerApp.heading'),
        message: t('partnerApp.body'),
        icon: <PartnerAppBadge />,
        render: (close) => <StoreLinks deps={deps} close={close} />,
      }),
    [deps, modal, t],
  );
}

/** The partner app's mark: '2:1' on the puffin gradient. */
export function PartnerAppBadge({ size = 'lg' }: { size?: 'md' | 'lg' }) {
  return (
    <span
      aria-hidden="true"
      className={
        size === 'lg'
          ? 'flex size-16 items-center justify-center rounded-2xl bg-linear-to-br from-puffin-400 to-puffin-600 text-heading font-black text-white shadow-card'
          : 'flex size-12 shrink-0 items-center justify-center rounded-xl bg-linear-to-br from-puffin-400 to-puffin-600 text-body font-black text-white'
      }
    >
      2:1
    </span>
  );
}

const storeLinkClasses =
  'flex min-h-13 items-center justify-center gap-3 rounded-control bg-mist-900 px-4 font-semibold text-white hover:bg-mist-800';

/** The app-promotion modal body: store links (App Store, Google Play) and "not now". */
function StoreLinks({ deps, close }: { deps: AppPromotionDeps; close: () => void }) {
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
