import { TOAST_DURATION_MS } from '@alda/contract/constants';

export type ToastType = 'info' | 'warning' | 'error';

export interface Toast {
  id: string;
  type: ToastType;
  message: string;
  /** Milliseconds until it goes by itself; null keeps it until dismissed (offline). */
  duration: number | null;
}

export interface ShowToast {
  type: ToastType;
  message: string;
  /** Default TOAST_DURATION_MS (3 s, SPEC §9); null for a persistent toast. */
  duration?: number | null;
  /** A stable id replaces the toast with that id instead of stacking another one. */
  id?: string;
}

/** Toasts of SPEC §2: info, warning and error; dismissable; gone after 3 s. */
export interface ToastStore {
  show(toast: ShowToast): string;
  dismiss(id: string): void;
  clear(): void;
  getToasts(): readonly Toast[];
  subscribe(listener: () => void): () => void;
}

/** At most this many toasts show at once; the oldest go first. */
const MAX_TOASTS = 3;

export function createToastStore(): ToastStore {
  let toasts: readonly Toast[] = [];
  let nextId = 1;
  const timers = new Map<string, ReturnType<typeof setTimeout>>();
  const listeners = new Set<() => void>();
  const set = (next: readonly Toast[]) => {
    toasts = next;
    for (const listener of listeners) listener();
  };
  const stopTimer = (id: string) => {
    const timer = timers.get(id);
    if (timer) clearTimeout(timer);
    timers.delete(id);
  };

  const store: ToastStore = {
    show({ type, message, duration = TOAST_DURATION_MS, id }) {
      const toastId = id ?? `toast-${nextId++}`;
      stopTimer(toastId);
      const toast: Toast = { id: toastId, type, message, duration };
      const others = toasts.filter((t) => t.id !== toastId);
      const kept = others.slice(Math.max(0, others.length - (MAX_TOASTS - 1)));
      for (const dropped of others) if (!kept.includes(dropped)) stopTimer(dropped.id);
      set([...kept, toast]);
      if (duration !== null)
        timers.set(
          toastId,
          setTimeout(() => store.dismiss(toastId), duration),
        );
      return toastId;
    },
    dismiss(id) {
      stopTimer(id);
      if (toasts.some((t) => t.id === id)) set(toasts.filter((t) => t.id !== id));
    },
    clear() {
      for (const id of timers.keys()) stopTimer(id);
      set([]);
    },
    getToasts: () => toasts,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return store;
}

/** The app's toasts. */
export const toastStore = createToastStore();
