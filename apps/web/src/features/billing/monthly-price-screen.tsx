import { formatMonth } from '@alda/contract/format/date';
import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useI18n } from '@/shared/i18n/use-i18n';
import type { Agreement } from '@alda/contract/schemas/agreements';
import type { MonthlyPriceLine, MonthlyPriceResponse } from '@alda/contract/schemas/billing';
import type { PaymentMethod } from '@alda/contract/schemas/orders';
import { VAT_PERCENT } from '@alda/contract/constants';
import { EmptyState, QueryPending } from '@/shared/account/screen-states';
import { formatPhoneNumber } from '@alda/contract/format/phone';
import { useFormatters } from '@/shared/format/use-formatters';
import { currentLocale } from '@/shared/i18n/i18n';
import { useErrorMessage } from '@/shared/i18n/use-error-message';
import { usePaymentChoice, withMobilePayMark } from '@/shared/payments/payment-method';
import { usePaymentMethods, walletOfAgreement } from '@/shared/payments/payment-methods';
import { usePurchase } from '@/shared/payments/use-purchase';
import { useAppServices } from '@/shared/services/app-services';
import { WalletIcon } from '@/shared/ui/account-icons';
import { Alert } from '@/shared/ui/alert';
import { Badge } from '@/shared/ui/badge';
import { Button } from '@/shared/ui/button';
import { Card } from '@/shared/ui/card';
import { CheckIcon, ChevronRightIcon, ReceiptIcon } from '@/shared/ui/icons';
import { useModal } from '@/shared/ui/modal/modal-context';
import { ScreenBody, ScreenHeader } from '@/shared/ui/screen';
import { billingKeys, billingQueries, PAY_MONTH_PATH } from './billing-api';
import { ROUTES } from '@/shared/config/paths';

/**
 * /menu/manadargjald: what the customer's subscriptions cost this month — a line per number and
 * per EU package, the extra lines owed once (an easy number's one-off price, a past month's
 * charges abroad: ADR 0077, 0078), the total with and without VAT (SPEC §9) — and paying it
 * through the provider (its methods — the card page, MobilePay — or the agreement on file when it
 * is active).
 */
export function MonthlyPriceScreen() {
  const { t } = useTranslation();
  const i18n = useI18n();
  const { http } = useAppServices();
  const query = useQuery(billingQueries.monthlyPrice(http, currentLocale(i18n)));
  // How to pay it is asked for with the month, not after it.
  usePaymentMethods();

  const body = () => {
    if (query.data === undefined)
      return <QueryPending query={query} failedMessage={t('billing.loadFailed')} />;
    const month = query.data;
    if (month.lines.length === 0)
      return (
        <EmptyState
          icon={<ReceiptIcon />}
          title={t('billing.emptyTitle')}
          body={t('billing.emptyBody')}
        />
      );
    return (
      <>
        <MonthCard month={month} />
        {month.paidOrderId ? (
          <Link
            to={ROUTES.receipts}
            className="flex items-center gap-3 rounded-card bg-white px-4 py-3 text-body font-medium text-mist-900 shadow-card"
          >
            <ReceiptIcon className="size-5 text-ocean-700" />
            <span className="flex-1">{t('billing.seeReceipts')}</span>
            <ChevronRightIcon className="size-5 shrink-0 text-mist-400" />
          </Link>
        ) : (
          <PayMonth month={month} />
        )}
      </>
    );
  };

  return (
    <main className="pb-footer min-h-dvh bg-mist-50">
      <ScreenHeader title={t('billing.title')} back={ROUTES.menu} />
      <ScreenBody>{body()}</ScreenBody>
    </main>
  );
}

/** `2026-11` → 'november 2026' / 'November 2026' (the contract's month names, as on receipts). */
function usePeriodLabel() {
  const i18n = useI18n();
  const locale = currentLocale(i18n);
  return (period: string) => formatMonth(period, locale);
}

