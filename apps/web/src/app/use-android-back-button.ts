import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { exitApp, onBackButton } from '@/shared/native/app-events';
import { useModal } from '@/shared/ui/modal/modal-context';

type Subscribe = typeof onBackButton;

/**
 * SPEC §2: the Android back button closes the open modal unless it is not dismissable (then it
 * does nothing); with no modal open it goes back, and on the first screen it leaves the app.
 */
export function useAndroidBackButton(
  subscribe: Subscribe = onBackButton,
  leave: () => Promise<void> = exitApp,
): void {
  const modal = useModal();
  const navigate = useNavigate();
  // React Router gives the first location of a session the key 'default': nothing to go back to.
  const isFirstScreen = useLocation().key === 'default';
  useEffect(
    () =>
      subscribe((event) => {
        if (modal.handleBack() !== 'none') return;
        // The WebView knows its own history (canGoBack); the router knows its first screen.
        if (isFirstScreen || !event.canGoBack) void leave();
        else void navigate(-1);
      }),
    [subscribe, leave, modal, navigate, isFirstScreen],
  );
}
