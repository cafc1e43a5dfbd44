import type { ReactNode } from 'react';
import { NavLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import { usePartnerApp } from '@/features/partner-app/partner-app';
import { useUnreadNotifications } from '@/shared/api/notifications-unread';
import { cx } from '@/shared/ui/cx';
import { AldaMark, HomeIcon, MenuIcon, UserIcon } from '@/shared/ui/icons';
import { ROUTES } from '@/shared/config/paths';

/** The footer navigation (SPEC §2): Home, My user, Menu and the round logo button in the middle. */
export function Footer() {
  const { t } = useTranslation();
  const openPartnerApp = usePartnerApp();
  const unread = useUnreadNotifications();
  return (
    <nav
      aria-label={t('nav.main')}
      className="h-footer pb-safe fixed inset-x-0 bottom-0 z-30 mx-auto w-full max-w-app bg-white shadow-footer"
    >
      <ul className="grid h-(--footer-h) grid-cols-4 items-stretch">
        <Item to={ROUTES.home} end icon={<HomeIcon />} label={t('nav.home')} />
        <Item to={ROUTES.profile} icon={<UserIcon />} label={t('nav.profile')} />
        <li className="flex items-start justify-center">
          <button
            type="button"
            onClick={() => void openPartnerApp()}
            aria-label={t('nav.partnerApp')}
            className="-mt-5 flex size-16 items-center justify-center rounded-full bg-linear-to-br from-ocean-800 to-ocean-950 text-fjord-300 shadow-raised ring-4 ring-white transition-transform active:scale-95"
          >
            <AldaMark className="size-9" />
          </button>
        </li>
        <Item
          to={ROUTES.menu}
          icon={<MenuIcon />}
          label={t('nav.menu')}
          badge={unread > 0 ? unread : undefined}
          badgeLabel={t('notifications.badge', { count: unread })}
        />
      </ul>
    </nav>
  );
}

function Item({
  to,
  end,
  icon,
  label,
  badge,
  badgeLabel,
}: {
  to: string;
  end?: boolean;
  icon: ReactNode;
  label: string;
  /** Unread notifications (SPEC §4): a count on the icon, read out with `badgeLabel`. */
  badge?: number;
  badgeLabel?: string;
}) {
  return (
    <li className="flex">
      <NavLink
        to={to}
        end={end}
        className={({ isActive }) =>
          cx(
            'flex min-w-0 flex-1 flex-col items-center justify-center gap-1 text-center text-tab font-semibold transition-colors',
            isActive ? 'text-ocean-900' : 'text-mist-500 hover:text-ocean-700',
          )
        }
      >
        {({ isActive }) => (
          <>
            <span
              className={cx(
                'relative flex h-8 w-14 items-center justify-center rounded-full',
                isActive && 'bg-fjord-100',
              )}
            >
              {icon}
              {badge !== undefined && (
                <span
                  aria-hidden="true"
                  className="absolute -top-1 right-1.5 flex h-4.5 min-w-4.5 items-center justify-center rounded-full bg-puffin-600 px-1 text-badge font-bold text-white"
                >
                  {badge > 99 ? '99+' : badge}
                </span>
              )}
            </span>
            <span className="max-w-full wrap-anywhere">{label}</span>
            {badge !== undefined && <span className="sr-only">{`, ${badgeLabel ?? ''}`}</span>}
          </>
        )}
      </NavLink>
    </li>
  );
}
