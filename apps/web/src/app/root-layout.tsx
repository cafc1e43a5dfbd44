import { useEffect, useLayoutEffect, useSyncExternalStore, type ReactNode } from 'react';
import { Outlet } from 'react-router';
import { useTranslation } from 'react-i18next';
import { LazyModalHost } from '@/shared/ui/modal/lazy-modal-host';
import { firstScreenCommitted } from '@/shared/ui/first-paint';
import { ToastViewport } from '@/shared/ui/toast/toast-viewport';
import { useRouteHandles, useScrollRestoration } from '@/shared/router/app-router';
import { useSession } from '@/shared/services/app-services';
import { handleValue } from './route-handle';
import { useAndroidBackButton } from './use-android-back-button';
import { useDeepLinks } from './use-deep-links';
import { useOfflineToast } from './use-offline-toast';
import { signedInShell } from './signed-in-shell-loader';
import { useStatusCheckOnResume } from './use-status-check';

/** The phone-width column every screen is drawn in (also in the prerendered first screen). */
export function ScreenColumn({ children }: { children: ReactNode }) {
  return (
    <div className="relative mx-auto min-h-dvh w-full max-w-app bg-mist-50 shadow-[0_0_48px_rgb(11_46_63/0.12)]">
      {children}
    </div>
  );
}

/** The frame of every screen: phone-width column, footer by route flag, polling, modals, toasts. */
export function RootLayout() {
  const { t } = useTranslation();
  const handles = useRouteHandles();
  const footer = handleValue(handles, 'footer') === true;
  const titleKey = handleValue(handles, 'title');
  useScrollRestoration();

  useAndroidBackButton();
  useDeepLinks();
  useOfflineToast();
  useStatusCheckOnResume();
  // The footer and the polling come with the query cache: always there for a signed-in session,
  // not downloaded for a guest's first screen (issue 45).
  const shell = useSyncExternalStore(signedInShell.subscribe, signedInShell.get, signedInShell.get);
  const signedIn = useSession().user !== null;

  // The work held until the first screen is on the display may start once this commit is shown.
  useLayoutEffect(() => firstScreenCommitted(), []);

  useEffect(() => {
    const appName = t('app.name');
    document.title = titleKey ? `${t(titleKey)} · ${appName}` : appName;
  }, [t, titleKey]);

  return (
    <>
      <ScreenColumn>
        <Outlet />
        {footer && shell && <shell.Footer />}
        {signedIn && shell && <shell.SignedInPolling />}
      </ScreenColumn>
      <ToastViewport aboveFooter={footer} />
      <LazyModalHost />
    </>
  );
}
