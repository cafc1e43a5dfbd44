import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { z } from 'zod/mini';
import { forgotPasswordRequest } from '@alda/contract/schemas/auth-register';
import type { ApiError } from '@/shared/api/http';
import { useFieldMessage } from '@/shared/forms/field-message';
import { useErrorMessage } from '@/shared/i18n/use-error-message';
import { useAppServices } from '@/shared/services/app-services';
import { Alert } from '@/shared/ui/alert';
import { Button, ButtonLink } from '@/shared/ui/button';
import { MailIcon } from '@/shared/ui/icons';
import { ScreenBody, ScreenHeader } from '@/shared/ui/screen';
import { TextField } from '@/shared/ui/text-field';
import { forgotPassword } from './auth-api';
import { ROUTES } from '@/shared/config/paths';

/** Other screens may hand over the address the user already typed (navigation state). */
const handedOver = z.object({ email: z.string().check(z.maxLength(254)) });

/**
 * /gloymt-loyniord (forgot-password). The answer is the same whether or not the address has a
 * user, so the screen never tells who is a customer: "if it is registered, a link is on its way".
 */
export function ForgotPasswordScreen() {
  const { t } = useTranslation();
  const fieldMessage = useFieldMessage();
  const errorMessage = useErrorMessage();
  const location = useLocation();
  const { http } = useAppServices();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [failure, setFailure] = useState<ApiError | null>(null);
  const initial = handedOver.safeParse(location.state);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: zodResolver(forgotPasswordRequest),
    mode: 'all',
    defaultValues: { email: initial.success ? initial.data.email : '' },
  });

  const onSubmit = handleSubmit(async ({ email }) => {
    setFailure(null);
    const result = await forgotPassword(http, { email });
    if (!result.ok) return setFailure(result.error);
    setSentTo(email);
  });

  return (
    <main className="min-h-dvh bg-mist-50">
      <ScreenHeader title={t('auth.forgot.title')} back={ROUTES.loginEmail} />
      <ScreenBody className="pt-4">
        {sentTo ? (
          <section
            aria-labelledby="forgot-sent-heading"
            className="flex flex-col items-center gap-4 rounded-card bg-white px-6 py-8 text-center shadow-card"
          >
            <span className="flex size-14 items-center justify-center rounded-full bg-fjord-50 text-fjord-600">
              <MailIcon className="size-7" />
            </span>
            <h2 id="forgot-sent-heading" className="text-heading font-bold text-ocean-950">
              {t('auth.forgot.sentHeading')}
            </h2>
            <p role="status" className="text-body text-mist-700">
              {t('auth.forgot.sent', { email: sentTo })}
            </p>
            <p className="text-caption text-mist-500">{t('auth.forgot.sentHint')}</p>
            <ButtonLink to={ROUTES.loginEmail} block>
              {t('auth.forgot.backToLogin')}
            </ButtonLink>
            <Button variant="ghost" size="md" onClick={() => setSentTo(null)}>
              {t('auth.forgot.again')}
            </Button>
          </section>
        ) : (
          <>
            <div className="flex flex-col gap-2">
              <h2 className="text-title font-bold text-ocean-950">{t('auth.forgot.heading')}</h2>
              <p className="text-body text-mist-600">{t('auth.forgot.lead')}</p>
            </div>
            <form noValidate onSubmit={onSubmit} className="flex flex-col gap-5">
              <TextField
                label={t('forms.email')}
                type="email"
                inputMode="email"
                autoComplete="email"
                autoCapitalize="none"
                spellCheck={false}
                error={fieldMessage(errors.email?.message)}
                {...register('email')}
              />
              {failure && <Alert tone="error">{errorMessage(failure)}</Alert>}
              <Button type="submit" block loading={isSubmitting}>
                {isSubmitting ? t('auth.forgot.submitting') : t('auth.forgot.submit')}
              </Button>
            </form>
          </>
        )}
      </ScreenBody>
    </main>
  );
}
