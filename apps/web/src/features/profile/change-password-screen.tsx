import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { changePasswordForm } from '@alda/contract/schemas/profile';
import type { ApiError } from '@/shared/api/http';
import { applyServerErrors, useFieldMessage } from '@/shared/forms/field-message';
import { NewPasswordFields } from '@/shared/forms/new-password-fields';
import { PasswordField } from '@/shared/forms/password-field';
import { useRevalidate } from '@/shared/forms/use-revalidate';
import { useErrorMessage } from '@/shared/i18n/use-error-message';
import { useAppServices } from '@/shared/services/app-services';
import { Alert } from '@/shared/ui/alert';
import { Button } from '@/shared/ui/button';
import { ScreenBody, ScreenHeader } from '@/shared/ui/screen';
import { useToast } from '@/shared/ui/toast/toast-context';
import { changePassword } from './profile-api';
import { ROUTES } from '@/shared/config/paths';

/** /min-brukari/loyniord: a new password, confirmed with the current one. */
export function ChangePasswordScreen() {
  const { t } = useTranslation();
  const fieldMessage = useFieldMessage();
  const errorMessage = useErrorMessage();
  const navigate = useNavigate();
  const toast = useToast();
  const { http } = useAppServices();
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
    resolver: zodResolver(changePasswordForm),
    mode: 'all',
    defaultValues: { currentPassword: '', password: '', passwordRepeat: '' },
  });
  const password = useWatch({ control, name: 'password' });
  useRevalidate(password, 'passwordRepeat', { trigger, getFieldState });

  const onSubmit = handleSubmit(async ({ currentPassword, password: next }) => {
    setFailure(null);
    const result = await changePassword(http, { currentPassword, password: next });
    if (!result.ok) {
      const { error } = result;
      // CURRENT_PASSWORD_INCORRECT names its field, and says so under it.
      if (error.code === 'CURRENT_PASSWORD_INCORRECT' && !error.field)
        setError('currentPassword', { type: 'server', message: error.code }, { shouldFocus: true });
      else if (!applyServerErrors(error, setError, ['currentPassword', 'password']))
        setFailure(error);
      return;
    }
    toast.show({ type: 'info', message: t('profile.password.changed') });
    await navigate(ROUTES.profile);
  });

  return (
    <main className="min-h-dvh bg-mist-50">
      <ScreenHeader title={t('profile.password.title')} back={ROUTES.profile} />
      <ScreenBody>
        <p className="text-body text-mist-600">{t('profile.password.lead')}</p>
        <form noValidate onSubmit={onSubmit} className="flex flex-col gap-5">
          <PasswordField
            label={t('profile.password.current')}
            autoComplete="current-password"
            error={fieldMessage(errors.currentPassword?.message)}
            {...register('currentPassword')}
          />
          <NewPasswordFields
            password={password}
            passwordField={register('password')}
            repeatField={register('passwordRepeat')}
            passwordError={fieldMessage(errors.password?.message)}
            repeatError={fieldMessage(errors.passwordRepeat?.message)}
          />
          {failure && <Alert tone="error">{errorMessage(failure)}</Alert>}
          <Button type="submit" block loading={isSubmitting}>
            {isSubmitting ? t('profile.password.saving') : t('profile.password.save')}
          </Button>
        </form>
      </ScreenBody>
    </main>
  );
}
