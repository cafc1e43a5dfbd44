/**
 * The service worker of the web build (issue 16 item 4, ADR 0069), on Workbox (issue 30, ADR
 * 0074): the app shell opens without a network. Bundled by `service-worker-plugin.ts` into
 * `dist/sw.js`, whose precache manifest (`self.__WB_MANIFEST`) workbox-build fills in with the
 * shell's files and their revisions; registered by `app/service-worker.ts` in production web
 * builds only (the native shell has its files on the phone).
 *
 * - Install: every file of the shell (index.html, the entry with its static imports and CSS, the
 *   first screens, the texts) into Workbox's precache, then take over at once.
 * - Activate: caches of earlier Workbox versions are cleaned up; files a new build no longer
 *   lists leave the precache; the pre-Workbox worker's `alda-shell-*` caches are deleted.
 * - Page loads (navigations): the network first, so a new deploy is picked up on the next load;
 *   without a network, the shell's index.html.
 * - The app's other hashed files (`/assets/*`): from the precache or the runtime cache, else the
 *   network, kept for the next time (they never change under their name); the runtime cache keeps
 *   the most recently used 250 (a build has about 110) and drops files unused for 30 days, so old builds' chunks go.
 * - Never the API (`/api/*`), the probes, `/dev/*` or the test provider: no route matches them, so
 *   they go to the network untouched and are never cached.
 * - Web push (issue 64, ADR 0096): a push shows its notification, a tap opens its screen
 *   (`push.ts`).
 */
import { clientsClaim } from 'workbox-core';
import {
  addRoute,
  cleanupOutdatedCaches,
  precache,
  PrecacheFallbackPlugin,
  type PrecacheEntry,
} from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { ExpirationPlugin } from 'workbox-expiration';
import { CacheFirst, NetworkOnly } from 'workbox-strategies';
import { deletePreWorkboxCaches } from './old-caches';
import { listenForPushes, type PushWorkerScope } from './push';

interface ExtendableEvent extends Event {
  waitUntil(promise: Promise<unknown>): void;
}

declare const self: PushWorkerScope & {
  skipWaiting(): Promise<void>;
  addEventListener(type: 'activate', listener: (event: ExtendableEvent) => void): void;
  /** Replaced at build time by workbox-build with the shell's files and their revisions. */
  __WB_MANIFEST: Array<PrecacheEntry | string>;
};

const SHELL = '/index.html';
/** Paths that are never answered from, nor written to, the cache (the staff console is not the app). */
const NETWORK_ONLY = /^\/(?:api|dev|test-provider|console)(?:\/|$)|^\/(?:healthz|readyz)$/;

void self.skipWaiting();
clientsClaim();
cleanupOutdatedCaches();
precache(self.__WB_MANIFEST);
self.addEventListener('activate', (event) => event.waitUntil(deletePreWorkboxCaches(caches)));
listenForPushes(self);

// Navigations before the precache's own route (which would answer `/` from the cache first).
registerRoute(
  new NavigationRoute(
    new NetworkOnly({ plugins: [new PrecacheFallbackPlugin({ fallbackURL: SHELL })] }),
    { denylist: [NETWORK_ONLY] },
  ),
);
addRoute();
registerRoute(
  ({ url, sameOrigin }) => sameOrigin && url.pathname.startsWith('/assets/'),
  new CacheFirst({
    cacheName: 'alda-assets',
    plugins: [
      new ExpirationPlugin({
        maxEntries: 250,
        maxAgeSeconds: 30 * 24 * 60 * 60,
        purgeOnQuotaError: true,
      }),
    ],
  }),
);
