import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { Link, Navigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { backupMainOrder, visibleOrders } from '@alda/contract/rules/orders';
import { findPlan } from '@alda/contract/rules/plans';
import type { Order } from '@alda/contract/schemas/orders';
import type { Plan } from '@alda/contract/schemas/plans';
import type { Account, SubscriptionsResponse } from '@alda/contract/schemas/subscriptions';
import { DataSummary } from '@/shared/account/data-summary';
import { customerLines, familyAccountOf, familyOverview } from '@/shared/account/family';
import { currentProvisioningStep } from '@/shared/account/provisioning';
import { useOrdersQuery, usePlansQuery, useSubscriptionsQuery } from '@/shared/api/account-queries';
import { useOnline } from '@/shared/api/connectivity';
import { apiErrorOf } from '@/shared/api/query-error';
import { formatPhoneNumber } from '@alda/contract/format/phone';
import { ageOf } from '@/shared/format/age';
import { useFormatters } from '@/shared/format/use-formatters';
import { useErrorMessage } from '@/shared/i18n/use-error-message';
import { PasskeyOfferSlot } from '@/shared/passkeys/passkey-offer-slot';
import { useSession } from '@/shared/services/app-services';
import { ChartIcon, ClockIcon, SettingsIcon, WalletIcon } from '@/shared/ui/account-icons';
import { Card } from '@/shared/ui/card';
import { cx } from '@/shared/ui/cx';
import { ErrorState } from '@/shared/ui/error-state';
import { AldaMark, ChevronRightIcon, DataIcon, RefreshIcon } from '@/shared/ui/icons';
import { afterFirstPaint } from '@/shared/ui/first-paint';
import { Skeleton } from '@/shared/ui/skeleton';
import { useToast } from '@/shared/ui/toast/toast-context';
import { FamilySection } from './family-section';
import { dayPart } from './greeting';
import { LineSwitcher } from './line-switcher';
import { PartnerOffer } from './partner-offer';
import { QuickActions } from './quick-actions';
import { RoamingCard } from './roaming-card';
import { href, ROUTES } from '@/shared/config/paths';

/**
 * The owner's inbox of members' package requests (ADR 0068): its own chunk, fetched once home's
 * first screen is on the display (issue 45), so the first screen stays within its budget and its
 * paint does not wait on the inbox's chunks (docs/performance.md).
 */
const PackageRequestInbox = lazy(() =>
  afterFirstPaint()
    .then(() => import('./package-request-inbox'))
    .then((m) => ({ default: m.PackageRequestInbox })),
);

/**
 * / (home, SPEC §2): the current line's data, abroad allowance, the family (owner), switching
 * between the customer's lines, and the partner offer. Reads the start-up data from the cache
 * and refreshes it when stale; a load that failed at start-up is fetched here, with a retry.
 */
export function HomeScreen() {
  const subscriptions = useSubscriptionsQuery();
  const orders = useOrdersQuery();
  const plans = usePlansQuery();
  const errorMessage = useErrorMessage();
  const { t } = useTranslation();
  const online = useOnline();

  const data = subscriptions.data;
  // A failed refetch keeps the figures on screen (the refresh button says it failed); only a
  // first load that fails shows the error.
  if (data === undefined) {
    return (
      <HomeFrame>
        {subscriptions.isError ? (
          <ErrorState
            message={`${t('home.error')} ${errorMessage(apiErrorOf(subscriptions.error))}`}
            onRetry={() => {
              void subscriptions.refetch();
              if (orders.isError) void orders.refetch();
            }}
            retrying={subscriptions.isFetching}
          />
        ) : (
          <HomeSkeleton />
        )}
      </HomeFrame>
    );
  }

  const visible = orders.data ? visibleOrders(orders.data) : undefined;
  const account = data.currentAccount;
  if (!account) {
    // SPEC §2: no current account and no orders → welcome (the guard decides on start-up data;
    // this covers data that arrived after start-up).
    if (visible && visible.length === 0) return <Navigate to={ROUTES.welcome} replace />;
    return (
      <HomeFrame subscriptions={data}>
        <OnItsWay order={visible ? backupMainOrder(visible) : null} />
        <PartnerOffer />
        <PasskeyOfferSlot />
      </HomeFrame>
    );
  }

  const plan = plans.data ? findPlan(plans.data, account.planId) : null;
  const backup = visible ? backupMainOrder(visible) : null;
  const showFamily = data.isOwner && (account.type === 'family_plan' || familyAccountOf(data));
  const family = showFamily ? familyOverview(data, orders.data, plans.data) : null;

  return (
    <HomeFrame subscriptions={data} account={account} plan={plan}>
      <DataCard
        account={account}
        isOwner={data.isOwner}
        // Issue 16 item 4: offline, or when the last refresh failed, the figures are the last
        // known ones (perhaps kept on the device from an earlier visit): say how old they are.
        updatedAt={!online || subscriptions.isRefetchError ? subscriptions.dataUpdatedAt : null}
        refreshing={subscriptions.isFetching}
        onRefresh={() => subscriptions.refetch()}
      />
      {backup && <ProcessingNotice order={backup} />}
      {/* Members' package requests wait for the owner (issue 16.3, ADR 0068). */}
      {data.isOwner && (
        <Suspense fallback={null}>
          <PackageRequestInbox />
        </Suspense>
      )}
      <QuickActions />
      {family && (
        <FamilySection
          account={familyAccountOf(data)}
          members={family.members}
          processing={family.processing}
        />
      )}
      <RoamingCard
        member={account.currentMember}
        euPackageOn={account.euPackage}
        plan={plan}
        isOwner={data.isOwner}
      />
      <PartnerOffer />
      {/* After a password sign-in: a passkey for next time (ADR 0097). Last, so that nothing
          moves when it appears. */}
      <PasskeyOfferSlot />
    </HomeFrame>
  );
}

/** The header with the greeting (and the line tabs) over the screen's content. */
function HomeFrame({
  subscriptions,
  account,
  plan,
  children,
}: {
  subscriptions?: SubscriptionsResponse;
  account?: Account;
  plan?: Plan | null;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const { user } = useSession();
  const tabs = subscriptions ? customerLines(subscriptions).length > 1 : false;
  const planLabel = account ? (plan?.name ?? t(`planTypes.${account.type}`)) : null;
  // With tabs the number is on the selected tab; then the plan type says what the line is.
  const subtitle = account
    ? tabs
      ? `${t(`planTypes.${account.type}`)} · ${planLabel}`
      : `${formatPhoneNumber(account.currentMember.phoneNumber)} · ${planLabel}`
    : null;
  return (
    <main className="pb-footer min-h-dvh bg-mist-50">
      <div className="pt-safe rounded-b-[2rem] bg-linear-to-br from-ocean-900 via-ocean-800 to-ocean-600 text-white">
        <div className="px-safe flex flex-col gap-4 pt-5 pb-24">
          <div className="flex items-center justify-between">
            <AldaMark className="size-8 text-fjord-300" />
            <span className="text-caption font-semibold tracking-wide text-fjord-200 uppercase">
              {t('home.title')}
            </span>
          </div>
          <div className="flex flex-col gap-1">
            <h1 className="text-title font-bold">
              {t(`home.greeting.${dayPart()}`, { name: user?.firstname ?? '' })}
            </h1>
            {subtitle && <p className="text-body text-ocean-100 tabular-nums">{subtitle}</p>}
          </div>
          {subscriptions && <LineSwitcher subscriptions={subscriptions} />}
        </div>
      </div>
      <div className="px-safe -mt-18 flex flex-col gap-5">{children}</div>
    </main>
  );
}

/** The current line's data this month, with refresh and (owner) the way to manage it. */
function DataCard({
  account,
  isOwner,
  updatedAt,
  refreshing,
  onRefresh,
}: {
  account: Account;
  isOwner: boolean;
  /** When the figures were fetched, to show while they may be out of date; else null. */
  updatedAt: number | null;
  refreshing: boolean;
  onRefresh: () => Promise<{ isError: boolean }>;
}) {
  const { t } = useTranslation();
  const f = useFormatters();
  const toast = useToast();
  const member = account.currentMember;
  const refresh = async () => {
    const result = await onRefresh();
    if (result.isError) toast.show({ type: 'error', message: t('home.refreshFailed') });
  };
  return (
    <Card className="flex flex-col gap-4" role="region" aria-labelledby="data-title">
      <div className="flex items-center justify-between gap-3">
        <h2 id="data-title" className="text-lead font-bold text-ocean-950">
          {t('home.data.title')}
        </h2>
      </div>

      {updatedAt !== null && <UpdatedAge at={updatedAt} />}
      {member.status === 'processing' && (
        <Note icon={<ClockIcon className="size-5" />} tone="warning">
          {t('home.data.lineProcessing')}
        </Note>
      )}
      {member.controls?.dataPaused && (
        // The owner paused this number's data (issue 16.3, ADR 0068): say so where data is shown.
        <Note icon={<DataIcon className="size-5" />} tone="warning">
          <strong className="block font-semibold">{t('home.data.paused')}</strong>
          {t('home.data.pausedBody')}
        </Note>
      )}
      {member.expiresAt && (
        <Note icon={<ClockIcon className="size-5" />} tone="warning">
          {t('home.data.expires', { date: f.date(member.expiresAt) })}
        </Note>
      )}
      {member.prepaidBalance !== null && member.prepaidBalance !== undefined && (
        <div className="flex items-center justify-between gap-3 rounded-2xl bg-ocean-50 px-4 py-3">
          <span className="flex items-center gap-2 text-body font-semibold text-ocean-900">
            <WalletIcon className="size-5" />
            {t('home.data.prepaidBalance')}
          </span>
          <span className="text-lead font-bold text-ocean-950 tabular-nums">
            {f.kr(member.prepaidBalance)}
          </span>
        </div>
      )}

      <DataSummary
        member={member}
        actions={
          <button
            type="button"
            onClick={() => void refresh()}
            disabled={refreshing}
            aria-label={t('home.data.refresh')}
            className="-my-1 -mr-2 inline-flex size-11 items-center justify-center rounded-full text-fjord-700 hover:bg-fjord-50 disabled:opacity-60"
          >
            <RefreshIcon className={cx('size-5', refreshing && 'animate-spin')} />
          </button>
        }
      />

      <div className="-mx-5 -mb-5 flex flex-col divide-y divide-mist-100 border-t border-mist-100">
        {/* The number's usage history (ADR 0066): its own user and the owner may open it. */}
        <CardLink
          to={href(ROUTES.usageHistory, { id: member.id })}
          icon={<ChartIcon className="size-5 text-fjord-600" />}
          label={t('home.data.history')}
        />
        {isOwner && (
          <CardLink
            to={href(ROUTES.manageSubscription, { phoneNumber: member.phoneNumber })}
            icon={<SettingsIcon className="size-5 text-fjord-600" />}
            label={t('home.data.manage')}
          />
        )}
      </div>
    </Card>
  );
}

/** "Dagført fyri 2 tímum síðan": the age of the figures, kept up to date each minute. */
function UpdatedAge({ at }: { at: number }) {
  const { t } = useTranslation();
  // The clock as of the last minute: an age is said in whole minutes at the finest.
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 60_000);
    return () => clearInterval(timer);
  }, []);
  const age = ageOf(at, now);
  return (
    <Note icon={<ClockIcon className="size-5" />} tone="info">
      {t(`home.data.updated.${age.unit}`, { count: age.count })}
    </Note>
  );
}

