import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { ParseKeys } from 'i18next';
import type { SubscriptionsResponse } from '@alda/contract/schemas/subscriptions';
import { useSubscriptionsQuery } from '@/shared/api/account-queries';
import { BagIcon, GiftIcon, WalletIcon } from '@/shared/ui/account-icons';
import { DataIcon } from '@/shared/ui/icons';
import { ROUTES } from '@/shared/config/paths';

/** One quick action of home: a flow's entry point (its route) with an icon and a label key. */
export interface QuickAction {
  id: 'give-data' | 'request-data' | 'buy-package' | 'top-up';
  to: string;
  labelKey: ParseKeys;
  icon: ReactNode;
  /** Shown only when this holds for the customer's subscriptions (e.g. top-up: a prepaid line). */
  when?: (subscriptions: SubscriptionsResponse) => boolean;
}

/** The line home shows is prepaid (talutíð): it has a balance to top up. */
const isPrepaidLine = (subscriptions: SubscriptionsResponse) => {
  const balance = subscriptions.currentAccount?.currentMember.prepaidBalance;
  return balance !== null && balance !== undefined;
};

/**
 * The quick actions of home (SPEC §1: give or request data, buy an extra package, top up). Each
 * flow adds its entry here with its route; an entry with `when` shows only where it applies (top
 * up on a prepaid line), and with no entry left the row is not rendered at all.
 */
export const QUICK_ACTIONS: readonly QuickAction[] = [
  {
    id: 'give-data',
    to: ROUTES.giveData,
    labelKey: 'home.actions.giveData',
    icon: <GiftIcon className="size-6" />,
  },
  {
    id: 'request-data',
    to: ROUTES.requestData,
    labelKey: 'home.actions.requestData',
    icon: <DataIcon className="size-6" />,
  },
  {
    id: 'buy-package',
    to: ROUTES.buyPackage,
    labelKey: 'packages.quickAction',
    icon: <BagIcon className="size-6" />,
  },
  {
    id: 'top-up',
    to: ROUTES.topUp,
    labelKey: 'topUp.quickAction',
    icon: <WalletIcon className="size-6" />,
    when: isPrepaidLine,
  },
];

export function QuickActions({ actions = QUICK_ACTIONS }: { actions?: readonly QuickAction[] }) {
  const { t } = useTranslation();
  const { data: subscriptions } = useSubscriptionsQuery();
  const shown = actions.filter((a) => !a.when || (subscriptions && a.when(subscriptions)));
  if (shown.length === 0) return null;
  return (
    <nav aria-label={t('home.quickActions')} className="grid grid-cols-4 gap-2">
      {shown.map((action) => (
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
