import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { resetPasswordForm } from '@alda/contract/schemas/auth-register';
import type { ApiError } from '@/shared/api/http';
import { applyServerErrors, useFieldMessage } from '@/shared/forms/field-message';
import { NewPasswordFields } from '@/shared/forms/new-password-fields';
import { useRevalidate } from '@/shared/forms/use-revalidate';
import { useErrorMessage } from '@/shared/i18n/use-error-message';
import { useAppServices } from '@/shared/services/app-services';
import { Alert } from '@/shared/ui/alert';
import { Button, ButtonLink } from '@/shared/ui/button';
import { WarningIcon } from '@/shared/ui/icons';
import { ScreenBody, ScreenHeader } from '@/shared/ui/screen';
import { useToast } from '@/shared/ui/toast/toast-context';
import { resetPassword } from './auth-api';
import { ROUTES } from '@/shared/config/paths';

/**
 * /nytt-loyniord?token=… (reset-password), opened from the e-mailed link. A new password signs
 * the user in (every other session has ended); a missing, used or expired link says so and
 * offers a new one.
 */
export function ResetPasswordScreen() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const token = params.get('token')?.trim() ?? '';
  const [invalid, setInvalid] = useState(false);

  return (
    <main className="min-h-dvh bg-mist-50">
      <ScreenHeader title={t('auth.reset.title')} back={ROUTES.login} />
      <ScreenBody className="pt-4">
        {!token || invalid ? (
          <InvalidLink />
        ) : (
          <ResetForm token={token} onInvalid={() => setInvalid(true)} />
        )}
      </ScreenBody>
    </main>
  );
}

function InvalidLink() {
  const { t } = useTranslation();
  return (
    <section
      role="alert"
      aria-labelledby="reset-invalid-heading"
      className="flex flex-col items-center gap-4 rounded-card bg-white px-6 py-8 text-center shadow-card"
    >
      <span className="flex size-14 items-center justify-center rounded-full bg-puffin-50 text-puffin-600">
        <WarningIcon className="size-7" />
      </span>
      <h2 id="reset-invalid-heading" className="text-heading font-bold text-ocean-950">
        {t('auth.reset.invalidHeading')}
      </h2>
      <p className="text-body text-mist-700">{t('TOKEN_INVALID', { ns: 'errors' })}</p>
      <ButtonLink to={ROUTES.forgotPassword} block>
        {t('auth.reset.requestNew')}
      </ButtonLink>
    </section>
  );
}

function ResetForm({ token, onInvalid }: { token: string; onInvalid: () => void }) {
  const { t } = useTranslation();
  const fieldMessage = useFieldMessage();
  const errorMessage = useErrorMessage();
  const navigate = useNavigate();
  const toast = useToast();
  const { http, signIn } = useAppServices();
  const [failure, setFailure] = useState<ApiError | null>(null);
  const {
    register,
    handleSubmit,
    control,
    setError,
    trigger,
    getFieldState,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: zodResolver(resetPasswordForm),
    mode: 'all',
    defaultValues: { token, password: '', passwordRepeat: '' },
  });
  const password = useWatch({ control, name: 'password' });
  useRevalidate(password, 'passwordRepeat', { trigger, getFieldState });

  const onSubmit = handleSubmit(async (values) => {
    setFailure(null);
    const result = await resetPassword(http, { token: values.token, password: values.password });
    if (!result.ok) {
      if (result.error.code === 'TOKEN_INVALID') return onInvalid();
      if (!applyServerErrors(result.error, setError, ['password'])) setFailure(result.error);
      return;
    }
    const session = await signIn(result.data);
    if (!session.ok) return setFailure(session.error);
    toast.show({ type: 'info', message: t('auth.reset.done') });
    await navigate(ROUTES.home, { replace: true });
  });

  return (
    <>
      <div className="flex flex-col gap-2">
        <h2 className="text-title font-bold text-ocean-950">{t('auth.reset.heading')}</h2>
        <p className="text-body text-mist-600">{t('auth.reset.lead')}</p>
      </div>
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-5">
        <NewPasswordFields
          password={password}
          passwordField={register('password')}
          repeatField={register('passwordRepeat')}
          passwordError={fieldMessage(errors.password?.message)}
          repeatError={fieldMessage(errors.passwordRepeat?.message)}
        />
        {failure && <Alert tone="error">{errorMessage(failure)}</Alert>}
        <Button type="submit" block loading={isSubmitting}>
          {isSubmitting ? t('auth.reset.submitting') : t('auth.reset.submit')}
        </Button>
      </form>
    </>
  );
}
