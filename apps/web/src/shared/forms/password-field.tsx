import { forwardRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EyeIcon, EyeOffIcon } from '@/shared/ui/icons';
import { TextField, type TextFieldProps } from '@/shared/ui/text-field';

/** A password input with a show/hide switch at its right edge. */
export const PasswordField = forwardRef<
  HTMLInputElement,
  Omit<TextFieldProps, 'type' | 'trailing'>
>(function PasswordField(props, ref) {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(false);
  return (
    <TextField
      ref={ref}
      type={visible ? 'text' : 'password'}
      autoCapitalize="none"
      autoCorrect="off"
      spellCheck={false}
      trailing={
        <button
          type="button"
          onClick={() => setVisible((v) => !v)}
          aria-label={visible ? t('forms.hidePassword') : t('forms.showPassword')}
          aria-pressed={visible}
          className="inline-flex size-11 items-center justify-center rounded-full text-mist-500 hover:bg-mist-100"
        >
          {visible ? <EyeOffIcon className="size-5" /> : <EyeIcon className="size-5" />}
        </button>
      }
      {...props}
    />
  );
});
