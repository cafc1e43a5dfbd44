import { useState } from 'react';
import { skipToken, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Order } from '@alda/contract/schemas/orders';
import type { SubscriptionsResponse } from '@alda/contract/schemas/subscriptions';
import { accountKeys, visibleOrders } from '@/shared/api/account-data';
import { useAppServices, useSession } from '@/shared/services/app-services';
import { Button } from '@/shared/ui/button';
import { Card } from '@/shared/ui/card';
import { AldaMark, PhoneIcon, RefreshIcon } from '@/shared/ui/icons';
import { AccountSummary } from './account-summary';
import { dayPart } from './greeting';

/**
 * Reads start-up data from the cache only: the start-up sequence (or a retry) loads it; a failed
 * load stays unset rather than being fetched again behind the user's back.
 */
function useCached<T>(queryKey: readonly unknown[]) {
  return useQuery<T>({ queryKey, queryFn: skipToken }).data;
}

/** / (home): greeting and, when the subscriptions loaded, the current account. */
export function HomeScreen() {
  const { t } = useTranslation();
  const { user } = useSession();
  const { reloadAccountData } = useAppServices();
  const subscriptions = useCached<SubscriptionsResponse>(accountKeys.resource('subscriptions'));
  const orders = useCached<Order[]>(accountKeys.resource('orders'));
  const [reloading, setReloading] = useState(false);
  const name = user?.firstname ?? '';
  // SPEC §3: the first main-subscription order that is not complete is kept as a backup.
  const processing =
    orders && visibleOrders(orders).find((o) => o.isMainSubscription && !o.isComplete);

  const retry = async () => {
    setReloading(true);
    try {
      await reloadAccountData();
    } finally {
      setReloading(false);
    }
  };

  return (
    <main className="pb-footer min-h-dvh bg-mist-50">
      <div className="pt-safe rounded-b-[2rem] bg-linear-to-br from-ocean-900 via-ocean-800 to-ocean-600 text-white">
        <div className="px-safe flex flex-col gap-2 pt-6 pb-10">
          <AldaMark className="size-9 text-fjord-300" />
          <p className="text-caption font-semibold tracking-wide text-fjord-200 uppercase">
            {t('home.title')}
          </p>
          <h1 className="text-title font-bold">{t(`home.greeting.${dayPart()}`, { name })}</h1>
        </div>
      </div>
      <div className="px-safe -mt-6 flex flex-col gap-5">
        {subscriptions?.currentAccount ? (
          <AccountSummary account={subscriptions.currentAccount} processingOrder={processing} />
        ) : (
          <Card className="flex flex-col items-start gap-3" aria-labelledby="home-empty-title">
            <span className="flex size-11 items-center justify-center rounded-full bg-ocean-50 text-ocean-700">
              <PhoneIcon />
            </span>
            <h2 id="home-empty-title" className="text-heading font-bold text-ocean-950">
              {t('home.empty.title')}
            </h2>
            <p className="text-body text-mist-600">{t('home.empty.body')}</p>
            <Button
              variant="secondary"
              size="md"
              onClick={() => void retry()}
              loading={reloading}
              icon={<RefreshIcon className="size-5" />}
            >
              {t('home.empty.retry')}
            </Button>
          </Card>
        )}
      </div>
    </main>
  );
}
