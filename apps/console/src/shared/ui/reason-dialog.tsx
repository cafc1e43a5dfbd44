import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { staffReason } from '@alda/contract/schemas/staff';
import { cx } from '../cx';
import { useErrorText } from '../error-text';
import { Button } from './button';
import { Notice } from './notice';

/*
 * A change that asks why: a modal dialog with a required reason (a ticket or call reference,
 * 3–500 characters — the contract's `staffReason`, which the API checks too and the audit log
 * keeps). The texts come from the area that opens it (its own namespace); the area does the call
 * and passes `pending` and the failure of the last try, which is shown in the dialog.
 *
 * A native `<dialog>` (focus kept inside, Escape closes, the page behind inert), shown while
 * mounted: the caller mounts it to open it and unmounts it on `onClose`.
 */

export interface ReasonDialogTexts {
  /** The reason field's label, its hint and the message when it is missing. */
  label: string;
  hint: string;
  required: string;
  cancel: string;
  /** What the confirming button says, and what is said while the call runs. */
  confirm: string;
  pending: string;
}

export interface ReasonDialogProps {
  title: string;
  lead?: ReactNode;
  texts: ReasonDialogTexts;
  pending: boolean;
  /** The failure of the last try. */
  error: unknown;
  tone?: 'primary' | 'danger';
  /** More fields above the reason (a role to choose), part of the same form. */
  children?: ReactNode;
  onConfirm: (reason: string) => void;
  onClose: () => void;
}

export function ReasonDialog({
  title,
  lead,
  texts,
  pending,
  error,
  tone = 'primary',
  children,
  onConfirm,
  onClose,
}: ReasonDialogProps) {
  const errorText = useErrorText();
  const dialogRef = useRef<HTMLDialogElement>(null);
  const headingId = useId();
  const fieldId = useId();
  const [reason, setReason] = useState('');
  const [invalid, setInvalid] = useState(false);

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog || dialog.open) return;
    // Browsers show it modal; jsdom (the unit tests) has no showModal, so it is merely open there.
    if (typeof dialog.showModal === 'function') dialog.showModal();
    else dialog.setAttribute('open', '');
  }, []);

  const close = () => {
    if (!pending) onClose();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = staffReason.safeParse(reason);
    setInvalid(!checked.success);
    if (checked.success && !pending) onConfirm(checked.data);
  };

  return (
    <dialog
      ref={dialogRef}
      aria-labelledby={headingId}
      onCancel={(event) => {
        event.preventDefault();
        close();
      }}
      className="fixed inset-0 m-auto max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] max-w-lg overflow-y-auto rounded-2xl bg-white p-6 text-mist-900 shadow-raised backdrop:bg-ocean-950/50"
    >
      <div className="mb-5 flex flex-col gap-1.5">
        <h2 id={headingId} className="text-heading font-bold text-ocean-950">
          {title}
        </h2>
        {lead ? <div className="text-body text-mist-600">{lead}</div> : null}
      </div>
      <form noValidate onSubmit={submit} className="flex flex-col gap-4">
        {children}
        <div className="flex flex-col gap-1.5">
          <label htmlFor={fieldId} className="text-caption font-semibold text-mist-800">
            {texts.label}
          </label>
          <textarea
            id={fieldId}
            value={reason}
            onChange={(event) => setReason(event.target.value)}
            rows={2}
            maxLength={500}
            required
            // A dialog opened to be filled in: its field takes the focus (unless a field above
            // it is the first thing to choose).
            autoFocus={!children}
            aria-invalid={invalid ? true : undefined}
            aria-describedby={[`${fieldId}-hint`, invalid ? `${fieldId}-error` : null]
              .filter(Boolean)
              .join(' ')}
            className={cx(
              'rounded-lg border bg-white px-3 py-2 text-body text-mist-900 placeholder:text-mist-500',
              invalid ? 'border-danger-600' : 'border-mist-300 hover:border-mist-400',
            )}
          />
          <p id={`${fieldId}-hint`} className="text-caption text-mist-600">
            {texts.hint}
          </p>
          {invalid ? (
            <p id={`${fieldId}-error`} className="text-caption font-medium text-danger-600">
              {texts.required}
            </p>
          ) : null}
        </div>
        {pending ? (
          <p role="status" className="text-caption font-medium text-ocean-800">
            {texts.pending}
          </p>
        ) : null}
        {error ? <Notice tone="danger">{errorText(error)}</Notice> : null}
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="secondary" onClick={close} disabled={pending}>
            {texts.cancel}
          </Button>
          <Button type="submit" variant={tone} pending={pending}>
            {texts.confirm}
          </Button>
        </div>
      </form>
    </dialog>
  );
}
