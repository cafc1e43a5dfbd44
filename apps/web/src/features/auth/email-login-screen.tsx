import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { emailSchema } from '@alda/contract/rules/email';
import type { ApiError } from '@/shared/api/http';
import { FLOWS } from '@/shared/config/flows';
import { PATHS } from '@/shared/config/paths';
import { useErrorMessage } from '@/shared/i18n/use-error-message';
import { useAppServices } from '@/shared/services/app-services';
import { Button } from '@/shared/ui/button';
import { ErrorIcon, EyeIcon, EyeOffIcon } from '@/shared/ui/icons';
import { ScreenBody, ScreenHeader } from '@/shared/ui/screen';
import { TextField } from '@/shared/ui/text-field';
import { emailLogin } from './auth-api';

/** The login form, with the contract's SPEC §5 rules; messages are validation keys. */
const loginForm = z.object({
  email: emailSchema,
  // An existing password is only checked for presence: the strength rule is for new passwords.
  password: z.string().min(1, 'REQUIRED').max(200, 'TOO_LONG'),
});

/** /rita-inn/vid-telduposti (login.email). */
export function EmailLoginScreen() {
  const { t } = useTranslation();
  const errorMessage = useErrorMessage();
  const navigate = useNavigate();
  const { http, signIn } = useAppServices();
  const [showPassword, setShowPassword] = useState(false);
  const [failure, setFailure] = useState<ApiError | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: zodResolver(loginForm),
    mode: 'all',
    defaultValues: { email: '', password: '' },
  });

  const fieldError = (message: string | undefined) =>
    message ? t(message, { ns: 'validation' }) : undefined;

  const onSubmit = handleSubmit(async (values) => {
    setFailure(null);
    const login = await emailLogin(http, values);
    if (!login.ok) return setFailure(login.error);
    const session = await signIn(login.data);
    if (!session.ok) return setFailure(session.error);
    await navigate(PATHS.home, { replace: true });
  });

  return (
    <main className="min-h-dvh bg-mist-50">
      <ScreenHeader title={t('auth.email.title')} back={PATHS.login} />
      <ScreenBody className="pt-4">
        <h2 className="text-title font-bold text-ocean-950">{t('auth.email.heading')}</h2>
        <form
          noValidate
          onSubmit={onSubmit}
          className="flex flex-col gap-5"
          aria-describedby={failure ? 'login-error' : undefined}
        >
          <TextField
            label={t('auth.email.emailLabel')}
            type="email"
            inputMode="email"
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            error={fieldError(errors.email?.message)}
            {...register('email')}
          />
          <TextField
            label={t('auth.email.passwordLabel')}
            type={showPassword ? 'text' : 'password'}
            autoComplete="current-password"
            error={fieldError(errors.password?.message)}
            trailing={
              <button
                type="button"
                onClick={() => setShowPassword((v) => !v)}
                aria-label={
                  showPassword ? t('auth.email.hidePassword') : t('auth.email.showPassword')
                }
                aria-pressed={showPassword}
                className="inline-flex size-11 items-center justify-center rounded-full text-mist-500 hover:bg-mist-100"
              >
                {showPassword ? <EyeOffIcon className="size-5" /> : <EyeIcon className="size-5" />}
              </button>
            }
            {...register('password')}
          />
          {failure && (
            <div
              id="login-error"
              role="alert"
              className="flex items-start gap-3 rounded-2xl bg-danger-50 px-4 py-3 text-body text-danger-700"
            >
              <ErrorIcon className="mt-0.5 size-5 shrink-0" />
              <p>{failure.code === 'UNKNOWN' ? t('auth.email.failed') : errorMessage(failure)}</p>
            </div>
          )}
          <Button type="submit" block loading={isSubmitting}>
            {isSubmitting ? t('auth.email.submitting') : t('auth.email.submit')}
          </Button>
          {FLOWS.forgotPassword && (
            <Link
              to={PATHS.forgotPassword}
              className="self-center font-semibold text-fjord-600 underline underline-offset-2"
            >
              {t('auth.email.forgot')}
            </Link>
          )}
        </form>
      </ScreenBody>
    </main>
  );
}
