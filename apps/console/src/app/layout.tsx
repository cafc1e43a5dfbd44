import { useEffect, useRef, type ReactNode } from 'react';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, useLocation } from 'react-router';
import { Clock, Fingerprint, LogOut, MonitorX } from 'lucide-react';
import type { StaffSession } from '@alda/contract/schemas/staff';
import { signOut, signOutEverywhere } from '@/auth/auth-api';
import { cx } from '@/shared/cx';
import { localeOf } from '@/shared/i18n';
import { LanguageSwitch } from '@/shared/language-switch';
import { useServices } from '@/shared/services';
import { Button } from '@/shared/ui/button';
import { MY_PASSKEYS_PATH } from '@/account/routes';
import { areaOfPath, areasFor } from './areas';
import { useSessionWatch } from './session-watch';

/**
 * The signed-in console: a skip link, the navigation of the areas the role may use on the left,
 * the header (who, the session's expiry, language, sign-out) and the area's screen in `main`.
 */
export function ConsoleLayout({
  session,
  children,
}: {
  session: StaffSession;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const location = useLocation();
  const mainRef = useRef<HTMLElement>(null);
  const area = areaOfPath(location.pathname);
  const page = area
    ? t(`nav.${area.id}`)
    : location.pathname === `/${MY_PASSKEYS_PATH}`
      ? t('header.myPasskeys')
      : null;
  useSessionWatch();

  // The page's title names the area, or the member's own page (WCAG 2.4.2).
  useEffect(() => {
    document.title = page ? `${page} – ${t('app.title')}` : t('app.title');
  }, [page, t]);

  // After moving to another area, reading starts at its content (not at the top of the page).
  const firstPath = useRef(location.pathname);
  useEffect(() => {
    if (location.pathname === firstPath.current) return;
    firstPath.current = '';
    mainRef.current?.focus({ preventScroll: true });
  }, [location.pathname]);

  return (
    <div className="min-h-dvh md:grid md:grid-cols-[13.5rem_minmax(0,1fr)] lg:grid-cols-[15rem_minmax(0,1fr)]">
      <a
        href="#main"
        className="sr-only z-50 rounded-lg bg-white px-4 py-2 font-semibold text-ocean-900 shadow-raised focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
      >
        {t('skipToContent')}
      </a>
      {/* The column is dark all the way down; the navigation in it stays in view. */}
      <div className="bg-ocean-950">
        <Navigation role={session.staff.role} />
      </div>
      <div className="flex min-w-0 flex-col">
        <Header session={session} />
        <main
          id="main"
          ref={mainRef}
          tabIndex={-1}
          className="flex-1 px-6 py-6 focus:outline-none lg:px-8 lg:py-8"
        >
          {children}
        </main>
      </div>
    </div>
  );
}

function Navigation({ role }: { role: StaffSession['staff']['role'] }) {
  const { t } = useTranslation();
  return (
    <nav
      aria-label={t('nav.label')}
      className="bg-ocean-950 text-ocean-100 md:sticky md:top-0 md:h-dvh md:overflow-y-auto"
    >
      <div className="flex items-center gap-2.5 px-5 py-4 md:py-5">
        <img src={`${import.meta.env.BASE_URL}favicon.svg`} alt="" className="size-8 rounded-lg" />
        <div className="leading-tight">
          <div className="text-body font-bold text-white">{t('app.name')}</div>
          <div className="text-caption text-ocean-200">{t('app.console')}</div>
        </div>
      </div>
      <ul className="flex gap-1 overflow-x-auto px-3 pb-3 md:flex-col md:overflow-visible">
        {areasFor(role).map(({ id, path, icon: Icon }) => (
          <li key={id}>
            <NavLink
              to={`/${path}`}
              className={({ isActive }) =>
                cx(
                  'flex min-h-10 items-center gap-3 rounded-lg px-3 text-caption font-semibold whitespace-nowrap transition-colors',
                  isActive
                    ? 'bg-ocean-800 text-white shadow-[inset_3px_0_0_var(--color-fjord-300)]'
                    : 'text-ocean-100 hover:bg-ocean-900 hover:text-white',
                )
              }
            >
              <Icon aria-hidden="true" className="size-4.5 shrink-0" />
              {t(`nav.${id}`)}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function Header({ session }: { session: StaffSession }) {
  const { t } = useTranslation();
  const { api, session: store } = useServices();
  const out = useMutation({
    mutationFn: (everywhere: boolean) => (everywhere ? signOutEverywhere(api) : signOut(api)),
    // Signed out here whatever the server answered: the token is forgotten either way.
    onSettled: (_data, _error, everywhere) =>
      store.end(everywhere ? 'signed-out-everywhere' : 'signed-out'),
  });
  const { staff } = session;
  const location = useLocation();
  return (
    <header className="sticky top-0 z-10 flex flex-wrap items-center justify-end gap-x-4 gap-y-2 border-b border-mist-200 bg-white/95 px-6 py-3 backdrop-blur lg:px-8">
      <SessionClock session={session} />
      <LanguageSwitch />
      <div
        aria-label={t('header.account')}
        role="group"
        className="flex items-center gap-3 border-l border-mist-200 pl-4"
      >
        <div className="text-right leading-tight">
          <div className="text-caption font-semibold text-mist-900">{staff.name}</div>
          <div className="text-caption text-mist-600">{t(`roles.${staff.role}`)}</div>
        </div>
        {/* The member's own passkeys, for every role (ADR 0097). */}
        <Link
          to={`/${MY_PASSKEYS_PATH}`}
          title={t('header.myPasskeys')}
          aria-current={location.pathname === `/${MY_PASSKEYS_PATH}` ? 'page' : undefined}
          className="inline-flex min-h-9 items-center justify-center gap-2 rounded-lg px-3 text-caption font-semibold whitespace-nowrap text-ocean-800 transition-colors hover:bg-mist-100 aria-[current=page]:bg-ocean-50"
        >
          <Fingerprint aria-hidden="true" className="size-4" />
          <span className="sr-only xl:not-sr-only">{t('header.myPasskeys')}</span>
        </Link>
        <Button
          variant="secondary"
          size="sm"
          icon={<LogOut aria-hidden="true" className="size-4" />}
          pending={out.isPending && out.variables === false}
          disabled={out.isPending}
          onClick={() => out.mutate(false)}
        >
          {t('header.signOut')}
        </Button>
        <Button
          variant="ghost"
          size="sm"
          icon={<MonitorX aria-hidden="true" className="size-4" />}
          title={t('header.signOutEverywhereHint')}
          pending={out.isPending && out.variables === true}
          disabled={out.isPending}
          onClick={() => out.mutate(true)}
        >
          {/* Its icon alone on a tablet's narrower header; the name is read all the same. */}
          <span className="sr-only xl:not-sr-only">{t('header.signOutEverywhere')}</span>
        </Button>
      </div>
    </header>
  );
}

/** When the session ends if nothing happens, and at the latest (the 8-hour limit). */
function SessionClock({ session }: { session: StaffSession }) {
  const { t, i18n } = useTranslation();
  // 24-hour clock in both languages (as in the Faroe Islands), whatever the browser's locale data.
  const time = new Intl.DateTimeFormat(localeOf(i18n), {
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  });
  const idle = new Date(session.idleExpiresAt);
  const latest = new Date(session.expiresAt);
  return (
    <p
      className="flex basis-full items-center gap-2 text-caption text-mist-600 lg:mr-auto lg:basis-auto"
      title={t('header.latest', { time: time.format(latest) })}
    >
      <Clock aria-hidden="true" className="size-4 text-mist-500" />
      <span>
        {t('header.idle', { time: time.format(idle) })}
        <span className="sr-only"> {t('header.latest', { time: time.format(latest) })}</span>
      </span>
    </p>
  );
}
