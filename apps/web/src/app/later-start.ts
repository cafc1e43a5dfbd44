import { http } from '@/shared/api/client';
import { sessionStore } from '@/shared/auth/session-store';
import { isNativePlatform } from '@/shared/native/platform';
import type { AppRouter } from '@/shared/router/app-router';
import { registerServiceWorker } from './service-worker';

/**
 * What main.tsx starts once the first screen is up and the other screens' texts and the query
 * cache have loaded. Loaded by `import()`, so the first screens carry none of it:
 * - a notification tapped while the app is open opens its screen (push-taps.ts);
 * - the service worker registers, for a start without a network (service-worker.ts): in a
 *   production build in a browser only.
 */
export function startLater(router: AppRouter | null): void {
  // A chunk of its own: the list of files the entry preloads for this one stays one name long.
  import('./push-taps')
    .then(({ followPushTaps }) =>
      followPushTaps({
        navigate: (path) => void router?.navigate(path),
        session: sessionStore,
        http,
      }),
    )
    .catch((error: unknown) => console.warn('Could not listen to notification taps', error));
  void registerServiceWorker({ enabled: import.meta.env.PROD && !isNativePlatform() });
}
