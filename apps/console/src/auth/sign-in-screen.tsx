import { useEffect, useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { LogIn } from 'lucide-react';
import { staffSignInRequest, type StaffRole } from '@alda/contract/schemas/staff';
import { areaOfPath, landingPath, mayUse } from '@/app/areas';
import type { SignInState } from '@/app/guards';
import { useErrorText } from '@/shared/error-text';
import { LanguageSwitch } from '@/shared/language-switch';
import { useServices, useSession } from '@/shared/services';
import { Button } from '@/shared/ui/button';
import { Notice } from '@/shared/ui/notice';
import { TextField } from '@/shared/ui/text-field';
import { signIn } from './auth-api';

type Field = 'email' | 'password' | 'totpCode';
type FieldErrors = Partial<Record<Field, string>>;

/** Where to go after sign-in: back where a signed-out visit was going, if the role may; else the landing page. */
function destination(role: StaffRole, from: string | undefined): string {
  const area = from ? areaOfPath(from) : undefined;
  return from && area && mayUse(role, area.id) ? from : landingPath(role);
}

/**
 * Staff sign-in (docs/decisions/0075-staff-console.md): e-mail, password and the authenticator's
 * six-digit code (or a recovery code) in one call. A failure shows the server's message, in the
 * language shown.
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

  useEffect(() => {
    document.title = `${t('signIn.title')} – ${t('app.title')}`;
  }, [t]);

  const attempt = useMutation({
    mutationFn: () => signIn(api, { email: email.trim(), password, totpCode: totpCode.trim() }),
    onSuccess: (started) => {
      store.start(started);
      void navigate(destination(started.staff.role, from), { replace: true });
    },
    // A used or wrong code is no good for a second try.
    onError: () => setTotpCode(''),
  });

  // Already signed in (a reload of /sign-in, the back button): straight in.
  if (session && !attempt.isPending) {
    return <Navigate to={destination(session.staff.role, from)} replace />;
  }

  const check = (): FieldErrors => {
    const parsed = staffSignInRequest.safeParse({
      email: email.trim(),
      password,
      totpCode: totpCode.trim(),
    });
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

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (attempt.isPending) return;
    const errors = check();
    setFieldErrors(errors);
    const first = (['email', 'password', 'totpCode'] as const).find((field) => errors[field]);
    if (first) {
      event.currentTarget.querySelector<HTMLInputElement>(`[name="${first}"]`)?.focus();
      return;
    }
    attempt.mutate();
  };

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
              {errorText(attempt.error)}
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
              pending={attempt.isPending}
              icon={<LogIn aria-hidden="true" className="size-4" />}
              className="mt-1 w-full"
            >
              {attempt.isPending ? t('signIn.submitting') : t('signIn.submit')}
            </Button>
          </form>
        </div>
      </main>
    </div>
  );
}
