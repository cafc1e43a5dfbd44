/**
 * The caches our own service worker wrote before Workbox (ADR 0069, superseded in part by 0074):
 * one `alda-shell-<build>` cache per build. Workbox's `cleanupOutdatedCaches` only knows its own
 * precaches, so an activating worker deletes these itself; nothing else is touched.
 */
const PRE_WORKBOX_CACHE = /^alda-shell-/;

/** Deletes the pre-Workbox caches; the names deleted. */
export async function deletePreWorkboxCaches(
  storage: Pick<CacheStorage, 'keys' | 'delete'>,
): Promise<string[]> {
  const old = (await storage.keys()).filter((name) => PRE_WORKBOX_CACHE.test(name));
  await Promise.all(old.map((name) => storage.delete(name)));
  return old;
}
