import type { HttpClient } from '@/shared/api/http';
import { rememberReturnPath } from '@/shared/auth/return-path';
import { isNativePlatform } from '@/shared/native/platform';
import { safeAppPath } from '@/shared/config/safe-app-path';
import { isAppPath, navigateMessageLink } from './push-link';

/**
 * Runs `open(path)` when the customer taps one of the app's notifications while the app is open
 * (issue 64): on the web, the service worker's {@link navigateMessageLink} message to this
 * window; in the native shell, the push plugin's tap, whose wrapper loads by `import()` so the web
 * never downloads it. Only a route of the app is opened ({@link safeAppPath}). Signed out
 * (`signedIn` false), the path is also remembered for after the sign-in the guards send the
 * customer to. Loaded by `import()` from the app's frame, so the first screens do not carry it.
 *
 * Called once the frame is up, so in the native shell it is also where a signed-in start hands
 * the OS's current push token to the server through `http` (`refreshPushOnThisDevice`): APNs and
 * FCM may change it, and pushes to the old one would be lost. That code loads by `import()` in
 * the shell only; the web never downloads it.
 */
export function onPushLink(
  open: (path: string) => void,
  signedIn: () => boolean,
  http: HttpClient,
): () => void {
  const follow = (link: unknown) => {
    const path = isAppPath(link) ? safeAppPath(link) : null;
    if (path === null) return;
    if (!signedIn()) rememberReturnPath(path);
    open(path);
  };
  if (isNativePlatform()) {
    let stop: (() => void) | null = null;
    let stopped = false;
    import('@/shared/native/push-notifications')
      .then(({ onNativePushTapped }) => {
        if (!stopped) stop = onNativePushTapped(follow);
      })
      .catch((error: unknown) => console.warn('Could not listen to notification taps', error));
    if (signedIn()) {
      import('./device-push')
        .then(({ refreshPushOnThisDevice }) => refreshPushOnThisDevice({ http }))
        .catch((error: unknown) => console.warn('The push token was not handed over', error));
    }
    return () => {
      stopped = true;
      stop?.();
    };
  }
  const container = typeof navigator === 'undefined' ? undefined : navigator.serviceWorker;
  if (!container) return () => {};
  const listener = (event: MessageEvent) => follow(navigateMessageLink(event.data));
  container.addEventListener('message', listener);
  return () => container.removeEventListener('message', listener);
}
