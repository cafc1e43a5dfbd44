import type { HttpClient } from '@/shared/api/http';
import { rememberReturnPath } from '@/shared/auth/return-path';
import type { SessionStore } from '@/shared/auth/session-store';
import { pushReturnPath } from '@/shared/push/push-link';
import { onPushLink } from '@/shared/push/push-links';

export interface PushTapsDeps {
  /** Opens an app path with the app's own router (no page load). */
  navigate: (path: string) => void;
  session: SessionStore;
  http: HttpClient;
  /** The address the app was started at, before start-up sent a guest to login. */
  startedAt: { pathname: string; search: string };
}

/**
 * A tapped notification opens its screen (issue 64, ADR 0096), signed in or after the sign-in.
 * Loaded by `import()` from main.tsx once the first screen is on the display, so the first
 * screens carry none of it:
 * - a guest whom a tapped notification started the app at (`?tapped=1`, added by the service
 *   worker) lands on that screen after signing in;
 * - a tap while the app is open (the service worker's message, the native plugin's tap) opens
 *   its link with the app's router ({@link onPushLink}); in the native shell a signed-in start
 *   also hands the OS's current push token to the server.
 * Returns what stops listening.
 */
export function followPushTaps({ navigate, session, http, startedAt }: PushTapsDeps): () => void {
  const signedIn = () => session.getState().user !== null;
  if (!signedIn()) {
    const asked = pushReturnPath(startedAt.pathname, startedAt.search);
    if (asked) rememberReturnPath(asked);
  }
  return onPushLink(navigate, signedIn, http);
}
