import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { staffReason } from '@alda/contract/schemas/staff';
import type { StaffPaymentDetail } from '@alda/contract/schemas/staff-payments';
import { useErrorText } from '@/shared/error-text';
import { localeOf } from '@/shared/i18n';
import { Button } from '@/shared/ui/button';
import { Notice } from '@/shared/ui/notice';
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
 * A native modal `<dialog>` (focus kept inside, Escape closes, the page behind inert), shown
 * while mounted: the caller mounts it to open it and unmounts it on `onClose`.
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
  const dialogRef = useRef<HTMLDialogElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const headingId = useId();
  const max = payment.refundableOere;
  const [step, setStep] = useState<Step>({ name: 'form' });
  const [amountText, setAmountText] = useState(() => kronerInput(max, locale));
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<FormErrors>({});
  const refund = useRefund(payment.id);

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog || dialog.open) return;
    // Browsers show it modal; jsdom (the unit tests) has no showModal, so it is merely open there.
    if (typeof dialog.showModal === 'function') dialog.showModal();
    else dialog.setAttribute('open', '');
  }, []);

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

  const heading = (text: string) => (
    <h2
      id={headingId}
      ref={headingRef}
      tabIndex={-1}
      className="text-heading font-bold text-ocean-950 focus:outline-none"
    >
      {text}
    </h2>
  );

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
      {step.name === 'form' ? (
        <form noValidate onSubmit={check} className="flex flex-col gap-5">
          <div className="flex flex-col gap-1.5">
            {heading(t('refund.title'))}
            <p className="text-body text-mist-600">
              {t('refund.lead', { max: formatKr(max, locale) })}
            </p>
          </div>
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
          <ReasonField
            value={reason}
            onChange={setReason}
            label={t('refund.reason')}
            hint={t('refund.reasonHint')}
            error={errors.reason ?? null}
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
          <div className="flex flex-col gap-2">
            {heading(t('refund.confirmTitle', { amount: formatKr(step.amountOere, locale) }))}
            <p className="text-body text-mist-700">
              {t('refund.confirmBody', {
                amount: formatKr(step.amountOere, locale),
                name: payment.customer.name,
              })}
            </p>
            <p className="text-caption break-words text-mist-600">
              {t('refund.confirmReason', { reason: step.reason })}
            </p>
          </div>
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
          {heading(t('refund.doneTitle'))}
          <Notice tone="success">
            {t('refund.done', { amount: formatKr(step.amountOere, locale) })}
          </Notice>
          <div className="flex justify-end">
            <Button onClick={onClose}>{t('refund.close')}</Button>
          </div>
        </div>
      )}
    </dialog>
  );
}

/** A labelled multi-line field with its hint and error (the shared TextField is one line). */
function ReasonField({
  value,
  onChange,
  label,
  hint,
  error,
}: {
  value: string;
  onChange: (value: string) => void;
  label: string;
  hint: string;
  error: string | null;
}) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-caption font-semibold text-mist-800">
        {label}
      </label>
      <textarea
        id={id}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        rows={3}
        maxLength={500}
        aria-invalid={error ? true : undefined}
        aria-describedby={[`${id}-hint`, error ? `${id}-error` : null].filter(Boolean).join(' ')}
        className={
          error
            ? 'rounded-lg border border-danger-600 bg-white px-3 py-2 text-body text-mist-900'
            : 'rounded-lg border border-mist-300 bg-white px-3 py-2 text-body text-mist-900 hover:border-mist-400'
        }
      />
      <p id={`${id}-hint`} className="text-caption text-mist-600">
        {hint}
      </p>
      {error ? (
        <p id={`${id}-error`} className="text-caption font-medium text-danger-600">
          {error}
        </p>
      ) : null}
    </div>
  );
}
