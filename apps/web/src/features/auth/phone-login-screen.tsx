import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link, useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { requestPinRequest } from '@alda/contract/schemas/auth-register';
import type { ApiError } from '@/shared/api/http';
import { useFieldMessage } from '@/shared/forms/field-message';
import { useErrorMessage } from '@/shared/i18n/use-error-message';
import { useAppServices } from '@/shared/services/app-services';
import { Alert } from '@/shared/ui/alert';
import { Button } from '@/shared/ui/button';
import { ScreenBody, ScreenHeader } from '@/shared/ui/screen';
import { TextField } from '@/shared/ui/text-field';
import { requestPin } from './auth-api';
import { pinFlowAfterRequest, pinFlowState } from './pin-flow';
import { usePasskeyAutofill } from './use-passkey-autofill';
import { ROUTES } from '@/shared/config/paths';

/** /rita-inn/vid-telefonnummari (login.number): the number a code is texted to. */
export function PhoneLoginScreen() {
  const { t } = useTranslation();
  const fieldMessage = useFieldMessage();
  const errorMessage = useErrorMessage();
  const navigate = useNavigate();
  const location = useLocation();
  const { http } = useAppServices();
  const [failure, setFailure] = useState<ApiError | null>(null);
  // Back from the code screen ("change number"): start from the number used there.
  const previous = pinFlowState.safeParse(location.state);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: zodResolver(requestPinRequest),
    mode: 'all',
    defaultValues: { phoneNumber: previous.success ? previous.data.phoneNumber : '' },
  });

  // This device's passkeys among the number field's suggestions (ADR 0097); what went wrong
  // with one picked there.
  const [passkeyFailure, setPasskeyFailure] = useState<ApiError | null>(null);
  const passkeySigningIn = usePasskeyAutofill({
    onPicked: () => {
      setFailure(null);
      setPasskeyFailure(null);
    },
    onFailed: setPasskeyFailure,
  });

  const onSubmit = handleSubmit(async ({ phoneNumber }) => {
    setFailure(null);
    setPasskeyFailure(null);
    const sent = await requestPin(http, { phoneNumber });
    if (!sent.ok) return setFailure(sent.error);
    await navigate(ROUTES.loginPin, { state: pinFlowAfterRequest(phoneNumber, sent.data) });
  });

  return (
    <main className="min-h-dvh bg-mist-50">
      <ScreenHeader title={t('auth.phone.title')} back={ROUTES.login} />
      <ScreenBody className="pt-4">
        <div className="flex flex-col gap-2">
          <h2 className="text-title font-bold text-ocean-950">{t('auth.phone.heading')}</h2>
          <p className="text-body text-mist-600">{t('auth.phone.lead')}</p>
        </div>
        <form noValidate onSubmit={onSubmit} className="flex flex-col gap-5">
          <TextField
            label={t('auth.phone.label')}
            hint={t('forms.phoneHint')}
            type="tel"
            inputMode="tel"
            // The number is what a customer signs in with here; `webauthn`: the device's
            // passkeys among the suggestions (conditional mediation).
            autoComplete="username webauthn"
            error={fieldMessage(errors.phoneNumber?.message)}
            {...register('phoneNumber')}
          />
          {passkeyFailure && (
            <Alert tone="error">
              {passkeyFailure.code === 'UNKNOWN'
                ? t('auth.passkey.failed')
                : errorMessage(passkeyFailure)}
            </Alert>
          )}
          {failure && (
            <Alert tone="error">
              <p>{errorMessage(failure)}</p>
              {failure.code === 'PHONE_PROCESSING' && <p>{t('auth.phone.processingHint')}</p>}
              {failure.code === 'PHONE_NOT_REGISTERED' && (
                <p className="flex flex-wrap gap-x-4 gap-y-1">
                  <Link
                    to={ROUTES.loginEmail}
                    className="font-semibold underline underline-offset-2"
                  >
                    {t('auth.phone.useEmail')}
                  </Link>
                  <Link to={ROUTES.register} className="font-semibold underline underline-offset-2">
                    {t('auth.chooser.register')}
                  </Link>
                </p>
              )}
            </Alert>
          )}
          <Button type="submit" block loading={isSubmitting || passkeySigningIn}>
            {passkeySigningIn
              ? t('auth.passkey.signingIn')
              : isSubmitting
                ? t('auth.phone.submitting')
                : t('auth.phone.submit')}
          </Button>
        </form>
      </ScreenBody>
    </main>
  );
}
