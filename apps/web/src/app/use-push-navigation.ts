import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { useAppServices } from '@/shared/services/app-services';

/**
 * A tapped notification opens its screen (issue 64): the service worker's message to this window
 * on the web, the push plugin's tap in the native shell (`shared/push/push-links.ts`, loaded by
 * `import()` once the frame is up, so the first screens carry only this hook). The app's own
 * router navigates, so the app does not load again. Signed out, the guards send the customer to
 * login, and the screen opens once they have signed in. A signed-in start of the native shell
 * also hands the OS's current push token to the server there (a token APNs or FCM changed).
 */
export function usePushNavigation(): void {
  const navigate = useNavigate();
  const { session, http } = useAppServices();
  // The listener is added once: re-added on every move (a new `navigate`), it would be missing
  // for the moment its module loads again, and a tap right after a move would be lost.
  const navigateNow = useRef(navigate);
  useEffect(() => {
    navigateNow.current = navigate;
  }, [navigate]);
  useEffect(() => {
    let stop: (() => void) | null = null;
    let stopped = false;
    import('@/shared/push/push-links')
      .then(({ onPushLink }) => {
        if (stopped) return;
        stop = onPushLink(
          (path) => void navigateNow.current(path),
          () => session.getState().user !== null,
          http,
        );
      })
      .catch((error: unknown) => console.warn('Could not listen to notification taps', error));
    return () => {
      stopped = true;
      stop?.();
    };
  }, [session, http]);
}
