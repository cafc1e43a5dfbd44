import { http } from '@/shared/api/client';
import { sessionStore } from '@/shared/auth/session-store';
import { isNativePlatform } from '@/shared/native/platform';
import type { AppRouter } from '@/shared/router/app-router';
import { registerServiceWorker } from './service-worker';

/**
 * What main.tsx starts once the first screen is up and the other screens' texts and the query
 * cache have loaded. Loaded by `import()`, so the first screens carry none of it:
 * - a tapped notification opens its screen (push-taps.ts), signed in or after the sign-in;
 * - the service worker registers, for a start without a network (service-worker.ts): in a
 *   production build in a browser only.
 */
export function startLater(router: AppRouter | null): void {
  const { pathname, search } = new URL(startAddress());
  // A chunk of its own: the list of files the entry preloads for this one stays one name long.
  import('./push-taps')
    .then(({ followPushTaps }) =>
      followPushTaps({
        navigate: (path) => void router?.navigate(path),
        session: sessionStore,
        http,
        startedAt: { pathname, search },
      }),
    )
    .catch((error: unknown) => console.warn('Could not listen to notification taps', error));
  void registerServiceWorker({ enabled: import.meta.env.PROD && !isNativePlatform() });
}

/**
 * The address this page was loaded at (the navigation's entry keeps it), before start-up may have
 * sent a guest to login with `history.replaceState`.
 */
function startAddress(): string {
  const [navigation] = performance.getEntriesByType?.('navigation') ?? [];
  return navigation?.name || window.location.href;
}
