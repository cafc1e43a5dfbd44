import type { HttpClient } from '@/shared/api/http';
import type { SessionStore } from '@/shared/auth/session-store';
import { onPushLink } from '@/shared/push/push-links';

export interface PushTapsDeps {
  /** Opens an app path with the app's own router (no page load). */
  navigate: (path: string) => void;
  session: SessionStore;
  http: HttpClient;
}

/**
 * A tap while the app is open (the service worker's message, the native plugin's tap) opens its
 * link with the app's router, signed in or after the sign-in ({@link onPushLink}, issue 64, ADR
 * 0096); in the native shell a signed-in start also hands the OS's current push token to the
 * server. Loaded by `import()` from main.tsx once the first screen is on the display, so the first
 * screens carry none of it. (An app opened at a tapped notification's address is the start-up's:
 * `rememberTappedStart`, shared/auth/return-path-storage.ts.) Returns what stops listening.
 */
export function followPushTaps({ navigate, session, http }: PushTapsDeps): () => void {
  const signedIn = () => session.getState().user !== null;
  return onPushLink(navigate, signedIn, http);
}
