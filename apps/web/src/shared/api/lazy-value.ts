/**
 * A value made on first demand by an async factory (a chunk that downloads), readable at once
 * when it is there and watchable by React (`useSyncExternalStore`). A failed load (a chunk that
 * did not download) is forgotten, so the next demand tries again.
 */
export interface LazyValue<T> {
  /** The value if it has loaded, else null. */
  get(): T | null;
  /** The value, loading it on the first call. */
  load(): Promise<T>;
  subscribe(listener: () => void): () => void;
}

export function lazyValue<T>(create: () => Promise<T>): LazyValue<T> {
  let value: T | null = null;
  let loading: Promise<T> | null = null;
  const listeners = new Set<() => void>();
  return {
    get: () => value,
    load() {
      loading ??= create().then(
        (made) => {
          value = made;
          for (const listener of [...listeners]) listener();
          return made;
        },
        (error: unknown) => {
          loading = null;
          throw error;
        },
      );
      return loading;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}
