import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { staffReason } from '@alda/contract/schemas/staff';
import type { StaffPaymentDetail } from '@alda/contract/schemas/staff-payments';
import { useErrorText } from '@/shared/error-text';
import { localeOf } from '@/shared/i18n';
import { Button } from '@/shared/ui/button';
import { ModalDialog } from '@/shared/ui/modal-dialog';
import { Notice } from '@/shared/ui/notice';
import { TextAreaField } from '@/shared/ui/text-area-field';
import { TextField } from '@/shared/ui/text-field';
import { formatKr, kronerInput, parseKroner } from './money';
import { useRefund } from './payments-api';

type Step =
  | { name: 'form' }
  | { name: 'confirm'; amountOere: number; reason: string }
  | { name: 'done'; amountOere: number };

interface FormErrors {
  amount?: string;
  reason?: string;
}

/**
 * The refund of a paid payment, in three steps: the amount in kroner (the remaining amount to
 * start with; never more) and a reason; a confirmation that names the amount; the result. The
 * amount is sent in øre; the refund then shows as pending until the refund job has paid it.
 *
 * A ModalDialog, shown while mounted: the caller mounts it to open it and unmounts it on
 * `onClose`. Each step has its own heading, where reading starts.
 */
export function RefundDialog({
  payment,
  onClose,
}: {
  payment: Pick<StaffPaymentDetail, 'id' | 'refundableOere' | 'customer'>;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation('payments');
  const locale = localeOf(i18n);
  const errorText = useErrorText();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const max = payment.refundableOere;
  const [step, setStep] = useState<Step>({ name: 'form' });
  const [amountText, setAmountText] = useState(() => kronerInput(max, locale));
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<FormErrors>({});
  const refund = useRefund(payment.id);

  // Each step starts reading at its heading.
  useEffect(() => {
    headingRef.current?.focus();
  }, [step.name]);

  const close = () => {
    if (refund.isPending) return;
    onClose();
  };

  const check = (event: FormEvent) => {
    event.preventDefault();
    const found: FormErrors = {};
    const amountOere = parseKroner(amountText, locale);
    const maxText = formatKr(max, locale);
    if (amountText.trim() === '') found.amount = t('refund.invalid.amountRequired');
    else if (amountOere === null) found.amount = t('refund.invalid.amountInvalid');
    else if (amountOere <= 0) found.amount = t('refund.invalid.amountZero');
    else if (amountOere > max) found.amount = t('refund.invalid.amountTooLarge', { max: maxText });
    const reasonOk = staffReason.safeParse(reason);
    if (!reasonOk.success) found.reason = t('refund.invalid.reasonRequired');
    setErrors(found);
    if (found.amount || found.reason || amountOere === null || !reasonOk.success) return;
    refund.reset();
    setStep({ name: 'confirm', amountOere, reason: reasonOk.data });
  };

  const send = (amountOere: number, why: string) => {
    refund.mutate(
      { amountOere, reason: why },
      { onSuccess: () => setStep({ name: 'done', amountOere }) },
    );
  };

  const title =
    step.name === 'form'
      ? t('refund.title')
      : step.name === 'confirm'
        ? t('refund.confirmTitle', { amount: formatKr(step.amountOere, locale) })
        : t('refund.doneTitle');

  const lead =
    step.name === 'form' ? (
      t('refund.lead', { max: formatKr(max, locale) })
    ) : step.name === 'confirm' ? (
      <div className="flex flex-col gap-2">
        <p className="text-mist-700">
          {t('refund.confirmBody', {
            amount: formatKr(step.amountOere, locale),
            name: payment.customer.name,
          })}
        </p>
        <p className="text-caption break-words">
          {t('refund.confirmReason', { reason: step.reason })}
        </p>
      </div>
    ) : null;

  return (
    <ModalDialog
      title={title}
      lead={lead}
      pending={refund.isPending}
      onClose={onClose}
      headingRef={headingRef}
    >
      {step.name === 'form' ? (
        <form noValidate onSubmit={check} className="flex flex-col gap-5">
          <TextField
            label={t('refund.amount')}
            hint={t('refund.amountHint', { max: formatKr(max, locale) })}
            error={errors.amount ?? null}
            value={amountText}
            onChange={(event) => setAmountText(event.target.value)}
            inputMode="decimal"
            autoComplete="off"
            spellCheck={false}
          />
          <TextAreaField
            label={t('refund.reason')}
            hint={t('refund.reasonHint')}
            error={errors.reason ?? null}
            value={reason}
            onChange={(event) => setReason(event.target.value)}
            rows={3}
            maxLength={500}
          />
          <div className="flex flex-wrap justify-end gap-2">
            <Button variant="secondary" onClick={close}>
              {t('refund.cancel')}
            </Button>
            <Button type="submit">{t('refund.next')}</Button>
          </div>
        </form>
      ) : step.name === 'confirm' ? (
        <div className="flex flex-col gap-5">
          {refund.isPending ? (
            <p role="status" className="text-caption font-medium text-ocean-800">
              {t('refund.sending')}
            </p>
          ) : null}
          {refund.isError ? <Notice tone="danger">{errorText(refund.error)}</Notice> : null}
          <div className="flex flex-wrap justify-end gap-2">
            <Button
              variant="secondary"
              disabled={refund.isPending}
              onClick={() => setStep({ name: 'form' })}
            >
              {t('refund.back')}
            </Button>
            <Button
              variant="danger"
              pending={refund.isPending}
              onClick={() => send(step.amountOere, step.reason)}
            >
              {t('refund.confirm', { amount: formatKr(step.amountOere, locale) })}
            </Button>
          </div>
        </div>
      ) : (
        <div className="flex flex-col gap-5">
          <Notice tone="success">
            {t('refund.done', { amount: formatKr(step.amountOere, locale) })}
          </Notice>
          <div className="flex justify-end">
            <Button onClick={onClose}>{t('refund.close')}</Button>
          </div>
        </div>
      )}
    </ModalDialog>
  );
}
