import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { simcardNumber } from '@alda/contract/rules/iccid';
import { staffReason } from '@alda/contract/schemas/staff';
import { useErrorText } from '@/shared/error-text';
import { Button } from '@/shared/ui/button';
import { Notice } from '@/shared/ui/notice';
import { TextField } from '@/shared/ui/text-field';
import type { usePortCorrection } from './orders-api';

/*
 * Support on the phone with a customer whose port was rejected: the corrected SIM card number
 * (ICCID), checked as the customer app checks it (the contract's `simcardNumber`: ITU-T E.118 with
 * its Luhn digit), and the reason (a ticket or call reference). Shown while the order waits for
 * the correction; the API applies the customer's own rule.
 */
export function PortCorrectionForm({
  save,
}: {
  /**
   * The screen's call (it outlives the form: once saved, the order no longer waits for the
   * correction and the form goes away, while the screen says it is done).
   */
  save: ReturnType<typeof usePortCorrection>;
}) {
  const { t } = useTranslation('orders');
  const errorText = useErrorText();
  const headingId = useId();
  const [iccid, setIccid] = useState('');
  const [reason, setReason] = useState('');
  const [invalid, setInvalid] = useState<{ iccid: boolean; reason: boolean }>({
    iccid: false,
    reason: false,
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (save.isPending) return;
    const number = simcardNumber.safeParse(iccid);
    const why = staffReason.safeParse(reason);
    setInvalid({ iccid: !number.success, reason: !why.success });
    if (number.success && why.success)
      save.mutate({ simcardNumber: number.data, reason: why.data });
  };

  return (
    <section
      aria-labelledby={headingId}
      className="rounded-xl border border-warning-600/40 bg-white p-5"
    >
      <h2 id={headingId} className="mb-1 text-heading font-bold text-ocean-950">
        {t('correction.title')}
      </h2>
      <p className="mb-4 text-caption text-mist-600">{t('correction.lead')}</p>
      <form noValidate onSubmit={submit} className="flex flex-col gap-4">
        <TextField
          label={t('correction.iccid')}
          hint={t('correction.iccidHint')}
          error={invalid.iccid ? t('correction.iccidInvalid') : null}
          value={iccid}
          onChange={(event) => setIccid(event.target.value)}
          inputMode="numeric"
          autoComplete="off"
          spellCheck={false}
        />
        <TextField
          label={t('correction.reason')}
          hint={t('correction.reasonHint')}
          error={invalid.reason ? t('correction.reasonRequired') : null}
          value={reason}
          onChange={(event) => setReason(event.target.value)}
          maxLength={500}
          autoComplete="off"
        />
        {save.isPending ? (
          <p role="status" className="text-caption font-medium text-ocean-800">
            {t('correction.pending')}
          </p>
        ) : null}
        {save.isError ? <Notice tone="danger">{errorText(save.error)}</Notice> : null}
        <Button type="submit" pending={save.isPending} className="self-start">
          {t('correction.submit')}
        </Button>
      </form>
    </section>
  );
}
