import { useEffect, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { Order } from '@alda/contract/schemas/orders';
import { accountQueries } from '@/shared/api/account-queries';
import { apiErrorOf } from '@/shared/api/query-error';
import { useFormatters, type Formatters } from '@/shared/format/use-formatters';
import { useErrorMessage } from '@/shared/i18n/use-error-message';
import { closeInAppBrowser } from '@/shared/native/browser';
import { safeAppPath } from '@/shared/config/safe-app-path';
import { recallPayment, type PaymentMemo } from '@/shared/payments/payment-memo';
import { usePaymentMethods } from '@/shared/payments/payment-methods';
import type { HubState } from '@/shared/payments/payment-watch';
import { usePurchase } from '@/shared/payments/use-purchase';
import { useAppServices } from '@/shared/services/app-services';
import { WriteToUsLink } from '@/shared/support/write-to-us-link';
import { Alert } from '@/shared/ui/alert';
import { Button, ButtonLink } from '@/shared/ui/button';
import { cx } from '@/shared/ui/cx';
import { CheckIcon, ErrorIcon, RefreshIcon } from '@/shared/ui/icons';
import { ScreenBody, ScreenHeader } from '@/shared/ui/screen';
import { Skeleton } from '@/shared/ui/skeleton';
import { Spinner } from '@/shared/ui/spinner';
import { usePaymentStatus, type PaymentPhase } from './use-payment-status';
import { formatPhoneNumber } from '@alda/contract/format/phone';
import { ROUTES } from '@/shared/config/paths';

/** `/betaling/:orderId`: the live status of a payment (SPEC §4 "Payment flow"). */
export function PaymentStatusScreen() {
  const { orderId = '' } = useParams();
  const { t } = useTranslation();
  return (
    <main className="min-h-dvh bg-mist-50">
      <ScreenHeader title={t('payment.title')} back={ROUTES.home} />
      <ScreenBody>
        <PaymentStatus key={orderId} orderId={orderId} />
      </ScreenBody>
    </main>
  );
}

function PaymentStatus({ orderId }: { orderId: string }) {
  const { t } = useTranslation();
  const errorMessage = useErrorMessage();
  const { query, order, phase, hubState, slow } = usePaymentStatus(orderId);
  const memo = recallPayment(orderId);
  const itemName = useItemName(order, memo);
  // Native: the card page is open in the in-app browser over this screen; once the payment has
  // settled it is closed, so the customer sees the outcome (ADR 0054).
  const settled = phase !== null && phase !== 'pending';
  useEffect(() => {
    if (settled) void closeInAppBrowser();
  }, [settled]);

  let content: ReactNode;
  if (query.isPending) {
    content = (
      <div aria-busy="true" aria-label={t('app.loading')} className="flex flex-col gap-4">
        <Skeleton className="h-56 rounded-card" />
        <Skeleton className="h-13 rounded-control" />
      </div>
    );
  } else if (!order || !phase) {
    const error = apiErrorOf(query.error);
    content = (
      <StatusCard tone="error" title={t('payment.unknown.title')}>
        <p>{error.status === 404 ? t('payment.unknown.body') : errorMessage(error)}</p>
        <div className="flex flex-col gap-3 pt-2">
          {error.status !== 404 && (
            <Button
              variant="secondary"
              block
              onClick={() => void query.refetch()}
              loading={query.isFetching}
              icon={<RefreshIcon className="size-5" />}
            >
              {t('common.retry')}
            </Button>
          )}
          <ButtonLink to={ROUTES.home} block>
            {t('payment.home')}
          </ButtonLink>
        </div>
      </StatusCard>
    );
  } else {
    content = (
      <Outcome
        order={order}
        phase={phase}
        memo={memo}
        itemName={itemName}
        hubState={hubState}
        slow={slow}
        checkingAgain={query.isFetching}
      />
    );
  }
  // One polite live region for the status: a new state replaces the content, which is read out
  // (SPEC §4 live status); the connection indicator inside is left out of the announcements.
  return (
    <>
      <section aria-live="polite" className="flex flex-col gap-5">
        {content}
      </section>
      {/* The customer knows no payment id: the desk finds the payment from its order. */}
      {order && (
        <WriteToUsLink item={{ type: 'order', id: order.id, reference: order.phoneNumber }} />
      )}
    </>
  );
}

/**
 * Whose words the screen uses: the card's ("the card was declined") when the customer paid by
 * card, MobilePay's when with MobilePay (the wallet or a MobilePay agreement), else neutral ones
 * ("the payment was declined"). The purchase screen remembers it (`paidWith`); without that memo
 * (the page came back in another tab, the app was restarted) a provider that only takes cards
 * means a card.
 */
type Words = 'card' | 'mobilepay' | 'other';

function useWords(memo: PaymentMemo | null): Words {
  const provider = usePaymentMethods().known;
  if (memo?.paidWith) return memo.paidWith;
  const cardsOnly =
    !provider || (provider.agreementVia === 'card' && provider.methods.every((m) => m === 'card'));
  return cardsOnly ? 'card' : 'other';
}

function Outcome({
  order,
  phase,
  memo,
  itemName,
  hubState,
  slow,
  checkingAgain,
}: {
  order: Order;
  phase: PaymentPhase;
  memo: PaymentMemo | null;
  itemName: string | undefined;
  hubState: HubState;
  slow: boolean;
  checkingAgain: boolean;
}) {
  const { t } = useTranslation();
  const f = useFormatters();
  const words = useWords(memo);
  const amount = order.price ? f.kr(order.price.gross) : null;

  if (phase === 'pending') {
    // A MobilePay agreement is charged days later (the monthly payment): say so, not "seconds".
    const later = words === 'mobilepay' && memo?.retry?.body.payWith === 'agreement';
    return (
      <StatusCard
        tone="pending"
        title={
          words === 'card' ? t('payment.pending.title') : t(`paymentVia.${words}.pendingTitle`)
        }
      >
        <p>{later ? t('paymentVia.mobilepay.pendingLater') : t('payment.pending.body')}</p>
        {amount && <p className="font-semibold text-ocean-950">{amount}</p>}
        <LiveIndicator state={hubState} checking={checkingAgain} />
        {slow && (
          <div className="flex flex-col gap-3 pt-2">
            <p className="rounded-2xl bg-warning-50 px-4 py-3 text-left text-warning-600">
              {t('payment.slow')}
            </p>
            <ButtonLink to={ROUTES.home} variant="secondary" block>
              {t('payment.home')}
            </ButtonLink>
          </div>
        )}
      </StatusCard>
    );
  }

  if (phase === 'paid') {
    // A flow that sent the customer here to pay first (the sign-up registering the card on file)
    // carries on where it was; only a path of our own route table is followed.
    const continueTo = safeAppPath(memo?.continueTo);
    return (
      <>
        <StatusCard tone="success" title={t('payment.paid.title')}>
          <p className="text-lead font-semibold text-ocean-950">
            {paidMessage(order, itemName, words, f.kr, t)}
          </p>
          {amount && order.price && order.price.gross > 0 && (
            <p className="text-caption text-mist-600">
              {t(words === 'card' ? 'payment.paid.charged' : `paymentVia.${words}.charged`, {
                amount,
                net: f.kr(order.price.net),
                vat: f.kr(order.price.vat),
              })}
            </p>
          )}
        </StatusCard>
        <div className="flex flex-col gap-3">
          {continueTo && (
            <ButtonLink to={continueTo} replace block>
              {t('payment.paid.continue')}
            </ButtonLink>
          )}
          <ButtonLink to={ROUTES.home} variant={continueTo ? 'secondary' : 'primary'} block>
            {t('payment.home')}
          </ButtonLink>
          {!continueTo && memo?.returnTo && isSettingsKind(order.kind) && (
            <ButtonLink to={memo.returnTo} variant="secondary" block>
              {t('common.back')}
            </ButtonLink>
          )}
        </div>
      </>
    );
  }

  return <Declined order={order} phase={phase} memo={memo} words={words} />;
}

/** Orders that change a setting (the card on file, a month paid) have a screen to go back to. */
const isSettingsKind = (kind: Order['kind']) =>
  kind === 'payment_agreement' || kind === 'subscription_payment' || kind === 'eu_package';

/**
 * The name of the package an order bought: remembered from the purchase screen, or — after the
 * card page came back in another tab or the app was restarted — looked up in GET /packages.
 */
function useItemName(
  order: Order | null | undefined,
  memo: PaymentMemo | null,
): string | undefined {
  const { http } = useAppServices();
  const lookUp = order?.kind === 'extra_package' && !memo?.itemName && Boolean(order.packageId);
  const packages = useQuery({ ...accountQueries.packages(http), enabled: lookUp });
  if (memo?.itemName) return memo.itemName;
  return packages.data?.find((offer) => offer.id === order?.packageId)?.name;
}

function paidMessage(
  order: Order,
  itemName: string | undefined,
  words: Words,
  kr: Formatters['kr'],
  t: TFunction,
): string {
  const number = formatPhoneNumber(order.phoneNumber ?? '');
  switch (order.kind) {
    case 'extra_package':
      return itemName
        ? t('payment.paid.package', { name: itemName, number })
        : t('payment.paid.packageGeneric', { number });
    case 'top_up':
      return order.price
        ? t('payment.paid.topUp', { amount: kr(order.price.gross, { decimals: 'auto' }), number })
        : t('payment.paid.generic');
    case 'payment_agreement':
      return words === 'card'
        ? t('payment.paid.agreement')
        : t(`paymentVia.${words}.paidAgreement`);
    case 'subscription_payment':
      return t('payment.paid.month');
    default:
      return t('payment.paid.generic');
  }
}

/** The purchase screen of an order kind, for "try again" when the order cannot be placed again. */
function purchaseScreenOf(order: Order, memo: PaymentMemo | null): string {
  if (memo?.returnTo) return memo.returnTo;
  if (order.kind === 'extra_package') return ROUTES.buyPackage;
  if (order.kind === 'top_up') return ROUTES.topUp;
  return ROUTES.home;
}

function Declined({
  order,
  phase,
  memo,
  words,
}: {
  order: Order;
  phase: 'failed' | 'cancelled';
  memo: PaymentMemo | null;
  words: Words;
}) {
  const { t } = useTranslation();
  const errorMessage = useErrorMessage();
  const { purchase, pending, error } = usePurchase();
  const retry = memo?.retry;
  const tryLabel =
    words === 'card' ? t('payment.tryAnotherCard') : t(`paymentVia.${words}.tryAgain`);

  const tryAgain = () => {
    if (!retry) return;
    // A new attempt, so a new Idempotency-Key, paid the way the customer chose (the card page or
    // MobilePay); a declined agreement on file is retried by its own kind's checkout.
    const payWith =
      retry.body.payWith === 'agreement' ? (memo?.paidWith ?? 'card') : retry.body.payWith;
    const body = 'payWith' in retry.body ? { ...retry.body, payWith } : retry.body;
    void purchase(retry.path, body, { ...memo, retry: { path: retry.path, body } });
  };

  return (
    <>
      <StatusCard
        tone="error"
        title={
          phase === 'failed' && words !== 'card'
            ? t(`paymentVia.${words}.failedTitle`)
            : t(`payment.${phase}.title`)
        }
      >
        <p>
          {words === 'card' ? t(`payment.${phase}.body`) : t(`paymentVia.${words}.${phase}Body`)}
        </p>
      </StatusCard>
      {error && <Alert tone="error">{errorMessage(error)}</Alert>}
      <div className="flex flex-col gap-3">
        {retry ? (
          <Button block onClick={tryAgain} loading={pending}>
            {tryLabel}
          </Button>
        ) : (
          <ButtonLink to={purchaseScreenOf(order, memo)} block>
            {tryLabel}
          </ButtonLink>
        )}
        <ButtonLink to={ROUTES.home} variant="secondary" block>
          {t('payment.home')}
        </ButtonLink>
      </div>
    </>
  );
}

function StatusCard({
  tone,
  title,
  children,
}: {
  tone: 'pending' | 'success' | 'error';
  title: string;
  children: ReactNode;
}) {
  return (
    <div className="flex flex-col items-center gap-3 rounded-card bg-white px-6 py-8 text-center text-body text-mist-700 shadow-card">
      <span
        className={cx(
          'flex size-16 items-center justify-center rounded-full',
          tone === 'pending' && 'bg-ocean-50 text-ocean-700',
          tone === 'success' && 'bg-success-50 text-success-600',
          tone === 'error' && 'bg-danger-50 text-danger-600',
        )}
      >
        {tone === 'pending' && <Spinner className="size-8" />}
        {tone === 'success' && <CheckIcon className="size-8" strokeWidth={2.4} />}
        {tone === 'error' && <ErrorIcon className="size-8" />}
      </span>
      <h2 className="text-title font-bold text-ocean-950">{title}</h2>
      {children}
    </div>
  );
}

/** Whether the app hears about the payment live (the hub) or checks by itself every few seconds. */
function LiveIndicator({ state, checking }: { state: HubState; checking: boolean }) {
  const { t } = useTranslation();
  const live = state === 'Connected';
  const label =
    state === 'Connected'
      ? t('payment.live.connected')
      : state === 'Connecting'
        ? t('payment.live.connecting')
        : state === 'Reconnecting'
          ? t('payment.live.reconnecting')
          : t('payment.live.polling');
  return (
    <p
      aria-live="off"
      className="inline-flex items-center gap-2 rounded-full bg-mist-100 px-3 py-1 text-caption text-mist-700"
      data-hub-state={state}
      data-checking={checking || undefined}
    >
      <span
        aria-hidden="true"
        className={cx(
          'size-2 shrink-0 rounded-full',
          live ? 'animate-pulse bg-success-600' : 'bg-warning-600',
        )}
      />
      {label}
    </p>
  );
}
