import { useEffect, useId, useRef, type ReactNode, type Ref } from 'react';
import { cx } from '../cx';

export interface ModalDialogProps {
  /** The heading, which names the dialog. */
  title: ReactNode;
  /** Said under the heading. */
  lead?: ReactNode;
  /** The lead is the dialog's description too (read with its name when it opens). */
  leadDescribes?: boolean;
  /**
   * Escape calls it, unless `pending` (a call is running). Without it Escape does nothing: a
   * dialog that closes only with its own button.
   */
  onClose?: () => void;
  pending?: boolean;
  /** Room for two columns (`max-w-3xl` rather than `max-w-lg`). */
  wide?: boolean;
  /**
   * Given, the heading can take the focus (`tabIndex={-1}`), for a dialog that starts reading at
   * its heading: the caller focuses it through this ref.
   */
  headingRef?: Ref<HTMLHeadingElement>;
  children: ReactNode;
}

/**
 * The console's modal dialog: a native `<dialog>` (focus kept inside, Escape closes, the page
 * behind inert) named by its heading, with an optional lead under it. Shown while mounted: the
 * caller mounts it to open it and unmounts it on `onClose`.
 */
export function ModalDialog({
  title,
  lead,
  leadDescribes = false,
  onClose,
  pending = false,
  wide = false,
  headingRef,
  children,
}: ModalDialogProps) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const headingId = useId();
  const leadId = useId();

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog || dialog.open) return;
    // Browsers show it modal; jsdom (the unit tests) has no showModal, so it is merely open there.
    if (typeof dialog.showModal === 'function') dialog.showModal();
    else dialog.setAttribute('open', '');
  }, []);

  return (
    <dialog
      ref={dialogRef}
      aria-labelledby={headingId}
      aria-describedby={lead && leadDescribes ? leadId : undefined}
      onCancel={(event) => {
        event.preventDefault();
        if (onClose && !pending) onClose();
      }}
      className={cx(
        'fixed inset-0 m-auto max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] overflow-y-auto rounded-2xl bg-white p-6 text-mist-900 shadow-raised backdrop:bg-ocean-950/50',
        wide ? 'max-w-3xl' : 'max-w-lg',
      )}
    >
      <div className="mb-5 flex flex-col gap-1.5">
        <h2
          id={headingId}
          ref={headingRef}
          tabIndex={headingRef ? -1 : undefined}
          className={cx(
            'text-heading font-bold text-ocean-950',
            headingRef ? 'focus:outline-none' : null,
          )}
        >
          {title}
        </h2>
        {lead ? (
          <div id={leadId} className="text-body text-mist-600">
            {lead}
          </div>
        ) : null}
      </div>
      {children}
    </dialog>
  );
}
