import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Eye, EyeOff } from 'lucide-react';
import { staffReason } from '@alda/contract/schemas/staff';
import type { StaffOrderDetail } from '@alda/contract/schemas/staff-orders';
import { cx } from '@/shared/cx';
import { useErrorText } from '@/shared/error-text';
import { Button } from '@/shared/ui/button';
import { ModalDialog } from '@/shared/ui/modal-dialog';
import { Notice } from '@/shared/ui/notice';
import { formatIccid } from './format';
import { CUSTOMER_SEES_REASON, REASON_REQUIRED, type OrderCommand } from './orders-api';

/*
 * The dialog of a provisioning command: what it will do, and the reason — required for complete
 * and fail (the customer reads it on the order), optional for advance (written on the step when
 * given) and retry (the audit log only). It says which. A ModalDialog, shown while mounted: the
 * screen mounts it to open it, and unmounts it on `onClose`.
 */

export interface CommandDialogProps {
  command: OrderCommand;
  order: StaffOrderDetail;
  pending: boolean;
  /** The failure of the last try. */
  error: unknown;
  onConfirm: (reason: string) => void;
  onClose: () => void;
}

export function CommandDialog({
  command,
  order,
  pending,
  error,
  onConfirm,
  onClose,
}: CommandDialogProps) {
  const { t } = useTranslation('orders');
  const errorText = useErrorText();
  const fieldId = useId();
  const [reason, setReason] = useState('');
  const [invalid, setInvalid] = useState(false);
  const required = REASON_REQUIRED[command];

  const close = () => {
    if (!pending) onClose();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (pending) return;
    const text = reason.trim();
    // Required: a usable reason (the contract's staffReason, as the API checks). Optional: none,
    // or a usable one.
    const ok = required || text ? staffReason.safeParse(text).success : true;
    setInvalid(!ok);
    if (ok) onConfirm(text);
  };

  const lead =
    command === 'advance'
      ? t('dialog.lead.advance', {
          step: order.nextStep ? t(`step.${order.nextStep}`) : t('order.nothingNext'),
        })
      : command === 'retry' && order.lastStep === 'port_rejected' && order.porting?.simcardNumber
        ? t('dialog.lead.retryPort', { iccid: formatIccid(order.porting.simcardNumber) })
        : t(`dialog.lead.${command}`);

  const seen = CUSTOMER_SEES_REASON[command]
    ? required
      ? t('dialog.customerSees')
      : t('dialog.customerSeesIfGiven')
    : t('dialog.auditOnly');
  const SeenIcon = CUSTOMER_SEES_REASON[command] ? Eye : EyeOff;

  return (
    <ModalDialog
      title={t(`dialog.title.${command}`)}
      lead={lead}
      leadDescribes
      pending={pending}
      onClose={onClose}
    >
      <form noValidate onSubmit={submit} className="flex flex-col gap-4">
        <div className="flex flex-col gap-1.5">
          <label htmlFor={fieldId} className="text-caption font-semibold text-mist-800">
            {required ? t('dialog.reason') : t('dialog.reasonOptional')}
          </label>
          <textarea
            id={fieldId}
            value={reason}
            onChange={(event) => setReason(event.target.value)}
            rows={3}
            maxLength={500}
            required={required}
            autoFocus
            aria-invalid={invalid ? true : undefined}
            aria-describedby={[
              `${fieldId}-seen`,
              `${fieldId}-hint`,
              invalid ? `${fieldId}-error` : null,
            ]
              .filter(Boolean)
              .join(' ')}
            className={cx(
              'rounded-lg border bg-white px-3 py-2 text-body text-mist-900 placeholder:text-mist-500',
              invalid ? 'border-danger-600' : 'border-mist-300 hover:border-mist-400',
            )}
          />
          <p
            id={`${fieldId}-seen`}
            className={cx(
              'flex items-center gap-1.5 text-caption font-semibold',
              CUSTOMER_SEES_REASON[command] ? 'text-warning-600' : 'text-mist-600',
            )}
          >
            <SeenIcon aria-hidden="true" className="size-4 shrink-0" />
            {seen}
          </p>
          <p id={`${fieldId}-hint`} className="text-caption text-mist-600">
            {t('dialog.reasonHint')}
          </p>
          {invalid ? (
            <p id={`${fieldId}-error`} className="text-caption font-medium text-danger-600">
              {t('dialog.reasonRequired')}
            </p>
          ) : null}
        </div>
        {pending ? (
          <p role="status" className="text-caption font-medium text-ocean-800">
            {t('dialog.pending')}
          </p>
        ) : null}
        {error ? <Notice tone="danger">{errorText(error)}</Notice> : null}
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="secondary" onClick={close} disabled={pending}>
            {t('dialog.cancel')}
          </Button>
          <Button
            type="submit"
            variant={command === 'fail' ? 'danger' : 'primary'}
            pending={pending}
          >
            {t(`dialog.confirm.${command}`)}
          </Button>
        </div>
      </form>
    </ModalDialog>
  );
}