/** A way on from the data card, across its foot. */
function CardLink({ to, icon, label }: { to: string; icon: ReactNode; label: string }) {
  return (
    <Link
      to={to}
      className="flex items-center gap-3 px-5 py-4 text-body font-semibold text-ocean-900 last:rounded-b-card hover:bg-mist-50"
    >
      {icon}
      <span className="flex-1">{label}</span>
      <ChevronRightIcon className="size-5 shrink-0 text-mist-400" />
    </Link>
  );
}

function Note({
  icon,
  tone,
  children,
}: {
  icon: ReactNode;
  tone: 'warning' | 'info';
  children: ReactNode;
}) {
  return (
    <p
      className={cx(
        'flex items-start gap-2 rounded-2xl px-3 py-2.5 text-caption',
        tone === 'warning' ? 'bg-warning-50 text-warning-600' : 'bg-ocean-50 text-ocean-800',
      )}
    >
      <span className="shrink-0">{icon}</span>
      <span>{children}</span>
    </p>
  );
}

/**
 * SPEC §3/§4: the main subscription still being processed (the backup order), with the step it
 * has reached; it opens the order and its steps.
 */
function ProcessingNotice({ order }: { order: Order }) {
  const { t } = useTranslation();
  const f = useFormatters();
  const step = currentProvisioningStep(order);
  return (
    <Link
      to={href(ROUTES.order, { orderId: order.id })}
      className="flex items-center gap-3 rounded-card bg-warning-50 px-4 py-3.5 text-warning-600 ring-1 ring-warning-600/15 ring-inset"
    >
      <ClockIcon className="size-6 shrink-0" />
      <span className="flex min-w-0 flex-1 flex-col">
        <span className="text-body font-semibold">{t('home.processing.title')}</span>
        <span className="text-caption">
          {t('home.processing.body', { date: f.date(order.createdAt) })}
        </span>
        {step && (
          <span className="text-caption font-semibold">
            {t('provisioning.nowAt', { step: t(`provisioning.step.${step}`) })}
          </span>
        )}
      </span>
      <ChevronRightIcon className="size-5 shrink-0" />
    </Link>
  );
}