/** The lines grouped by number, in the order the API sent them. */
function byNumber(lines: readonly MonthlyPriceLine[]): Array<[string, MonthlyPriceLine[]]> {
  const groups = new Map<string, MonthlyPriceLine[]>();
  for (const line of lines)
    groups.set(line.phoneNumber, [...(groups.get(line.phoneNumber) ?? []), line]);
  return [...groups];
}

function MonthCard({ month }: { month: MonthlyPriceResponse }) {
  const { t } = useTranslation();
  const f = useFormatters();
  const periodLabel = usePeriodLabel();
  return (
    <Card className="flex flex-col gap-4" role="region" aria-labelledby="month-title">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <h2 id="month-title" className="text-lead font-bold text-ocean-950 first-letter:uppercase">
          {periodLabel(month.period)}
        </h2>
        {month.paidOrderId ? (
          <Badge tone="success" icon={<CheckIcon className="size-3.5" strokeWidth={2.4} />}>
            {t('billing.paid')}
          </Badge>
        ) : (
          <Badge tone="warning">{t('billing.unpaid')}</Badge>
        )}
      </div>
      {byNumber(month.lines).map(([phoneNumber, lines]) => (
        <section
          key={phoneNumber}
          aria-label={formatPhoneNumber(phoneNumber)}
          className="flex flex-col gap-1 border-t border-mist-100 pt-3"
        >
          <h3 className="text-caption font-semibold text-mist-500">
            {formatPhoneNumber(phoneNumber)}
          </h3>
          <ul className="flex flex-col gap-1">
            {lines.map((line, index) => (
              <li
                key={`${line.kind}-${index}`}
                className="flex items-baseline justify-between gap-x-3 text-body"
              >
                {/* A long line ('Kostnaður uttanlands í oktober 2026') wraps; the amount stays. */}
                <span className="min-w-0 text-mist-900">
                  {line.description}
                  {line.kind === 'eu_package' && (
                    <span className="sr-only"> ({t('billing.euLine')})</span>
                  )}
                </span>
                <span className="shrink-0 font-medium whitespace-nowrap text-ocean-950 tabular-nums">
                  {f.kr(line.price.gross)}
                </span>
              </li>
            ))}
          </ul>
        </section>
      ))}
      <dl className="flex flex-col gap-1.5 border-t border-mist-100 pt-3 text-body">
        <div className="flex justify-between gap-3 text-mist-700">
          <dt>{t('billing.net')}</dt>
          <dd className="tabular-nums">{f.kr(month.total.net)}</dd>
        </div>
        <div className="flex justify-between gap-3 text-mist-700">
          <dt>{t('billing.vat', { rate: VAT_PERCENT })}</dt>
          <dd className="tabular-nums">{f.kr(month.total.vat)}</dd>
        </div>
        <div className="flex justify-between gap-3 pt-1 text-lead font-bold text-ocean-950">
          <dt>{t('billing.total')}</dt>
          <dd className="tabular-nums">{f.kr(month.total.gross)}</dd>
        </div>
      </dl>
    </Card>
  );
}

/**
 * "Gjald nú": with an active agreement it is charged (after a confirm, as nothing else stands
 * between the press and the charge); otherwise, or on request, one of the provider's methods in
 * its order — the card page, MobilePay. `usePurchase` keeps one Idempotency-Key per attempt.
 */
