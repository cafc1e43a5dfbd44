/**
 * The service worker of the web build (issue 16 item 4, ADR 0069): the app shell opens without a
 * network. Built by `service-worker-plugin.ts` into `dist/sw.js`, which fills in the build's
 * version and the files to precache; registered by `app/service-worker.ts` in production web
 * builds only (the native shell has its files on the phone).
 *
 * - Install: every file of the shell (index.html, the entry with its static imports and CSS, the
 *   first screens, the texts) into a cache named after the build, then take over at once.
 * - Activate: delete the caches of earlier builds.
 * - Page loads (navigations): the network first, so a new deploy is picked up on the next load;
 *   without a network, the shell's index.html.
 * - The app's other files: from the cache, else the network; hashed files fetched later (other
 *   screens' chunks) are added to the cache as they come.
 * - Never the API (`/api/*`), the probes, `/dev/*` or the test provider: they go to the network
 *   untouched and are never cached.
 */

interface Build {
  version: string;
  precache: string[];
}

interface ExtendableEvent extends Event {
  waitUntil(promise: Promise<unknown>): void;
}

interface FetchEvent extends ExtendableEvent {
  readonly request: Request;
  respondWith(response: Response | Promise<Response>): void;
}

interface WorkerScope {
  readonly location: Location;
  readonly clients: { claim(): Promise<void> };
  skipWaiting(): Promise<void>;
  addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEvent) => void): void;
  addEventListener(type: 'fetch', listener: (event: FetchEvent) => void): void;
  /** Replaced at build time by the build's version and precache list. */
  readonly __ALDA_SW_BUILD__: Build;
}

declare const self: WorkerScope;

const { version, precache } = self.__ALDA_SW_BUILD__;
const PREFIX = 'alda-shell-';
const CACHE = `${PREFIX}${version}`;
const SHELL = '/index.html';
/** Paths that are never answered from, nor written to, the cache. */
const NETWORK_ONLY = /^\/(?:api|dev|test-provider)(?:\/|$)|^\/(?:healthz|readyz)$/;

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(precache))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) =>
        Promise.all(
          names
            .filter((name) => name.startsWith(PREFIX) && name !== CACHE)
            .map((name) => caches.delete(name)),
        ),
      )
      .then(() => self.clients.claim()),
  );
});

async function shell(): Promise<Response> {
  const cached = await caches.match(SHELL, { cacheName: CACHE, ignoreVary: true });
  return cached ?? Response.error();
}

async function cacheFirst(request: Request, path: string): Promise<Response> {
  const cache = await caches.open(CACHE);
  const cached = await cache.match(request, { ignoreVary: true, ignoreSearch: false });
  if (cached) return cached;
  const response = await fetch(request);
  // Hashed files never change under their name: keep the ones fetched later for the next time.
  if (response.ok && path.startsWith('/assets/')) void cache.put(request, response.clone());
  return response;
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || NETWORK_ONLY.test(url.pathname)) return;
  if (request.mode === 'navigate') {
    event.respondWith(fetch(request).catch(() => shell()));
    return;
  }
  event.respondWith(cacheFirst(request, url.pathname));
});

export {};
