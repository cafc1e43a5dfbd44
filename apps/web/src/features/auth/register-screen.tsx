import { useState } from 'react';
import { useController, useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod/mini';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { MIN_AGE } from '@alda/contract/constants';
import { registerRequest, type RegisterRequestInput } from '@alda/contract/schemas/auth-register';
import type { ApiError } from '@/shared/api/http';
import { cityMatchesPostCode, cityMismatch } from '@/shared/forms/address-rule';
import { applyServerErrors, useFieldMessage } from '@/shared/forms/field-message';
import { bindingOf, LocalityPicker } from '@/shared/forms/locality-picker';
import { NewPasswordFields } from '@/shared/forms/new-password-fields';
import { useRevalidate } from '@/shared/forms/use-revalidate';
import { useUnsavedChangesGuard } from '@/shared/forms/use-unsaved-changes-guard';
import { formatDateInput } from '@/shared/format/date-input';
import { useErrorMessage } from '@/shared/i18n/use-error-message';
import { useAppServices } from '@/shared/services/app-services';
import { Alert } from '@/shared/ui/alert';
import { Button } from '@/shared/ui/button';
import { ScreenBody, ScreenHeader } from '@/shared/ui/screen';
import { TextField } from '@/shared/ui/text-field';
import { markPasskeyOffer, registerUser } from './auth-api';
import { ROUTES } from '@/shared/config/paths';

const FIELDS = [
  'firstname',
  'lastname',
  'email',
  'phoneNumber',
  'birthDate',
  'address',
  'postCode',
  'city',
  'password',
  'passwordRepeat',
] as const satisfies readonly (keyof RegisterRequestInput)[];

const EMPTY: RegisterRequestInput = {
  firstname: '',
  lastname: '',
  email: '',
  phoneNumber: '',
  birthDate: '',
  address: '',
  postCode: '',
  city: '',
  password: '',
  passwordRepeat: '',
};

const linkClasses = 'font-semibold underline underline-offset-2';

/** The contract's register request, plus the city/postal-code match the profile edit has too. */
const registerForm = registerRequest.check(
  z.refine((v) => cityMatchesPostCode(v.postCode, v.city), cityMismatch),
);

/** Domain errors that belong to one field: marked there and explained above the button. */
const FIELD_OF_CODE: Partial<Record<string, (typeof FIELDS)[number]>> = {
  EMAIL_ALREADY_REGISTERED: 'email',
  PHONE_ALREADY_REGISTERED: 'phoneNumber',
  TOO_YOUNG: 'birthDate',
};

/**
 * /stovna-brukara (register). Every field follows the contract's SPEC §5 rules as it is typed;
 * the new user is signed in at once and lands on home (or welcome, without a subscription).
 */
export function RegisterScreen() {
  const { t } = useTranslation();
  const fieldMessage = useFieldMessage();
  const errorMessage = useErrorMessage();
  const navigate = useNavigate();
  const { http, signIn } = useAppServices();
  const [failure, setFailure] = useState<ApiError | null>(null);
  const {
    register,
    handleSubmit,
    control,
    setError,
    trigger,
    getFieldState,
    getValues,
    formState: { errors, isSubmitting, isDirty },
  } = useForm({ resolver: zodResolver(registerForm), mode: 'all', defaultValues: EMPTY });
  const release = useUnsavedChangesGuard(isDirty);
  const password = useWatch({ control, name: 'password' });
  useRevalidate(password, 'passwordRepeat', { trigger, getFieldState });
  const postCode = useController({ control, name: 'postCode' });
  const city = useController({ control, name: 'city' });
  useRevalidate(postCode.field.value, 'city', { trigger, getFieldState });

  const onSubmit = handleSubmit(async (values) => {
    setFailure(null);
    const created = await registerUser(http, values);
    if (!created.ok) {
      const { error } = created;
      const field = FIELD_OF_CODE[error.code];
      if (field) {
        setError(field, { type: 'server', message: error.code }, { shouldFocus: true });
      } else {
        applyServerErrors(error, setError, FIELDS);
      }
      setFailure(error);
      return;
    }
    release();
    const session = await signIn(created.data);
    if (!session.ok) {
      // The user exists and can log in; only loading them failed.
      await navigate(ROUTES.loginEmail, { replace: true });
      return;
    }
    // Signed in with the new password: home offers a passkey for next time (once per device).
    await markPasskeyOffer(session.data.id);
    await navigate(ROUTES.home, { replace: true });
  });

  const birthDate = register('birthDate');

  return (
    <main className="min-h-dvh bg-mist-50">
      <ScreenHeader title={t('auth.register.title')} back={ROUTES.login} />
      <ScreenBody className="pt-4">
        <div className="flex flex-col gap-2">
          <h2 className="text-title font-bold text-ocean-950">{t('auth.register.heading')}</h2>
          <p className="text-body text-mist-600">{t('auth.register.lead', { age: MIN_AGE })}</p>
        </div>
        <form noValidate onSubmit={onSubmit} className="flex flex-col gap-5">
          <fieldset className="flex flex-col gap-5">
            <legend className="sr-only">{t('auth.register.aboutYou')}</legend>
            <TextField
              label={t('forms.firstname')}
              autoComplete="given-name"
              autoCapitalize="words"
              error={fieldMessage(errors.firstname?.message)}
              {...register('firstname')}
            />
            <TextField
              label={t('forms.lastname')}
              autoComplete="family-name"
              autoCapitalize="words"
              error={fieldMessage(errors.lastname?.message)}
              {...register('lastname')}
            />
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
            <TextField
              label={t('forms.phone')}
              hint={t('forms.phoneHint')}
              type="tel"
              inputMode="tel"
              autoComplete="tel"
              error={fieldMessage(errors.phoneNumber?.message)}
              {...register('phoneNumber')}
            />
            <TextField
              label={t('forms.birthDate')}
              hint={t('forms.dateHint')}
              placeholder={t('forms.datePlaceholder')}
              inputMode="numeric"
              autoComplete="bday"
              maxLength={10}
              error={fieldMessage(errors.birthDate?.message)}
              {...birthDate}
              onChange={(event) => {
                event.target.value = formatDateInput(event.target.value);
                return birthDate.onChange(event);
              }}
            />
          </fieldset>
          <fieldset className="flex flex-col gap-5">
            <legend className="mb-3 text-heading font-bold text-ocean-950">
              {t('auth.register.address')}
            </legend>
            <TextField
              label={t('forms.address')}
              autoComplete="street-address"
              error={fieldMessage(errors.address?.message)}
              {...register('address')}
            />
            <LocalityPicker
              postCode={bindingOf(postCode.field, fieldMessage(errors.postCode?.message))}
              city={bindingOf(city.field, fieldMessage(errors.city?.message))}
              postCodeInputRef={postCode.field.ref}
              cityInputRef={city.field.ref}
            />
          </fieldset>
          <fieldset className="flex flex-col gap-5">
            <legend className="mb-3 text-heading font-bold text-ocean-950">
              {t('auth.register.password')}
            </legend>
            <NewPasswordFields
              label={t('forms.password')}
              password={password}
              passwordField={register('password')}
              repeatField={register('passwordRepeat')}
              passwordError={fieldMessage(errors.password?.message)}
              repeatError={fieldMessage(errors.passwordRepeat?.message)}
            />
          </fieldset>
          {failure && (
            <Alert
              tone="error"
              title={failure.code === 'TOO_YOUNG' ? t('auth.register.tooYoungTitle') : undefined}
            >
              <p>{errorMessage(failure)}</p>
              {failure.code === 'PHONE_ALREADY_REGISTERED' && (
                <p>
                  <Link to={ROUTES.loginPhone} onClick={() => release()} className={linkClasses}>
                    {t('auth.phone.heading')}
                  </Link>
                </p>
              )}
              {failure.code === 'EMAIL_ALREADY_REGISTERED' && (
                <p className="flex flex-wrap gap-x-4 gap-y-1">
                  <Link
                    to={ROUTES.forgotPassword}
                    state={{ email: getValues('email') }}
                    onClick={() => release()}
                    className={linkClasses}
                  >
                    {t('auth.register.resetPassword')}
                  </Link>
                  <Link to={ROUTES.loginEmail} onClick={() => release()} className={linkClasses}>
                    {t('auth.register.login')}
                  </Link>
                </p>
              )}
            </Alert>
          )}
          <Button type="submit" block loading={isSubmitting}>
            {isSubmitting ? t('auth.register.submitting') : t('auth.register.submit')}
          </Button>
          <p className="text-center text-body text-mist-600">
            {t('auth.register.haveUser')}{' '}
            <Link
              to={ROUTES.login}
              className="font-semibold text-fjord-600 underline underline-offset-2"
            >
              {t('auth.register.loginLink')}
            </Link>
          </p>
        </form>
      </ScreenBody>
    </main>
  );
}
