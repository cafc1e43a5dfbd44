import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Upload } from 'lucide-react';
import { staffReason } from '@alda/contract/schemas/staff';
import { useErrorText } from '@/shared/error-text';
import { Button } from '@/shared/ui/button';
import { Notice } from '@/shared/ui/notice';
import { TextField } from '@/shared/ui/text-field';

/*
 * "Publish version N?" — the confirmation before a text reaches every customer: what happens
 * (the app shows it at once, in both languages; it is never edited again), an optional reason for
 * the audit log, Cancel and Publish. A native modal `<dialog>` as the console's ReasonDialog:
 * mounted to open, unmounted on `onClose`.
 */

export interface PublishDialogProps {
  version: number;
  page: string;
  pending: boolean;
  error: unknown;
  onConfirm: (reason: string | undefined) => void;
  onClose: () => void;
}

export function PublishDialog({
  version,
  page,
  pending,
  error,
  onConfirm,
  onClose,
}: PublishDialogProps) {
  const { t } = useTranslation('content');
  const errorText = useErrorText();
  const dialogRef = useRef<HTMLDialogElement>(null);
  const headingId = useId();
  const leadId = useId();
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
    const text = reason.trim();
    const ok = !text || staffReason.safeParse(text).success;
    setInvalid(!ok);
    if (ok && !pending) onConfirm(text || undefined);
  };

  return (
    <dialog
      ref={dialogRef}
      aria-labelledby={headingId}
      aria-describedby={leadId}
      onCancel={(event) => {
        event.preventDefault();
        close();
      }}
      className="fixed inset-0 m-auto max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] max-w-lg overflow-y-auto rounded-2xl bg-white p-6 text-mist-900 shadow-raised backdrop:bg-ocean-950/50"
    >
      <div className="mb-5 flex flex-col gap-1.5">
        <h2 id={headingId} className="text-heading font-bold text-ocean-950">
          {t('publish.title', { version, page })}
        </h2>
        <p id={leadId} className="text-body text-mist-600">
          {t('publish.lead')}
        </p>
      </div>
      <form noValidate onSubmit={submit} className="flex flex-col gap-4">
        <TextField
          label={t('publish.reason')}
          hint={t('publish.reasonHint')}
          value={reason}
          onChange={(event) => setReason(event.target.value)}
          error={invalid ? t('publish.reasonShort') : null}
          maxLength={500}
          autoComplete="off"
          // The dialog's one field takes the focus: Enter alone does not publish by mistake.
          autoFocus
        />
        {pending ? (
          <p role="status" className="text-caption font-medium text-ocean-800">
            {t('publish.pending')}
          </p>
        ) : null}
        {error ? <Notice tone="danger">{errorText(error)}</Notice> : null}
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="secondary" onClick={close} disabled={pending}>
            {t('publish.cancel')}
          </Button>
          <Button
            type="submit"
            pending={pending}
            icon={<Upload aria-hidden="true" className="size-4" />}
          >
            {t('publish.confirm')}
          </Button>
        </div>
      </form>
    </dialog>
  );
}