function PayMonth({ month }: { month: MonthlyPriceResponse }) {
  const { t } = useTranslation();
  const f = useFormatters();
  const modal = useModal();
  const queryClient = useQueryClient();
  const errorMessage = useErrorMessage();
  const periodLabel = usePeriodLabel();
  const payment = usePaymentChoice('monthly');
  const via = usePaymentMethods().known?.agreementVia;
  const { purchase, pending, error } = usePurchase();
  const [method, setMethod] = useState<PaymentMethod | null>(null);

  const card = payment.agreement;
  const wallet = card ? walletOfAgreement(card) : null;
  const label = card ? agreementLabel(card, t('payment.method.cardFallback')) : '';
  const amount = f.kr(month.total.gross);
  // The provider's methods (not the agreement); null while they are on their way.
  const checkout = payment.options?.filter((option) => option !== 'agreement') ?? null;

  const pay = async (choice: PaymentMethod | null) => {
    if (choice === 'agreement' && card) {
      const confirmed = await modal.confirm({
        title: t('billing.confirmTitle'),
        message:
          wallet === 'mobilepay'
            ? t('billing.confirmBodyMobilePay', { amount })
            : t('billing.confirmBody', { amount, card: label }),
        confirmLabel: t('billing.confirm'),
      });
      if (!confirmed) return;
    }
    setMethod(choice);
    // "Gjald nú" pressed before the provider's methods came: its first one, once known.
    const payWith = choice ?? (await payment.settle()).payWith;
    const failure = await purchase(
      PAY_MONTH_PATH,
      { payWith },
      {
        itemName: t('billing.itemName', { period: periodLabel(month.period) }),
        returnTo: ROUTES.monthlyPrice,
        paidWith: payWith === 'agreement' ? (wallet ?? 'card') : payWith,
      },
    );
    // Paid meanwhile (another device, or an earlier attempt went through): show the badge.
    if (failure?.code === 'ALREADY_PAID')
      void queryClient.invalidateQueries({ queryKey: billingKeys.all });
  };

  const busy = pending || payment.waiting;
  const button = (choice: PaymentMethod, primary: boolean) => (
    <Button
      key={choice}
      block
      variant={primary ? 'primary' : 'secondary'}
      loading={busy && method === choice}
      disabled={busy}
      onClick={() => void pay(choice)}
    >
      {choice === 'agreement'
        ? wallet === 'mobilepay'
          ? t('billing.payWithAgreement')
          : t('billing.payWithCardOnFile', { card: label })
        : choice === 'mobilepay'
          ? withMobilePayMark(t('billing.payWithMobilePay'))
          : card && wallet === 'card'
            ? t('billing.payWithOtherCard')
            : t('billing.payWithCard')}
    </Button>
  );

  return (
    <div className="flex flex-col gap-3">
      {error && (
        <Alert tone="error" title={t('billing.payFailed')}>
          {errorMessage(error)}
        </Alert>
      )}
      {card && button('agreement', true)}
      {card || (checkout && checkout.length > 1) ? (
        (checkout ?? []).map((choice) => button(choice, false))
      ) : (
        // One way to pay, or not known yet: one button, which waits for it when pressed.
        <Button block loading={busy} onClick={() => void pay(checkout?.[0] ?? null)}>
          {t('billing.payNow', { amount })}
        </Button>
      )}
      <Link
        to={ROUTES.agreement}
        className="flex items-center gap-3 rounded-card bg-white px-4 py-3 shadow-card"
      >
        <WalletIcon className="size-5 text-ocean-700" />
        <span className="flex min-w-0 flex-1 flex-col">
          <span className="text-body font-medium text-mist-900">{t('paymentAgreement.title')}</span>
          <span className="text-caption text-mist-500">
            {card
              ? label
              : via === 'mobilepay'
                ? t('paymentAgreement.mobilepay.emptyTitle')
                : t('billing.noCardOnFile')}
          </span>
        </span>
        <ChevronRightIcon className="size-5 shrink-0 text-mist-400" />
      </Link>
    </div>
  );
}

/**
 * 'Visa •••• 4242', kept on one line (no-break spaces around the dots); a MobilePay agreement
 * by its name alone ('MobilePay': MobilePay keeps the card).
 */
const agreementLabel = (agreement: Agreement, fallback: string) =>
  agreement.cardLast4
    ? `${agreement.cardBrand ?? ''}\u00a0••••\u00a0${agreement.cardLast4}`.trim()
    : (agreement.cardBrand ?? fallback);
