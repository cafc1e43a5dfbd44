import { lazy, Suspense, useEffect, useSyncExternalStore, type ComponentType } from 'react';
import { afterFirstPaint } from '../first-paint';
import { useModal } from './modal-context';

/** The modal host once its chunk has loaded: rendered directly from then on. */
let LoadedModalHost: ComponentType | null = null;

/** Loads the modal host's chunk (Radix Dialog and the modal frames); once is enough. */
export function preloadModalHost(): Promise<void> {
  return import('./modal-host').then((m) => {
    LoadedModalHost = m.ModalHost;
  });
}

const SuspendingModalHost = lazy(() =>
  preloadModalHost().then(() => ({ default: LoadedModalHost as ComponentType })),
);

/** Runs `task` when the browser is idle (or soon after the first screen without that API). */
function whenIdle(task: () => void): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const id = window.requestIdleCallback(task, { timeout: 3_000 });
    return () => window.cancelIdleCallback(id);
  }
  const id = setTimeout(task, 1_000);
  return () => clearTimeout(id);
}

/**
 * The modal host is a chunk of its own, so the first screen does not wait for it: it is fetched
 * as soon as the app is idle after its first screen is on the display, long before anyone opens a modal, and
 * rendered while a modal is open or closing (the store keeps a closed one for its exit
 * animation). A modal opened before the chunk is there shows as soon as it has loaded.
 */
export function LazyModalHost() {
  const store = useModal();
  const entries = useSyncExternalStore(store.subscribe, store.getEntries, store.getEntries);

  useEffect(() => {
    let cancel: (() => void) | null = null;
    let stopped = false;
    // Not before the first screen is on the display (issue 45), then when the browser is idle.
    void afterFirstPaint().then(() => {
      if (stopped) return;
      cancel = whenIdle(() => {
        preloadModalHost().catch(() => {
          // Offline: the chunk is asked for again when a modal opens.
        });
      });
    });
    return () => {
      stopped = true;
      cancel?.();
    };
  }, []);

  if (entries.length === 0) return null;
  if (LoadedModalHost) return <LoadedModalHost />;
  return (
    <Suspense fallback={null}>
      <SuspendingModalHost />
    </Suspense>
  );
}
