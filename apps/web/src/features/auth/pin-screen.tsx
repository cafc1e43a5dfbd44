import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link, Navigate, useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { z } from 'zod/mini';
import { PIN_LENGTH } from '@alda/contract/constants';
import { pinCode } from '@alda/contract/schemas/auth-register';
import type { ApiError } from '@/shared/api/http';
import { useFieldMessage } from '@/shared/forms/field-message';
import { formatPhoneNumber } from '@alda/contract/format/phone';
import { useErrorMessage } from '@/shared/i18n/use-error-message';
import { takeReturnPath } from '@/shared/auth/return-path';
import { useAppServices } from '@/shared/services/app-services';
import { Alert } from '@/shared/ui/alert';
import { Button } from '@/shared/ui/button';
import { RefreshIcon } from '@/shared/ui/icons';
import { ScreenBody, ScreenHeader } from '@/shared/ui/screen';
import { enterPin, requestPin } from './auth-api';
import { pinFlowAfterRequest, pinFlowState, type PinFlowState } from './pin-flow';
import { PinInput } from './pin-input';
import { formatCountdown, useSecondsLeft } from './use-seconds-left';
import { ROUTES } from '@/shared/config/paths';

const pinForm = z.object({ code: pinCode });

/** /rita-inn/pin (login.pin): the code from the SMS, with a resend countdown (SPEC §9). */
export function PinScreen() {
  const location = useLocation();
  const flow = pinFlowState.safeParse(location.state);
  // Opened without a number (a bookmark, a new tab): ask for the number first.
  if (!flow.success) return <Navigate to={ROUTES.loginPhone} replace />;
  return <PinForm initial={flow.data} />;
}

function PinForm({ initial }: { initial: PinFlowState }) {
  const { t } = useTranslation();
  const fieldMessage = useFieldMessage();
  const errorMessage = useErrorMessage();
  const navigate = useNavigate();
  const { http, signIn } = useAppServices();
  const [flow, setFlow] = useState(initial);
  const [failure, setFailure] = useState<ApiError | null>(null);
  const [resent, setResent] = useState(false);
  const [resending, setResending] = useState(false);
  // The code last sent, so a complete code is sent by itself once but the same wrong one not again.
  const [lastSubmitted, setLastSubmitted] = useState<string | null>(null);
  const secondsLeft = useSecondsLeft(flow.resendAt);
  const { phoneNumber } = flow;

  const {
    control,
    handleSubmit,
    setFocus,
    reset,
    formState: { errors, isSubmitting },
  } = useForm({ resolver: zodResolver(pinForm), defaultValues: { code: '' } });

  const onSubmit = handleSubmit(async ({ code }) => {
    setLastSubmitted(code);
    setFailure(null);
    setResent(false);
    const login = await enterPin(http, { phoneNumber, password: code });
    if (!login.ok) {
      setFailure(login.error);
      // Keep the code (nothing typed is lost) but select it, so typing replaces it.
      setFocus('code', { shouldSelect: true });
      return;
    }
    const session = await signIn(login.data);
    if (!session.ok) return setFailure(session.error);
    // The screen a guest was going to (a tapped notification) before login, else home.
    await navigate(takeReturnPath() ?? ROUTES.home, { replace: true });
  });

  const resend = async () => {
    setResending(true);
    setFailure(null);
    setResent(false);
    const sent = await requestPin(http, { phoneNumber });
    setResending(false);
    if (!sent.ok) {
      // Asked too early (another device, a clock that differs): count down what the server says.
      if (sent.error.retryAfter !== undefined)
        setFlow((f) => ({ ...f, resendAt: Date.now() + (sent.error.retryAfter ?? 0) * 1000 }));
      setFailure(sent.error);
      return;
    }
    const next = pinFlowAfterRequest(phoneNumber, sent.data);
    setFlow(next);
    // Remember the new countdown in the history entry, so a reload keeps it.
    void navigate('.', { replace: true, state: next });
    setResent(true);
    setLastSubmitted(null);
    reset({ code: '' });
    setFocus('code');
  };

  return (
    <main className="min-h-dvh bg-mist-50">
      <ScreenHeader title={t('auth.pin.title')} back={ROUTES.loginPhone} />
      <ScreenBody className="pt-4">
        <div className="flex flex-col gap-2">
          <h2 className="text-title font-bold text-ocean-950">{t('auth.pin.heading')}</h2>
          <p className="text-body text-mist-600">
            {t('auth.pin.lead', { count: PIN_LENGTH, number: formatPhoneNumber(phoneNumber) })}{' '}
            <Link
              to={ROUTES.loginPhone}
              state={flow}
              className="font-semibold whitespace-nowrap text-fjord-600 underline underline-offset-2"
            >
              {t('auth.pin.changeNumber')}
            </Link>
          </p>
        </div>
        <form noValidate onSubmit={onSubmit} className="flex flex-col gap-5">
          <Controller
            control={control}
            name="code"
            render={({ field }) => (
              <PinInput
                ref={field.ref}
                name={field.name}
                label={t('auth.pin.label')}
                value={field.value}
                onBlur={field.onBlur}
                autoFocus
                error={fieldMessage(errors.code?.message)}
                onChange={(digits) => {
                  field.onChange(digits);
                  if (digits.length === PIN_LENGTH && digits !== lastSubmitted && !isSubmitting)
                    void onSubmit();
                }}
              />
            )}
          />
          {failure && <Alert tone="error">{errorMessage(failure)}</Alert>}
          {resent && <Alert tone="success">{t('auth.pin.resent')}</Alert>}
          <Button type="submit" block loading={isSubmitting}>
            {isSubmitting ? t('auth.pin.submitting') : t('auth.pin.submit')}
          </Button>
        </form>
        <section
          aria-labelledby="resend-heading"
          className="flex flex-col items-center gap-2 rounded-card bg-white px-5 py-4 text-center shadow-card"
        >
          <h3 id="resend-heading" className="text-body font-semibold text-ocean-950">
            {t('auth.pin.noCode')}
          </h3>
          <p className="text-caption text-mist-500" data-testid="resend-countdown">
            {secondsLeft > 0
              ? t('auth.pin.resendIn', { time: formatCountdown(secondsLeft) })
              : t('auth.pin.resendNow')}
          </p>
          <Button
            variant="secondary"
            size="md"
            disabled={secondsLeft > 0}
            loading={resending}
            onClick={() => void resend()}
            icon={<RefreshIcon className="size-5" />}
          >
            {t('auth.pin.resend')}
          </Button>
        </section>
      </ScreenBody>
    </main>
  );
}
