import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Upload } from 'lucide-react';
import { staffReason } from '@alda/contract/schemas/staff';
import { useErrorText } from '@/shared/error-text';
import { Button } from '@/shared/ui/button';
import { ModalDialog } from '@/shared/ui/modal-dialog';
import { Notice } from '@/shared/ui/notice';
import { TextField } from '@/shared/ui/text-field';

/*
 * "Publish version N?" — the confirmation before a text reaches every customer: what happens
 * (the app shows it at once, in both languages; it is never edited again), an optional reason for
 * the audit log, Cancel and Publish. A ModalDialog: mounted to open, unmounted on `onClose`.
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
  const [reason, setReason] = useState('');
  const [invalid, setInvalid] = useState(false);

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
    <ModalDialog
      title={t('publish.title', { version, page })}
      lead={t('publish.lead')}
      leadDescribes
      pending={pending}
      onClose={onClose}
    >
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
    </ModalDialog>
  );
}
