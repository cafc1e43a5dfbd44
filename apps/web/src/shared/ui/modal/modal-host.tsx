import {
  useEffect,
  useLayoutEffect,
  useState,
  useSyncExternalStore,
  type FormEvent,
  type ReactNode,
} from 'react';
import * as Dialog from '@radix-ui/react-dialog';
import { FocusScope } from '@radix-ui/react-focus-scope';
import { hideOthers } from 'aria-hidden';
import { useTranslation } from 'react-i18next';
import { PROMPT_CLEAR_DELAY_MS } from '@alda/contract/constants';
import { Button } from '@/shared/ui/button';
import { cx } from '@/shared/ui/cx';
import { InfoIcon, WarningIcon } from '@/shared/ui/icons';
import { TextField } from '@/shared/ui/text-field';
import { useModal } from './modal-context';
import type { ModalEntry, ModalTone } from './modal-store';

/**
 * Renders the modals of the modal service with Radix Dialog (Escape, outside clicks, aria). A
 * closed modal stays mounted for MODAL_EXIT_MS so it can animate out. Radix's Overlay is not used:
 * it injects an inline <style> (react-remove-scroll) that the app's CSP forbids; the backdrop below
 * and the `modal-open` body class do its job.
 *
 * The modal's hold on the page — the rest of the page hidden from assistive technology, the focus
 * trapped — lasts exactly as long as the modal is open, not as long as it is mounted (ADR 0070):
 * when closing starts the page is back and the focus returns in the same commit, and the closing
 * modal is inert while it animates out, however slow the phone. Radix's own modal mode would hide
 * the page until the closing modal unmounts, so the dialog is non-modal to Radix and the page is
 * hidden (`hideOthers`, as Radix does) and the focus trapped (Radix's FocusScope) here.
 */
export function ModalHost() {
  const store = useModal();
  const entries = useSyncExternalStore(store.subscribe, store.getEntries, store.getEntries);
  const anyOpen = entries.some((e) => e.open);

  useEffect(() => {
    document.body.classList.toggle('modal-open', anyOpen);
    return () => document.body.classList.remove('modal-open');
  }, [anyOpen]);

  return (
    <>
      {entries.map((entry) => (
        <ModalFrame key={entry.id} entry={entry} />
      ))}
    </>
  );
}

const toneStyles: Record<ModalTone, string> = {
  info: 'bg-ocean-50 text-ocean-700',
  warning: 'bg-puffin-50 text-puffin-600',
  danger: 'bg-danger-50 text-danger-600',
  neutral: 'bg-mist-100 text-mist-600',
};

/** The modal is not the one `target` is in: the top modal of a stack, for the one under it. */
const inAnotherModal = (target: EventTarget | null, own: HTMLElement | null) => {
  const frame = target instanceof Element ? target.closest('[data-modal-frame]') : null;
  return frame !== null && frame !== own;
};

