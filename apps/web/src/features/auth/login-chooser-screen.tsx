import { useContext, useState, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { LanguageToggle } from '@/shared/i18n/language-toggle';
import { AppServicesContext } from '@/shared/services/app-services';
import { ChevronRightIcon, ErrorIcon, MailIcon, PhoneIcon } from '@/shared/ui/icons';
import { PasskeyIcon } from '@/shared/ui/passkey-icon';
import { Spinner } from '@/shared/ui/spinner';
import { AuthHero } from './auth-hero';
import { ROUTES } from '@/shared/config/paths';

/** /rita-inn (auth.login): choose how to log in. */
export function LoginChooserScreen() {
  const { t } = useTranslation();
  return (
    <main className="flex min-h-dvh flex-col bg-mist-50">
      <AuthHero>
        <p className="text-caption font-semibold tracking-wide text-fjord-200 uppercase">
          {t('auth.chooser.title')}
        </p>
        <h1 className="text-display font-bold">{t('auth.chooser.welcome')}</h1>
        <p className="text-lead text-ocean-100">{t('auth.chooser.lead')}</p>
      </AuthHero>
      <div className="px-safe pb-safe -mt-8 flex flex-1 flex-col gap-4">
        <section
          aria-labelledby="login-method-heading"
          className="relative flex flex-col gap-3 rounded-card bg-white p-5 shadow-card"
        >
          <h2 id="login-method-heading" className="text-heading font-bold text-ocean-950">
            {t('auth.chooser.question')}
          </h2>
          <MethodLink
            to={ROUTES.loginPhone}
            icon={<PhoneIcon />}
            label={t('auth.chooser.phone')}
            hint={t('auth.chooser.phoneHint')}
          />
          <MethodLink
            to={ROUTES.loginEmail}
            icon={<MailIcon />}
            label={t('auth.chooser.email')}
            hint={t('auth.chooser.emailHint')}
          />
          <PasskeyMethod />
        </section>
        <p className="text-center text-body text-mist-600">
          {t('auth.chooser.noUser')}{' '}
          <Link
            to={ROUTES.register}
            className="font-semibold text-fjord-600 underline underline-offset-2"
          >
            {t('auth.chooser.register')}
          </Link>
        </p>
        <LanguageToggle className="mt-auto mb-6 self-center" />
      </div>
    </main>
  );
}

const methodClasses =
  'flex min-h-18 items-center gap-4 rounded-2xl border px-4 py-3 text-left transition-colors';

/** The method's icon, label and hint inside its row. */
function MethodBody({ icon, label, hint }: { icon: ReactNode; label: string; hint: string }) {
  return (
    <>
      <span className="flex size-11 shrink-0 items-center justify-center rounded-full bg-ocean-900 text-white">
        {icon}
      </span>
      <span className="flex min-w-0 flex-1 flex-col">
        <span className="text-lead font-semibold text-ocean-950">{label}</span>
        <span className="text-caption text-mist-500">{hint}</span>
      </span>
    </>
  );
}

/**
 * Sign in with a passkey (ADR 0097), for devices whose fields have no passkey autofill: the
 * browser's own dialog at once, no screen of its own. Its code — and the message of a failure —
 * loads when the button is pressed (passkey-sign-in.ts, with @simplewebauthn/browser), so the
 * login screen's first load carries none of it. Closing the dialog says nothing. Hidden where the
 * browser has no WebAuthn (what the library's `browserSupportsWebAuthn()` checks, without loading
 * it); in the markup rendered at build time (no window, no services yet) it is there — nearly
 * every browser has WebAuthn, and the screen should not change as the app starts — disabled as
 * the rest of that screen.
 */
function PasskeyMethod() {
  const { t } = useTranslation();
  const services = useContext(AppServicesContext);
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  if (typeof window !== 'undefined' && typeof window.PublicKeyCredential !== 'function')
    return null;

  const signIn = async () => {
    if (!services || busy) return;
    setBusy(true);
    setFailure(null);
    try {
      const passkeys = await import('./passkey-sign-in');
      const result = await passkeys.signInWithPasskey({
        http: services.http,
        signIn: services.signIn,
        navigate: (path) => navigate(path, { replace: true }),
      });
      if (result.status === 'failed') setFailure(passkeys.passkeyFailureText(t, result.error));
    } catch {
      // Its code could not be loaded: as good as offline.
      setFailure(t('httpErrors.NETWORK'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <button
        type="button"
        onClick={() => void signIn()}
        aria-busy={busy || undefined}
        aria-describedby={failure ? 'passkey-login-error' : undefined}
        className={`${methodClasses} border-mist-200 hover:border-fjord-300 hover:bg-fjord-50`}
      >
        <MethodBody
          icon={busy ? <Spinner className="size-5" /> : <PasskeyIcon />}
          label={t('auth.chooser.passkey')}
          hint={busy ? t('auth.passkey.signingIn') : t('auth.chooser.passkeyHint')}
        />
      </button>
      {failure && (
        // As shared/ui/alert.tsx shows an error, without loading it on this screen.
        <p
          id="passkey-login-error"
          role="alert"
          className="flex items-start gap-3 rounded-2xl bg-danger-50 px-4 py-3 text-body text-danger-700"
        >
          <ErrorIcon className="mt-0.5 size-5 shrink-0" />
          <span className="min-w-0 flex-1">{failure}</span>
        </p>
      )}
    </>
  );
}

function MethodLink({
  to,
  icon,
  label,
  hint,
}: {
  to: string;
  icon: ReactNode;
  label: string;
  hint: string;
}) {
  return (
    <Link
      to={to}
      className={`${methodClasses} border-mist-200 hover:border-fjord-300 hover:bg-fjord-50`}
    >
      <MethodBody icon={icon} label={label} hint={hint} />
      <ChevronRightIcon className="size-5 shrink-0 text-mist-400" />
    </Link>
  );
}
