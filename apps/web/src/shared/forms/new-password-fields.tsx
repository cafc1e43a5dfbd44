import type { UseFormRegisterReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { PasswordField } from './password-field';
import { PasswordStrength } from './password-strength';

interface NewPasswordFieldsProps {
  /** The new password as typed, for the SPEC §5 rule checklist. */
  password: string;
  passwordField: UseFormRegisterReturn;
  repeatField: UseFormRegisterReturn;
  passwordError?: string;
  repeatError?: string;
  /** Label of the first field; "New password" by default. */
  label?: string;
}

/**
 * A new password, its rule checklist and the repeat (SPEC §5): the same three fields in register,
 * reset password and change password.
 */
export function NewPasswordFields({
  password,
  passwordField,
  repeatField,
  passwordError,
  repeatError,
  label,
}: NewPasswordFieldsProps) {
  const { t } = useTranslation();
  return (
    <>
      <PasswordField
        label={label ?? t('forms.newPassword')}
        autoComplete="new-password"
        error={passwordError}
        {...passwordField}
      />
      <PasswordStrength password={password} />
      <PasswordField
        label={t('forms.passwordRepeat')}
        autoComplete="new-password"
        error={repeatError}
        {...repeatField}
      />
    </>
  );
}
