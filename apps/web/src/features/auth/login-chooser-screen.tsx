import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { LanguageToggle } from '@/shared/i18n/language-toggle';
import { ChevronRightIcon, MailIcon, PhoneIcon } from '@/shared/ui/icons';
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
      <span className="flex size-11 shrink-0 items-center justify-center rounded-full bg-ocean-900 text-white">
        {icon}
      </span>
      <span className="flex min-w-0 flex-1 flex-col">
        <span className="text-lead font-semibold text-ocean-950">{label}</span>
        <span className="text-caption text-mist-500">{hint}</span>
      </span>
      <ChevronRightIcon className="size-5 shrink-0 text-mist-400" />
    </Link>
  );
}
