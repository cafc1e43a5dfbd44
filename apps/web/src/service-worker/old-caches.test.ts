import { describe, expect, it } from 'vitest';
import { deletePreWorkboxCaches } from './old-caches';

/** A CacheStorage with these cache names, recording deletions. */
function storageWith(names: string[]) {
  const left = new Set(names);
  return {
    left,
    keys: async () => [...left],
    delete: async (name: string) => left.delete(name),
  };
}

describe('service worker: caches left by the worker before Workbox (ADR 0074)', () => {
  it('deletes every alda-shell-* cache of the old worker, and only those', async () => {
    const storage = storageWith([
      'alda-shell-1a2b3c',
      'alda-shell-9f8e7d',
      'workbox-precache-v2-https://alda.fo/',
      'alda-assets',
      'someone-elses-cache',
    ]);
    const deleted = await deletePreWorkboxCaches(storage);
    expect(deleted.sort()).toEqual(['alda-shell-1a2b3c', 'alda-shell-9f8e7d']);
    expect([...storage.left].sort()).toEqual([
      'alda-assets',
      'someone-elses-cache',
      'workbox-precache-v2-https://alda.fo/',
    ]);
  });

  it('does nothing on a device that never ran the old worker', async () => {
    const storage = storageWith(['workbox-precache-v2-https://alda.fo/', 'alda-assets']);
    expect(await deletePreWorkboxCaches(storage)).toEqual([]);
    expect(storage.left.size).toBe(2);
  });
});