function ModalFrame({ entry }: { entry: ModalEntry }) {
  const store = useModal();
  const dismissable = entry.options.dismissable !== false;
  // State, not refs: Radix's portal attaches them a commit after the frame mounts.
  const [content, setContent] = useState<HTMLDivElement | null>(null);
  const [backdrop, setBackdrop] = useState<HTMLDivElement | null>(null);
  // Focus returns where it was when the modal opened (it is opened from code, not a trigger).
  const [returnFocusTo] = useState(() =>
    typeof document !== 'undefined' ? (document.activeElement as HTMLElement | null) : null,
  );

  // While open, and only while open: everything else is hidden from assistive technology (live
  // regions stay, so a toast is still read). Undone when closing starts, in the commit that closes.
  useLayoutEffect(() => {
    if (!entry.open || !content || !backdrop) return;
    return hideOthers([content, backdrop]);
  }, [entry.open, content, backdrop]);

  // When closing starts the focus goes back where it was. A passive effect: React releases the
  // focus trap below (FocusScope's own effect, a child's, so cleaned up first) before this runs, and
  // a close from a click or key flushes it before the browser paints.
  useEffect(() => {
    if (!entry.open || !content) return;
    const own = content;
    return () => {
      const focus = document.activeElement;
      if ((!focus || focus === document.body || own.contains(focus)) && returnFocusTo?.isConnected)
        returnFocusTo.focus();
    };
  }, [entry.open, content, returnFocusTo]);

  const preventIfLocked = (event: Event) => {
    if (!dismissable || !entry.open || inAnotherModal(event.target, content))
      event.preventDefault();
  };

  const icon = iconOf(entry);
  const tone: ModalTone | null =
    entry.kind === 'info'
      ? 'info'
      : entry.kind === 'alert' || entry.kind === 'confirm'
        ? (entry.options.tone ?? null)
        : null;

  return (
    <Dialog.Root
      modal={false}
      open={entry.open}
      onOpenChange={(open) => {
        if (!open) store.dismiss(entry.id);
      }}
    >
      <Dialog.Portal forceMount>
        <div
          ref={setBackdrop}
          aria-hidden="true"
          data-modal-backdrop=""
          data-state={entry.open ? 'open' : 'closed'}
          className={cx(
            'fixed inset-0 z-40 bg-ocean-950/50 backdrop-blur-[2px]',
            entry.open
              ? 'pointer-events-auto animate-fade-in'
              : 'pointer-events-none animate-fade-out',
          )}
        />
        <Dialog.Content
          ref={setContent}
          forceMount
          data-modal-frame=""
          data-modal-kind={entry.kind}
          aria-modal={entry.open ? true : undefined}
          // Closing: out of the accessibility tree and the tab order while it animates out.
          inert={!entry.open || undefined}
          aria-hidden={!entry.open || undefined}
          onEscapeKeyDown={preventIfLocked}
          onPointerDownOutside={preventIfLocked}
          onInteractOutside={preventIfLocked}
          // A modal does not close when the focus leaves it; the trap below keeps it in.
          onFocusOutside={(event) => event.preventDefault()}
          // The focus went back when closing started (above).
          onCloseAutoFocus={(event) => event.preventDefault()}
          className={cx(
            'fixed top-1/2 left-1/2 z-50 flex max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] max-w-sm -translate-x-1/2 -translate-y-1/2',
            'flex-col gap-5 overflow-y-auto rounded-3xl bg-white p-6 shadow-raised focus:outline-none',
            entry.open ? 'animate-sheet-in' : 'pointer-events-none animate-sheet-out',
          )}
        >
          <FocusScope asChild loop trapped={entry.open}>
            <div className="flex flex-col gap-5">
              <div className="flex flex-col items-center gap-3 text-center">
                {icon && tone && (
                  <span
                    className={cx(
                      'flex size-12 items-center justify-center rounded-full',
                      toneStyles[tone],
                    )}
                  >
                    {icon}
                  </span>
                )}
                {entry.kind === 'custom' && entry.options.icon}
                <Dialog.Title className="text-heading font-bold text-ocean-950">
                  {entry.options.title}
                </Dialog.Title>
                {entry.options.message ? (
                  <Dialog.Description className="text-body whitespace-pre-line text-mist-600">
                    {entry.options.message}
                  </Dialog.Description>
                ) : null}
              </div>
              <ModalBody entry={entry} />
            </div>
          </FocusScope>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function iconOf(entry: ModalEntry): ReactNode {
  if (entry.kind === 'info') return <InfoIcon />;
  if ((entry.kind === 'alert' || entry.kind === 'confirm') && entry.options.tone) {
    return entry.options.tone === 'info' || entry.options.tone === 'neutral' ? (
      <InfoIcon />
    ) : (
      <WarningIcon />
    );
  }
  return null;
}

function Actions({ children }: { children: ReactNode }) {
  return <div className="flex flex-col gap-2">{children}</div>;
}

function ModalBody({ entry }: { entry: ModalEntry }) {
  const { t } = useTranslation();
  const store = useModal();
  switch (entry.kind) {
    case 'alert':
      return (
        <Actions>
          <Button
            block
            onClick={() => {
              entry.options.onConfirm?.();
              if (entry.options.closeOnConfirm !== false) store.close(entry.id);
            }}
          >
            {entry.options.buttonLabel ?? t('modal.ok')}
          </Button>
        </Actions>
      );
    case 'info':
      return (
        <Actions>
          <Button block onClick={() => store.close(entry.id)}>
            {entry.options.buttonLabel ?? t('modal.close')}
          </Button>
        </Actions>
      );
    case 'confirm':
      return (
        <Actions>
          <Button
            block
            variant={entry.options.tone === 'danger' ? 'danger' : 'primary'}
            onClick={() => store.close(entry.id, true)}
          >
            {entry.options.confirmLabel ?? t('modal.ok')}
          </Button>
          <Button block variant="ghost" onClick={() => store.close(entry.id, false)}>
            {entry.options.cancelLabel ?? t('modal.cancel')}
          </Button>
        </Actions>
      );
    case 'prompt':
      return <PromptBody entry={entry} />;
    case 'custom':
      return <>{entry.options.render(() => store.close(entry.id))}</>;
  }
}

function PromptBody({ entry }: { entry: Extract<ModalEntry, { kind: 'prompt' }> }) {
  const { t } = useTranslation();
  const store = useModal();
  const [value, setValue] = useState(entry.options.defaultValue ?? '');

  // SPEC §2: the input clears 250 ms after closing — the text stays while the modal animates out.
  useEffect(() => {
    if (entry.open) return;
    const timer = setTimeout(() => setValue(''), PROMPT_CLEAR_DELAY_MS);
    return () => clearTimeout(timer);
  }, [entry.open]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    store.close(entry.id, value);
  };

  return (
    <form onSubmit={submit} className="flex flex-col gap-5">
      <TextField
        label={entry.options.label}
        value={value}
        onChange={(e) => setValue(e.target.value)}
        placeholder={entry.options.placeholder}
        type={entry.options.inputType ?? 'text'}
        autoComplete="off"
      />
      <Actions>
        <Button block type="submit">
          {entry.options.confirmLabel ?? t('modal.ok')}
        </Button>
        <Button block variant="ghost" onClick={() => store.close(entry.id, null)}>
          {entry.options.cancelLabel ?? t('modal.cancel')}
        </Button>
      </Actions>
    </form>
  );
}
