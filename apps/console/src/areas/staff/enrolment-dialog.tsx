import { useEffect, useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { ShieldAlert } from 'lucide-react';
import type { StaffEnrolment } from '@alda/contract/schemas/staff';
import { Button } from '@/shared/ui/button';
import { ModalDialog } from '@/shared/ui/modal-dialog';
import { QrCode } from './qr-code';

/** A TOTP secret (base32) in groups of four, for typing it into an authenticator app. */
export function secretGroups(secret: string): string {
  return (secret.replace(/\s+/g, '').match(/.{1,4}/g) ?? []).join(' ');
}

/**
 * What a new account or a re-enrolment shows once: the QR code of the `otpauth://` URI (and the
 * secret in groups of four for typing), the first password, and the ten recovery codes. It closes
 * only with "I have handed these over" — they are never shown again (the server keeps only
 * hashes and the sealed secret). A ModalDialog without `onClose`: Escape does not close it.
 */
export function EnrolmentDialog({
  enrolment,
  onDone,
}: {
  enrolment: StaffEnrolment;
  onDone: () => void;
}) {
  const { t } = useTranslation('staff');
  const headingRef = useRef<HTMLHeadingElement>(null);
  const id = useId();
  const name = enrolment.staff.name;

  // Reading starts at the heading (the dialog, a child, is shown modal before this runs).
  useEffect(() => {
    headingRef.current?.focus();
  }, []);

  return (
    <ModalDialog
      title={t('enrolment.title', { name })}
      lead={enrolment.staff.email}
      wide
      headingRef={headingRef}
    >
      <div className="flex items-start gap-2.5 rounded-lg border border-warning-600/30 bg-warning-50 px-3.5 py-3 text-caption font-medium text-warning-600">
        <ShieldAlert aria-hidden="true" className="mt-px size-4 shrink-0" />
        <p>{t('enrolment.once')}</p>
      </div>

      <div className="mt-5 grid gap-6 md:grid-cols-[14rem_minmax(0,1fr)]">
        <section aria-labelledby={`${id}-qr`} className="flex flex-col gap-2">
          <h3 id={`${id}-qr`} className="text-body font-semibold text-ocean-950">
            {t('enrolment.qrTitle')}
          </h3>
          <QrCode
            value={enrolment.otpauthUri}
            label={t('enrolment.qrAlt', { name })}
            loadingText={t('enrolment.qrLoading')}
            failedText={t('enrolment.qrFailed')}
          />
          <p className="text-caption text-mist-600">{t('enrolment.qrHint')}</p>
        </section>

        <div className="flex flex-col gap-5">
          <section aria-labelledby={`${id}-secret`}>
            <h3 id={`${id}-secret`} className="text-body font-semibold text-ocean-950">
              {t('enrolment.secret')}
            </h3>
            <p className="mt-1.5 rounded-lg bg-mist-50 px-3 py-2 font-mono text-body tracking-wider break-words text-mist-900 ring-1 ring-mist-200">
              {secretGroups(enrolment.totpSecret)}
            </p>
          </section>

          <section aria-labelledby={`${id}-password`}>
            <h3 id={`${id}-password`} className="text-body font-semibold text-ocean-950">
              {t('enrolment.password')}
            </h3>
            {enrolment.password ? (
              <p className="mt-1.5 rounded-lg bg-mist-50 px-3 py-2 font-mono text-body break-all text-mist-900 ring-1 ring-mist-200">
                {enrolment.password}
              </p>
            ) : (
              <p className="mt-1.5 text-caption text-mist-600">{t('enrolment.samePassword')}</p>
            )}
            {enrolment.password ? (
              <p className="mt-1.5 text-caption text-mist-600">{t('enrolment.passwordHint')}</p>
            ) : null}
          </section>

          <section aria-labelledby={`${id}-codes`}>
            <h3 id={`${id}-codes`} className="text-body font-semibold text-ocean-950">
              {t('enrolment.codes', { count: enrolment.recoveryCodes.length })}
            </h3>
            <p className="mt-1 text-caption text-mist-600">{t('enrolment.codesHint')}</p>
            <ol className="mt-2 grid grid-cols-2 gap-x-4 gap-y-1 rounded-lg bg-mist-50 px-3 py-2 font-mono text-body text-mist-900 ring-1 ring-mist-200 sm:grid-cols-2">
              {enrolment.recoveryCodes.map((code) => (
                <li key={code}>{code}</li>
              ))}
            </ol>
          </section>
        </div>
      </div>

      <div className="mt-6 flex justify-end">
        <Button onClick={onDone}>{t('enrolment.done')}</Button>
      </div>
    </ModalDialog>
  );
}
