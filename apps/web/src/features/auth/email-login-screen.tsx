import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { z } from 'zod/mini';
import { emailSchema } from '@alda/contract/rules/email';
import type { ApiError } from '@/shared/api/http';
import { useFieldMessage } from '@/shared/forms/field-message';
import { PasswordField } from '@/shared/forms/password-field';
import { useErrorMessage } from '@/shared/i18n/use-error-message';
import { takeReturnPath } from '@/shared/auth/return-path';
import { useAppServices } from '@/shared/services/app-services';
import { Alert } from '@/shared/ui/alert';
import { Button } from '@/shared/ui/button';
import { ScreenBody, ScreenHeader } from '@/shared/ui/screen';
import { TextField } from '@/shared/ui/text-field';
import { emailLogin, markPasskeyOffer } from './auth-api';
import { usePasskeyAutofill } from './use-passkey-autofill';
import { ROUTES } from '@/shared/config/paths';

/** The login form, with the contract's SPEC §5 rules; messages are validation keys. */
const loginForm = z.object({
  email: emailSchema,
  // An existing password is only checked for presence: the strength rule is for new passwords.
  password: z.string().check(z.minLength(1, 'REQUIRED'), z.maxLength(200, 'TOO_LONG')),
});

/** /rita-inn/vid-telduposti (login.email). */
export function EmailLoginScreen() {
  const { t } = useTranslation();
  const errorMessage = useErrorMessage();
  const navigate = useNavigate();
  const { http, signIn } = useAppServices();
  const fieldMessage = useFieldMessage();
  // What went wrong last: the password's sign-in, or a passkey picked from the autofill.
  const [failure, setFailure] = useState<{ error: ApiError; passkey: boolean } | null>(null);
  const {
    register,
    handleSubmit,
    control,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: zodResolver(loginForm),
    mode: 'all',
    defaultValues: { email: '', password: '' },
  });

  const email = useWatch({ control, name: 'email' });
  // This device's passkeys among the e-mail field's suggestions (ADR 0097).
  const passkeySigningIn = usePasskeyAutofill({
    onPicked: () => setFailure(null),
    onFailed: (error) => setFailure({ error, passkey: true }),
  });

  const onSubmit = handleSubmit(async (values) => {
    setFailure(null);
    const login = await emailLogin(http, values);
    if (!login.ok) return setFailure({ error: login.error, passkey: false });
    const session = await signIn(login.data);
    if (!session.ok) return setFailure({ error: session.error, passkey: false });
    // Signed in with the password: home offers a passkey for next time (once per device).
    await markPasskeyOffer(session.data.id);
    // The screen a guest was going to (a tapped notification) before login, else home.
    await navigate(takeReturnPath() ?? ROUTES.home, { replace: true });
  });

  return (
    <main className="min-h-dvh bg-mist-50">
      <ScreenHeader title={t('auth.email.title')} back={ROUTES.login} />
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
            // `webauthn`: the device's passkeys among the suggestions (conditional mediation).
            autoComplete="username webauthn"
            autoCapitalize="none"
            spellCheck={false}
            error={fieldMessage(errors.email?.message)}
            {...register('email')}
          />
          <PasswordField
            label={t('auth.email.passwordLabel')}
            autoComplete="current-password"
            error={fieldMessage(errors.password?.message)}
            {...register('password')}
          />
          {failure && (
            <Alert id="login-error" tone="error">
              {failure.error.code !== 'UNKNOWN'
                ? errorMessage(failure.error)
                : failure.passkey
                  ? t('auth.passkey.failed')
                  : t('auth.email.failed')}
            </Alert>
          )}
          <Button type="submit" block loading={isSubmitting || passkeySigningIn}>
            {passkeySigningIn
              ? t('auth.passkey.signingIn')
              : isSubmitting
                ? t('auth.email.submitting')
                : t('auth.email.submit')}
          </Button>
          <Link
            to={ROUTES.forgotPassword}
            // Hand over the address already typed, so it need not be typed again.
            state={{ email }}
            className="self-center font-semibold text-fjord-600 underline underline-offset-2"
          >
            {t('auth.email.forgot')}
          </Link>
        </form>
      </ScreenBody>
    </main>
  );
}
