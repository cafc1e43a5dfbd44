import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { formatPhoneNumber } from '@alda/contract/format/phone';
import { isPinCode } from '@alda/contract/rules/pin';
import type { Reauthentication } from '@alda/contract/schemas/sessions';
import type { ApiError, HttpClient, Result } from '@/shared/api/http';
import {
  confirmationCodeResponse,
  type ConfirmationCodeResponse,
} from '@alda/contract/schemas/sessions';
import { useFieldMessage } from '@/shared/forms/field-message';
import { PasswordField } from '@/shared/forms/password-field';
import { useErrorMessage } from '@/shared/i18n/use-error-message';
import { useAppServices } from '@/shared/services/app-services';
import { Button } from '@/shared/ui/button';
import { TextField } from '@/shared/ui/text-field';

/** POST /auth/sessions/confirmation-code: an SMS code for a customer without a password. */
export function sendConfirmationCode(http: HttpClient): Promise<Result<ConfirmationCodeResponse>> {
  return http.post('/auth/sessions/confirmation-code', {}, confirmationCodeResponse);
}

/** Codes that are about what was typed, so they are shown under the field, not instead of it. */
const FIELD_CODES = new Set([
  'VALIDATION_FAILED',
  'PASSWORD_INCORRECT',
  'CONFIRMATION_CODE_INCORRECT',
  'PIN_EXPIRED',
  'PIN_RESEND_TOO_SOON',
  'TOO_MANY_ATTEMPTS',
  'SMS_NOT_SENT',
  'NETWORK',
]);

export interface StepUpFormProps {
  /** The action itself, with the password or code the customer gave. */
  submit: (proof: Reauthentication) => Promise<Result<unknown>>;
  /** After the action: success, or an error that is not about the password (closes). */
  onDone: (result: Result<unknown>) => void;
  /** The label of the confirm button ("Rita út", "Lat upp"). */
  confirmLabel: string;
  /** The confirm button's label while the call runs ("Ritar út…"). */
  busyLabel: string;
  /** 'danger' for a destructive action (a sign-out), 'primary' otherwise. */
  tone?: 'danger' | 'primary';
  /** False: the customer has no password and confirms with an SMS code (ADR 0059). */
  hasPassword: boolean;
  onCancel: () => void;
}

/**
 * Step-up (ASVS 5.0 7.5.2, ADRs 0059 and 0076): the body of a confirmation that asks for the
 * password again — or, for a customer without one, an SMS code — before a sensitive action (a
 * device's sign-out, a number's unlock, a SIM change). The modal stays
 * open while the call runs and on a wrong password, which is shown under the field with the
 * focus back on it; anything else closes it and goes to `onDone`.
 */
export function StepUpForm({
  submit: act,
  onDone,
  confirmLabel,
  busyLabel,
  tone = 'danger',
  hasPassword,
  onCancel,
}: StepUpFormProps) {
  const { t } = useTranslation();
  const { http } = useAppServices();
  const fieldMessage = useFieldMessage();
  const errorMessage = useErrorMessage();
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [sending, setSending] = useState(false);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);

  const showError = (message: string) => {
    setError(message);
    input.current?.focus();
    input.current?.select();
  };
  const messageOf = (failure: ApiError) =>
    failure.code === 'VALIDATION_FAILED'
      ? fieldMessage(failure.issues?.[0]?.key ?? 'INVALID')
      : errorMessage(failure);

  // The code field appears once a code is on its way: it takes the focus.
  useEffect(() => {
    if (sentTo) input.current?.focus();
  }, [sentTo]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const typed = hasPassword ? value : value.trim();
    if (!typed) {
      showError(fieldMessage('REQUIRED') ?? '');
      return;
    }
    if (!hasPassword && !isPinCode(typed)) {
      showError(fieldMessage('INVALID_PIN') ?? '');
      return;
    }
    setError(null);
    setBusy(true);
    const result = await act(hasPassword ? { password: typed } : { code: typed });
    setBusy(false);
    if (!result.ok && FIELD_CODES.has(result.error.code)) {
      showError(messageOf(result.error) ?? '');
      return;
    }
    onDone(result);
  };

  const sendCode = async () => {
    setSending(true);
    const result = await sendConfirmationCode(http);
    setSending(false);
    if (!result.ok) {
      setError(errorMessage(result.error));
      return;
    }
    setError(null);
    setSentTo(result.data.phoneNumber);
  };

  const field = hasPassword ? (
    <PasswordField
      ref={input}
      label={t('profile.devices.passwordLabel')}
      autoComplete="current-password"
      hint={t('profile.devices.passwordHint')}
      error={error ?? undefined}
      value={value}
      onChange={(e) => setValue(e.target.value)}
      autoFocus
    />
  ) : sentTo ? (
    <TextField
      ref={input}
      label={t('profile.devices.codeLabel')}
      inputMode="numeric"
      autoComplete="one-time-code"
      hint={t('profile.devices.codeSent', { number: formatPhoneNumber(sentTo) })}
      error={error ?? undefined}
      value={value}
      onChange={(e) => setValue(e.target.value)}
    />
  ) : (
    <div className="flex flex-col gap-2 text-center">
      <p className="text-body text-mist-600">{t('profile.devices.codeLead')}</p>
      {error && (
        <p role="alert" className="text-caption font-medium text-danger-600">
          {error}
        </p>
      )}
    </div>
  );

  return (
    <form noValidate onSubmit={(e) => void submit(e)} className="flex flex-col gap-5">
      {field}
      <div className="flex flex-col gap-2">
        {hasPassword || sentTo ? (
          <Button type="submit" block variant={tone} loading={busy}>
            {busy ? busyLabel : confirmLabel}
          </Button>
        ) : (
          <Button block loading={sending} onClick={() => void sendCode()} autoFocus>
            {t('profile.devices.sendCode')}
          </Button>
        )}
        {sentTo && (
          <Button block variant="secondary" loading={sending} onClick={() => void sendCode()}>
            {t('profile.devices.resendCode')}
          </Button>
        )}
        <Button block variant="ghost" disabled={busy} onClick={onCancel}>
          {t('modal.cancel')}
        </Button>
      </div>
    </form>
  );
}
