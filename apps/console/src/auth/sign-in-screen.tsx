import { useEffect, useId, useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { Fingerprint, LogIn } from 'lucide-react';
import {
  staffPasswordStep,
  staffTotpSignInRequest,
  type StaffRole,
} from '@alda/contract/schemas/staff';
import { areaOfPath, landingPath, mayUse } from '@/app/areas';
import type { SignInState } from '@/app/guards';
import { isApiError } from '@/shared/api';
import { useErrorText } from '@/shared/error-text';
import { LanguageSwitch } from '@/shared/language-switch';
import { askPasskey, passkeyProblem } from '@/shared/passkeys';
import { useServices, useSession } from '@/shared/services';
import { Button } from '@/shared/ui/button';
import { Notice } from '@/shared/ui/notice';
import { TextField } from '@/shared/ui/text-field';
import { passkeyOptions, signIn } from './auth-api';

type Field = 'email' | 'password' | 'totpCode';
type FieldErrors = Partial<Record<Field, string>>;
/** The second factor of an attempt: the authenticator app's code, or a passkey (ADR 0097). */
type Factor = 'totp' | 'passkey';

/** Where to go after sign-in: back where a signed-out visit was going, if the role may; else the landing page. */
function destination(role: StaffRole, from: string | undefined): string {
  const area = from ? areaOfPath(from) : undefined;
  return from && area && mayUse(role, area.id) ? from : landingPath(role);
}

/**
 * Staff sign-in (docs/decisions/0075-staff-console.md): e-mail, password and the authenticator's
 * six-digit code (or a recovery code) in one call — or, instead of the code, a passkey (ADR 0097):
 * the password is checked first (`/passkey-options`), the browser asks for the passkey, and the
 * sign-in sends its answer. A failure shows the server's message, in the language shown; what
 * went wrong in the browser's passkey prompt has texts of its own.
 */
export function SignInScreen() {
  const { t } = useTranslation();
  const { api, session: store } = useServices();
  const session = useSession();
  const navigate = useNavigate();
  const from = (useLocation().state as SignInState | null)?.from;
  const errorText = useErrorText();
  const [notice] = useState(() => store.notice());
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [totpCode, setTotpCode] = useState('');
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const passkeyHintId = useId();

  useEffect(() => {
    document.title = `${t('signIn.title')} – ${t('app.title')}`;
  }, [t]);

  const attempt = useMutation({
    mutationFn: async (factor: Factor) => {
      if (factor === 'totp')
        return signIn(api, { email: email.trim(), password, totpCode: totpCode.trim() });
      const options = await passkeyOptions(api, { email: email.trim(), password });
      const answer = await askPasskey(options);
      return signIn(api, { email: email.trim(), password, passkey: answer });
    },
    onSuccess: (started) => {
      store.start(started);
      void navigate(destination(started.staff.role, from), { replace: true });
    },
    // A used or wrong code is no good for a second try.
    onError: (_error, factor) => {
      if (factor === 'totp') setTotpCode('');
    },
  });

  // Already signed in (a reload of /sign-in, the back button): straight in.
  if (session && !attempt.isPending) {
    return <Navigate to={destination(session.staff.role, from)} replace />;
  }

  const check = (factor: Factor): FieldErrors => {
    const parsed =
      factor === 'totp'
        ? staffTotpSignInRequest.safeParse({
            email: email.trim(),
            password,
            totpCode: totpCode.trim(),
          })
        : staffPasswordStep.safeParse({ email: email.trim(), password });
    if (parsed.success) return {};
    const errors: FieldErrors = {};
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] as Field;
      if (errors[field]) continue;
      if (field === 'email')
        errors.email = t(
          email.trim() ? 'signIn.invalid.emailInvalid' : 'signIn.invalid.emailRequired',
        );
      if (field === 'password') errors.password = t('signIn.invalid.passwordRequired');
      if (field === 'totpCode')
        errors.totpCode = t(
          totpCode.trim() ? 'signIn.invalid.codeInvalid' : 'signIn.invalid.codeRequired',
        );
    }
    return errors;
  };

  const start = (factor: Factor, form: HTMLFormElement | null) => {
    if (attempt.isPending) return;
    const errors = check(factor);
    setFieldErrors(errors);
    const first = (['email', 'password', 'totpCode'] as const).find((field) => errors[field]);
    if (first) {
      form?.querySelector<HTMLInputElement>(`[name="${first}"]`)?.focus();
      return;
    }
    attempt.mutate(factor);
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    start('totp', event.currentTarget);
  };

  /** The failure's text: the browser's prompt's own, else the server's message. */
  const failureText = (error: unknown): string => {
    const problem = passkeyProblem(error);
    if (problem) return t(`signIn.passkey.${problem}`);
    if (isApiError(error, 'PASSKEY_NOT_FOUND')) return t('signIn.passkey.none');
    return errorText(error);
  };
  const pendingWith = attempt.isPending ? attempt.variables : null;

  const noticeText =
    notice === 'expired'
      ? t('signIn.expired')
      : notice === 'signed-out'
        ? t('signIn.signedOut')
        : notice === 'signed-out-everywhere'
          ? t('signIn.signedOutEverywhere')
          : null;

  return (
    <div className="flex min-h-dvh flex-col bg-mist-100">
      <header className="flex items-center justify-between px-6 py-4">
        <div className="flex items-center gap-2.5">
          <img
            src={`${import.meta.env.BASE_URL}favicon.svg`}
            alt=""
            className="size-8 rounded-lg"
          />
          <div className="leading-tight">
            <div className="text-body font-bold text-ocean-950">{t('app.name')}</div>
            <div className="text-caption text-mist-600">{t('app.console')}</div>
          </div>
        </div>
        <LanguageSwitch />
      </header>
      <main id="main" className="flex flex-1 items-start justify-center px-6 pt-[8vh] pb-12">
        <div className="w-full max-w-md rounded-2xl border border-mist-200 bg-white p-8 shadow-card">
          <h1 className="text-title font-bold text-ocean-950">{t('signIn.title')}</h1>
          <p className="mt-1 text-body text-mist-600">{t('signIn.lead')}</p>

          {noticeText && !attempt.isError ? (
            <Notice tone={notice === 'expired' ? 'info' : 'success'} className="mt-6">
              {noticeText}
            </Notice>
          ) : null}
          {attempt.isError ? (
            <Notice tone="danger" className="mt-6">
              {failureText(attempt.error)}
              {isApiError(attempt.error, 'STAFF_PASSKEY_REQUIRED') ? (
                <span className="mt-1 block font-normal">{t('signIn.passkey.requiredHint')}</span>
              ) : null}
            </Notice>
          ) : null}

          <form noValidate onSubmit={submit} className="mt-6 flex flex-col gap-5">
            <TextField
              label={t('signIn.email')}
              name="email"
              type="email"
              autoComplete="username"
              spellCheck={false}
              autoCapitalize="none"
              value={email}
              onChange={(event) => setEmail(event.target.value)}
              error={fieldErrors.email}
              required
            />
            <TextField
              label={t('signIn.password')}
              name="password"
              type="password"
              autoComplete="current-password"
              value={password}
              onChange={(event) => setPassword(event.target.value)}
              error={fieldErrors.password}
              required
            />
            <TextField
              label={t('signIn.code')}
              hint={t('signIn.codeHint')}
              name="totpCode"
              type="text"
              autoComplete="one-time-code"
              spellCheck={false}
              autoCapitalize="none"
              maxLength={11}
              className="[&_input]:font-mono [&_input]:tracking-widest"
              value={totpCode}
              onChange={(event) => setTotpCode(event.target.value)}
              error={fieldErrors.totpCode}
              required
            />
            <Button
              type="submit"
              pending={pendingWith === 'totp'}
              disabled={attempt.isPending}
              icon={<LogIn aria-hidden="true" className="size-4" />}
              className="mt-1 w-full"
            >
              {pendingWith === 'totp' ? t('signIn.submitting') : t('signIn.submit')}
            </Button>
            <div className="flex items-center gap-3 text-caption text-mist-600" aria-hidden="true">
              <span className="h-px flex-1 bg-mist-200" />
              {t('signIn.or')}
              <span className="h-px flex-1 bg-mist-200" />
            </div>
            <div className="flex flex-col gap-1.5">
              <Button
                variant="secondary"
                pending={pendingWith === 'passkey'}
                disabled={attempt.isPending}
                icon={<Fingerprint aria-hidden="true" className="size-4" />}
                aria-describedby={passkeyHintId}
                className="w-full"
                onClick={(event) => start('passkey', event.currentTarget.form)}
              >
                {pendingWith === 'passkey'
                  ? t('signIn.passkey.pending')
                  : t('signIn.passkey.button')}
              </Button>
              <p id={passkeyHintId} className="text-caption text-mist-600">
                {t('signIn.passkey.hint')}
              </p>
            </div>
          </form>
        </div>
      </main>
    </div>
  );
}