/** A customer whose first subscription is ordered but not set up yet. */
function OnItsWay({ order }: { order: Order | null }) {
  const { t } = useTranslation();
  const nowAt = order ? currentProvisioningStep(order) : null;
  const f = useFormatters();
  return (
    <Card
      className="flex flex-col items-start gap-3"
      role="region"
      aria-labelledby="on-its-way-title"
    >
      <span className="flex size-12 items-center justify-center rounded-full bg-warning-50 text-warning-600">
        <ClockIcon />
      </span>
      <h2 id="on-its-way-title" className="text-heading font-bold text-ocean-950">
        {t('home.onItsWay.title')}
      </h2>
      <p className="text-body text-mist-600">{t('home.onItsWay.body')}</p>
      {order && (
        <p className="text-caption text-mist-500">
          {t('home.onItsWay.ordered', { date: f.date(order.createdAt) })}
        </p>
      )}
      {nowAt && (
        <p className="text-caption font-semibold text-warning-600">
          {t('provisioning.nowAt', {
            step: t(`provisioning.step.${nowAt}`),
          })}
        </p>
      )}
      <Link
        to={order ? href(ROUTES.order, { orderId: order.id }) : ROUTES.orders}
        className="text-body font-semibold text-fjord-700 underline-offset-2 hover:underline"
      >
        {t('home.onItsWay.orders')}
      </Link>
    </Card>
  );
}

function HomeSkeleton() {
  const { t } = useTranslation();
  return (
    <div aria-busy="true" aria-label={t('app.loading')} className="flex flex-col gap-5">
      <Card className="flex flex-col items-center gap-5">
        <Skeleton className="h-6 w-40 self-start" />
        <Skeleton className="size-52 rounded-full" />
        <div className="grid w-full grid-cols-2 gap-2">
          <Skeleton className="h-14 rounded-2xl" />
          <Skeleton className="h-14 rounded-2xl" />
        </div>
      </Card>
      <Card className="flex flex-col gap-3">
        <Skeleton className="h-5 w-32" />
        <Skeleton className="h-11 w-full" />
        <Skeleton className="h-11 w-full" />
      </Card>
    </div>
  );
}
