import { useRef, useState, type FormEvent, type ReactNode } from 'react';
import { staffReason } from '@alda/contract/schemas/staff';
import { useErrorText } from '../error-text';
import { Button } from './button';
import { ModalDialog } from './modal-dialog';
import { Notice } from './notice';
import { TextAreaField } from './text-area-field';

/*
 * A change that asks why: a required reason (a ticket or call reference, 3–500 characters — the
 * contract's `staffReason`, which the API checks too and the audit log keeps). The texts come
 * from the area that asks (its own namespace); the area does the call and passes `pending` and
 * the failure of the last try, which is shown above the buttons.
 *
 * `ReasonForm` is the form alone (shown in a page); `ReasonDialog` is the same form in a modal
 * dialog, shown while mounted: the caller mounts it to open it and unmounts it on `onClose`.
 */

export interface ReasonFormTexts {
  /** The reason field's label, its hint and the message when it is missing. */
  label: string;
  hint: string;
  required: string;
  /** An example in the empty field. */
  placeholder?: string;
  /** What the cancel button says (there is one when the form has `onCancel`). */
  cancel?: string;
  /** What the confirming button says, and what is said while the call runs. */
  confirm: string;
  pending: string;
}

export interface ReasonDialogTexts extends ReasonFormTexts {
  cancel: string;
}

export interface ReasonFormProps {
  texts: ReasonFormTexts;
  pending: boolean;
  /** The failure of the last try. */
  error: unknown;
  tone?: 'primary' | 'danger';
  /** Focus the reason field when the form appears. */
  autoFocus?: boolean;
  /** More fields above the reason (a role to choose), part of the same form. */
  children?: ReactNode;
  onConfirm: (reason: string) => void;
  onCancel?: () => void;
}

export function ReasonForm({
  texts,
  pending,
  error,
  tone = 'primary',
  autoFocus = false,
  children,
  onConfirm,
  onCancel,
}: ReasonFormProps) {
  const errorText = useErrorText();
  const field = useRef<HTMLTextAreaElement>(null);
  const [reason, setReason] = useState('');
  const [invalid, setInvalid] = useState(false);

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
      {children}
      <TextAreaField
        ref={field}
        label={texts.label}
        hint={texts.hint}
        error={invalid ? texts.required : null}
        placeholder={texts.placeholder}
        value={reason}
        onChange={(event) => setReason(event.target.value)}
        rows={2}
        maxLength={500}
        required
        // A dialog opened to be filled in: its field takes the focus.
        autoFocus={autoFocus}
      />
      {pending ? (
        <p role="status" className="text-caption font-medium text-ocean-800">
          {texts.pending}
        </p>
      ) : null}
      {error ? <Notice tone="danger">{errorText(error)}</Notice> : null}
      <div className="flex flex-wrap justify-end gap-2">
        {onCancel ? (
          <Button variant="secondary" onClick={onCancel} disabled={pending}>
            {texts.cancel}
          </Button>
        ) : null}
        <Button type="submit" variant={tone} pending={pending}>
          {texts.confirm}
        </Button>
      </div>
    </form>
  );
}

export interface ReasonDialogProps extends Omit<
  ReasonFormProps,
  'texts' | 'autoFocus' | 'onCancel'
> {
  title: string;
  lead?: ReactNode;
  texts: ReasonDialogTexts;
  onClose: () => void;
}

/** {@link ReasonForm} in a modal dialog; Escape and Cancel close it unless the call runs. */
export function ReasonDialog({ title, lead, onClose, ...form }: ReasonDialogProps) {
  const close = () => {
    if (!form.pending) onClose();
  };

  return (
    <ModalDialog title={title} lead={lead} pending={form.pending} onClose={onClose}>
      {/* Its field takes the focus, unless a field above it is the first thing to choose. */}
      <ReasonForm {...form} onCancel={close} autoFocus={!form.children} />
    </ModalDialog>
  );
}
