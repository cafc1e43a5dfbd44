import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { SHARING_PATHS } from '@/shared/config/data-sharing-paths';
import { GiftIcon } from '@/shared/ui/account-icons';
import { DataIcon } from '@/shared/ui/icons';

/** One quick action of home: a flow's entry point (its route) with an icon and a label key. */
export interface QuickAction {
  id: 'give-data' | 'request-data' | 'buy-package' | 'top-up';
  to: string;
  labelKey: string;
  icon: ReactNode;
}

/**
 * The quick actions of home (SPEC §1: give or request data, buy an extra package, top up). Their
 * flows ship with later issues: each adds its entry here when its route exists. Until then the
 * row is not rendered at all, so home never shows a button that does nothing.
 */
export const QUICK_ACTIONS: readonly QuickAction[] = [
  {
    id: 'give-data',
    to: SHARING_PATHS.giveData,
    labelKey: 'home.actions.giveData',
    icon: <GiftIcon className="size-6" />,
  },
  {
    id: 'request-data',
    to: SHARING_PATHS.requestData,
    labelKey: 'home.actions.requestData',
    icon: <DataIcon className="size-6" />,
  },
];

export function QuickActions({ actions = QUICK_ACTIONS }: { actions?: readonly QuickAction[] }) {
  const { t } = useTranslation();
  if (actions.length === 0) return null;
  return (
    <nav aria-label={t('home.quickActions')} className="grid grid-cols-4 gap-2">
      {actions.map((action) => (
        <Link
          key={action.id}
          to={action.to}
          className="flex flex-col items-center gap-2 rounded-2xl bg-white px-1 py-3 text-center text-caption font-semibold text-ocean-900 shadow-card hover:bg-mist-50"
        >
          <span className="flex size-11 items-center justify-center rounded-full bg-fjord-50 text-fjord-700">
            {action.icon}
          </span>
          {t(action.labelKey)}
        </Link>
      ))}
    </nav>
  );
}
