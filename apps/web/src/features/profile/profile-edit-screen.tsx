import { useState } from 'react';
import { useController, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useI18n } from '@/shared/i18n/use-i18n';
import { LOCALES } from '@alda/contract/locale';
import type { User } from '@alda/contract/schemas/auth';
import { updateUserRequest, type UpdateUserRequestInput } from '@alda/contract/schemas/profile';
import type { ApiError } from '@/shared/api/http';
import { applyServerErrors, useFieldMessage } from '@/shared/forms/field-message';
import { bindingOf, LocalityPicker } from '@/shared/forms/locality-picker';
import { useRevalidate } from '@/shared/forms/use-revalidate';
import { useUnsavedChangesGuard } from '@/shared/forms/use-unsaved-changes-guard';
import { useErrorMessage } from '@/shared/i18n/use-error-message';
import { useLocale } from '@/shared/i18n/use-locale';
import { useAppServices, useSession } from '@/shared/services/app-services';
import { Alert } from '@/shared/ui/alert';
import { Button } from '@/shared/ui/button';
import { cx } from '@/shared/ui/cx';
import { ScreenBody, ScreenHeader } from '@/shared/ui/screen';
import { Switch } from '@/shared/ui/switch';
import { TextField } from '@/shared/ui/text-field';
import { useToast } from '@/shared/ui/toast/toast-context';
import { updateUser } from '@/shared/auth/update-user';
import { ROUTES } from '@/shared/config/paths';

const FIELDS = [
  'firstname',
  'lastname',
  'email',
  'address',
  'postCode',
  'city',
  'locale',
  'showInPhoneBook',
] as const satisfies readonly (keyof UpdateUserRequestInput)[];

/** /min-brukari/broyt: names, e-mail, address, phone-book visibility and language. */
export function ProfileEditScreen() {
  const { t } = useTranslation();
  const { user } = useSession();
  return (
    <main className="min-h-dvh bg-mist-50">
      <ScreenHeader title={t('profile.edit.title')} back={ROUTES.profile} />
      <ScreenBody>{user && <ProfileForm profile={user} />}</ScreenBody>
    </main>
  );
}

/** The form's values; the usage alert switches live on the profile screen itself. */
type ProfileValues = Required<Omit<UpdateUserRequestInput, 'usageAlerts'>> &
  Pick<UpdateUserRequestInput, 'usageAlerts'>;

function valuesOf(profile: User): ProfileValues {
  return {
    firstname: profile.firstname,
    lastname: profile.lastname,
    email: profile.email,
    address: profile.address ?? '',
    postCode: profile.postCode ?? '',
    city: profile.city ?? '',
    locale: profile.locale,
    // Off unless the customer has turned it on (contract `user.showInPhoneBook`).
    showInPhoneBook: profile.showInPhoneBook ?? false,
  };
}

function ProfileForm({ profile }: { profile: User }) {
  const { t } = useTranslation();
  const i18n = useI18n();
  const fieldMessage = useFieldMessage();
  const errorMessage = useErrorMessage();
  const navigate = useNavigate();
  const toast = useToast();
  const [, setLocale] = useLocale();
  const { http, session } = useAppServices();
  const [failure, setFailure] = useState<ApiError | null>(null);
  const {
    register,
    handleSubmit,
    control,
    setError,
    trigger,
    getFieldState,
    formState: { errors, isSubmitting, isDirty },
  } = useForm({
    // Every field is optional in the request (a PATCH), but the form always holds all of them,
    // so blank text still fails REQUIRED.
    resolver: zodResolver(updateUserRequest),
    mode: 'all',
    defaultValues: valuesOf(profile),
  });
  const release = useUnsavedChangesGuard(isDirty);
  const postCode = useController({ control, name: 'postCode' });
  const city = useController({ control, name: 'city' });
  useRevalidate(postCode.field.value, 'city', { trigger, getFieldState });
  const locale = useController({ control, name: 'locale' });

  const onSubmit = handleSubmit(async (values) => {
    setFailure(null);
    const saved = await updateUser(http, values);
    if (!saved.ok) {
      const { error } = saved;
      // Someone else has that address: say so at the field, where it can be corrected.
      if (error.code === 'EMAIL_ALREADY_REGISTERED')
        setError('email', { type: 'server', message: error.code }, { shouldFocus: true });
      else if (!applyServerErrors(error, setError, FIELDS)) setFailure(error);
      return;
    }
    session.setUser(saved.data);
    if (saved.data.locale !== profile.locale) await setLocale(saved.data.locale);
    release();
    // In the language just chosen (`t` of this render still speaks the old one).
    toast.show({ type: 'info', message: i18n.t('profile.edit.saved') });
    await navigate(ROUTES.profile);
  });

  return (
    <form noValidate onSubmit={onSubmit} className="flex flex-col gap-5">
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
      <div className="rounded-card bg-white p-5 shadow-card">
        <Switch
          label={t('profile.edit.phoneBook')}
          description={t('profile.edit.phoneBookHint')}
          {...register('showInPhoneBook')}
        />
      </div>
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1.5 text-caption font-semibold text-mist-700">
          {t('profile.edit.language')}
        </legend>
        <div className="grid grid-cols-2 gap-2">
          {LOCALES.map((option) => {
            const checked = locale.field.value === option;
            return (
              <label
                key={option}
                lang={option}
                className={cx(
                  'flex min-h-13 cursor-pointer items-center justify-center rounded-control border px-4 text-body font-semibold transition-colors',
                  'has-[:focus-visible]:ring-4 has-[:focus-visible]:ring-fjord-100',
                  checked
                    ? 'border-fjord-500 bg-fjord-50 text-ocean-950'
                    : 'border-mist-300 bg-white text-mist-700',
                )}
              >
                <input
                  type="radio"
                  name={locale.field.name}
                  value={option}
                  checked={checked}
                  onChange={() => locale.field.onChange(option)}
                  onBlur={locale.field.onBlur}
                  className="sr-only"
                />
                {t(`language.${option}`)}
              </label>
            );
          })}
        </div>
      </fieldset>
      {failure && <Alert tone="error">{errorMessage(failure)}</Alert>}
      <Button type="submit" block loading={isSubmitting}>
        {isSubmitting ? t('profile.edit.saving') : t('profile.edit.save')}
      </Button>
    </form>
  );
}
