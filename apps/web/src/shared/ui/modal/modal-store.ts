import type { ReactNode } from 'react';

/** How long a closed modal stays mounted for its exit animation (≥ PROMPT_CLEAR_DELAY_MS). */
export const MODAL_EXIT_MS = 300;

export type ModalTone = 'info' | 'warning' | 'danger' | 'neutral';

interface ModalBase {
  title: string;
  message?: string;
  /**
   * False: Escape, the backdrop and the Android back button do not close it; only its own
   * buttons do (SPEC §2 "alert: optionally not dismissable"). Default true.
   */
  dismissable?: boolean;
}

export interface AlertOptions extends ModalBase {
  buttonLabel?: string;
  tone?: ModalTone;
  /** Runs when the button is pressed. */
  onConfirm?: () => void;
  /** False keeps the alert open after the button (a forced upgrade). Default true. */
  closeOnConfirm?: boolean;
}

export interface InfoOptions extends ModalBase {
  buttonLabel?: string;
}

export interface ConfirmOptions extends ModalBase {
  /** Default 'Í lagi' (modal.ok). */
  confirmLabel?: string;
  /** Default 'Angra' (modal.cancel). */
  cancelLabel?: string;
  tone?: ModalTone;
}

export interface PromptOptions extends ModalBase {
  label: string;
  defaultValue?: string;
  placeholder?: string;
  inputType?: 'text' | 'email' | 'tel' | 'number' | 'password';
  confirmLabel?: string;
  cancelLabel?: string;
}

export interface CustomOptions extends ModalBase {
  /** Body under the title and message, typically with its own actions. */
  render: (close: () => void) => ReactNode;
  icon?: ReactNode;
}

type EntryOf<K extends string, O, R> = {
  id: number;
  kind: K;
  options: O;
  open: boolean;
  resolve: (value: R) => void;
};

export type ModalEntry =
  | EntryOf<'alert', AlertOptions, void>
  | EntryOf<'info', InfoOptions, void>
  | EntryOf<'confirm', ConfirmOptions, boolean>
  | EntryOf<'prompt', PromptOptions, string | null>
  | EntryOf<'custom', CustomOptions, void>;

export type BackResult = 'closed' | 'blocked' | 'none';

/**
 * The modal service (SPEC §2): promise-based alert / info / confirm / prompt / custom modals,
 * usable from React (useModal) and from plain modules (the status check). The host renders them.
 */
export interface ModalStore {
  alert(options: AlertOptions): Promise<void>;
  info(options: InfoOptions): Promise<void>;
  /** Resolves true on confirm, false on cancel or dismiss. */
  confirm(options: ConfirmOptions): Promise<boolean>;
  /** Resolves the text on confirm, null on cancel or dismiss. */
  prompt(options: PromptOptions): Promise<string | null>;
  custom(options: CustomOptions): Promise<void>;
  /** Closes a modal with a result (its buttons). */
  close(id: number, value?: unknown): void;
  /** Closes a modal as cancelled if it is dismissable (Escape, backdrop, back button). */
  dismiss(id: number): boolean;
  /** The Android back button: closes the top modal if dismissable. */
  handleBack(): BackResult;
  /** Closes every modal as cancelled (logout). */
  closeAll(): void;
  hasOpen(): boolean;
  getEntries(): readonly ModalEntry[];
  subscribe(listener: () => void): () => void;
}

const cancelValue = (entry: ModalEntry) =>
  entry.kind === 'confirm' ? false : entry.kind === 'prompt' ? null : undefined;

export function createModalStore({ exitMs = MODAL_EXIT_MS }: { exitMs?: number } = {}): ModalStore {
  let entries: readonly ModalEntry[] = [];
  let nextId = 1;
  const listeners = new Set<() => void>();
  const emit = () => {
    for (const listener of listeners) listener();
  };
  const setEntries = (next: readonly ModalEntry[]) => {
    entries = next;
    emit();
  };

  function push<R>(kind: ModalEntry['kind'], options: ModalEntry['options']): Promise<R> {
    return new Promise<R>((resolve) => {
      const entry = { id: nextId++, kind, options, open: true, resolve } as unknown as ModalEntry;
      setEntries([...entries, entry]);
    });
  }

  const isDismissable = (entry: ModalEntry) => entry.options.dismissable !== false;
  const topOpen = () => [...entries].reverse().find((e) => e.open);

  const store: ModalStore = {
    alert: (options) => push<void>('alert', options),
    info: (options) => push<void>('info', options),
    confirm: (options) => push<boolean>('confirm', options),
    prompt: (options) => push<string | null>('prompt', options),
    custom: (options) => push<void>('custom', options),
    close(id, value) {
      const entry = entries.find((e) => e.id === id && e.open);
      if (!entry) return;
      (entry.resolve as (v: unknown) => void)(value === undefined ? cancelValue(entry) : value);
      setEntries(entries.map((e) => (e.id === id ? ({ ...e, open: false } as ModalEntry) : e)));
      setTimeout(() => setEntries(entries.filter((e) => e.id !== id)), exitMs);
    },
    dismiss(id) {
      const entry = entries.find((e) => e.id === id && e.open);
      if (!entry || !isDismissable(entry)) return false;
      store.close(id, cancelValue(entry));
      return true;
    },
    handleBack() {
      const entry = topOpen();
      if (!entry) return 'none';
      return store.dismiss(entry.id) ? 'closed' : 'blocked';
    },
    closeAll() {
      for (const entry of entries) if (entry.open) store.close(entry.id, cancelValue(entry));
    },
    hasOpen: () => entries.some((e) => e.open),
    getEntries: () => entries,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return store;
}

/** The app's modal service. */
export const modalStore = createModalStore();
