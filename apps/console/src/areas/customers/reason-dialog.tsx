import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { staffReason } from '@alda/contract/schemas/staff';
import { cx } from '@/shared/cx';
import { useErrorText } from '@/shared/error-text';
import { Button } from '@/shared/ui/button';
import { Notice } from '@/shared/ui/notice';

/*
 * Asking why (a ticket or call reference) before personal data is opened or a support action is
 * taken: the reason is required (3–500 characters, the contract's `staffReason`) and goes to the
 * audit log. `ReasonForm` is the form alone (the customer view shows it in the page when the
 * customer was opened in another session); `ReasonDialog` is the same form in a modal dialog.
 */

export interface ReasonFormProps {
  /** What the confirming button says ("Open", "Sign out everywhere"). */
  confirmLabel: string;
  /** Said while the call runs. */
  pendingLabel: string;
  pending: boolean;
  /** The failure of the last try, shown above the buttons. */
  error: unknown;
  onConfirm: (reason: string) => void;
  onCancel?: () => void;
  tone?: 'primary' | 'danger';
  /** Focus the field when the form appears. */
  autoFocus?: boolean;
}

export function ReasonForm({
  confirmLabel,
  pendingLabel,
  pending,
  error,
  onConfirm,
  onCancel,
  tone = 'primary',
  autoFocus = false,
}: ReasonFormProps) {
  const { t } = useTranslation('customers');
  const errorText = useErrorText();
  const id = useId();
  const [reason, setReason] = useState('');
  const [invalid, setInvalid] = useState(false);
  const field = useRef<HTMLTextAreaElement>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = staffReason.safeParse(reason);
    setInvalid(!checked.success);
    // Back to the field that needs a reason (its error is read with it).
    if (!checked.success) field.current?.focus();
    else if (!pending) onConfirm(checked.data);
  };

  return (
    <form noValidate onSubmit={submit} className="flex flex-col gap-4">
      <div className="flex flex-col gap-1.5">
        <label htmlFor={id} className="text-caption font-semibold text-mist-800">
          {t('reason.label')}
        </label>
        <textarea
          ref={field}
          id={id}
          value={reason}
          onChange={(event) => setReason(event.target.value)}
          rows={2}
          maxLength={500}
          required
          // A dialog opened to be filled in: its field takes the focus.
          autoFocus={autoFocus}
          placeholder={t('reason.placeholder')}
          aria-invalid={invalid ? true : undefined}
          aria-describedby={[`${id}-hint`, invalid ? `${id}-error` : null]
            .filter(Boolean)
            .join(' ')}
          className={cx(
            'rounded-lg border bg-white px-3 py-2 text-body text-mist-900 placeholder:text-mist-500',
            invalid ? 'border-danger-600' : 'border-mist-300 hover:border-mist-400',
          )}
        />
        <p id={`${id}-hint`} className="text-caption text-mist-600">
          {t('reason.hint')}
        </p>
        {invalid ? (
          <p id={`${id}-error`} className="text-caption font-medium text-danger-600">
            {t('reason.required')}
          </p>
        ) : null}
      </div>
      {pending ? (
        <p role="status" className="text-caption font-medium text-ocean-800">
          {pendingLabel}
        </p>
      ) : null}
      {error ? <Notice tone="danger">{errorText(error)}</Notice> : null}
      <div className="flex flex-wrap justify-end gap-2">
        {onCancel ? (
          <Button variant="secondary" onClick={onCancel} disabled={pending}>
            {t('reason.cancel')}
          </Button>
        ) : null}
        <Button type="submit" variant={tone} pending={pending}>
          {confirmLabel}
        </Button>
      </div>
    </form>
  );
}

/**
 * A modal dialog around {@link ReasonForm}: a native `<dialog>` (focus kept inside, Escape
 * closes, the page behind inert), shown while mounted — the caller mounts it to open it and
 * unmounts it on `onClose`.
 */
export function ReasonDialog({
  title,
  lead,
  onClose,
  ...form
}: Omit<ReasonFormProps, 'onCancel' | 'autoFocus'> & {
  title: string;
  lead: ReactNode;
  onClose: () => void;
}) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const headingId = useId();

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog || dialog.open) return;
    // Browsers show it modal; jsdom (the unit tests) has no showModal, so it is merely open there.
    if (typeof dialog.showModal === 'function') dialog.showModal();
    else dialog.setAttribute('open', '');
  }, []);

  const close = () => {
    if (!form.pending) onClose();
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
        <div className="text-body text-mist-600">{lead}</div>
      </div>
      <ReasonForm {...form} onCancel={close} autoFocus />
    </dialog>
  );
}
