import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { Member, SubscriptionsResponse } from '@alda/contract/schemas/subscriptions';
import { topUpOptionsResponse, type TopUpOptionsResponse } from '@alda/contract/schemas/top-ups';
import { customerLines, familyOverview } from '@/shared/account/family';
import { DetailSkeleton, QueryError } from '@/shared/account/screen-states';
import { accountKeys } from '@/shared/api/account-data';
import { useSubscriptionsQuery } from '@/shared/api/account-queries';
import { unwrap } from '@/shared/api/http';
import { formatPhoneNumber } from '@alda/contract/format/phone';
import { useFormatters } from '@/shared/format/use-formatters';
import { useErrorMessage } from '@/shared/i18n/use-error-message';
import { PaymentMethodPicker, usePaymentChoice } from '@/shared/payments/payment-method';
import { usePurchase } from '@/shared/payments/use-purchase';
import { useAppServices } from '@/shared/services/app-services';
import { Alert } from '@/shared/ui/alert';
import { Button } from '@/shared/ui/button';
import { cx } from '@/shared/ui/cx';
import { ScreenBody, ScreenHeader } from '@/shared/ui/screen';
import { href, QUERY, ROUTES } from '@/shared/config/paths';

export const topUpKeys = {
  options: [...accountKeys.all, 'top-up-options'] as const,
};

function useTopUpOptionsQuery() {
  const { http } = useAppServices();
  return useQuery({
    queryKey: topUpKeys.options,
    queryFn: async ({ signal }) =>
      unwrap(await http.get('/top-ups/options', topUpOptionsResponse, { signal })),
  });
}

/** Prepaid (talutíð) numbers the customer may top up: their own, and an owner's family's. */
export function prepaidLines(subscriptions: SubscriptionsResponse): Member[] {
  const family = subscriptions.isOwner
    ? familyOverview(subscriptions, undefined, undefined).members
    : [];
  return [...customerLines(subscriptions), ...family].filter(
    (m) => m.prepaidBalance !== null && m.prepaidBalance !== undefined && m.status !== 'cancelled',
  );
}

/** `/fyll-uppa`: top up a prepaid line (SPEC §1 "top up"). */
export function TopUpScreen() {
  const { t } = useTranslation();
  const subscriptions = useSubscriptionsQuery();
  const options = useTopUpOptionsQuery();
  const failed = subscriptions.isError ? subscriptions : options.isError ? options : null;
  return (
    <main className="min-h-dvh bg-mist-50">
      <ScreenHeader title={t('topUp.title')} back={ROUTES.home} />
      <ScreenBody>
        {subscriptions.isPending || options.isPending ? (
          <DetailSkeleton />
        ) : failed || !subscriptions.data || !options.data ? (
          <>
            <Alert tone="error">{t('topUp.loadFailed')}</Alert>
            <QueryError
              error={failed?.error}
              onRetry={() => void failed?.refetch()}
              retrying={failed?.isFetching}
            />
          </>
        ) : (
          <TopUpForm subscriptions={subscriptions.data} options={options.data} />
        )}
      </ScreenBody>
    </main>
  );
}

function TopUpForm({
  subscriptions,
  options,
}: {
  subscriptions: SubscriptionsResponse;
  options: TopUpOptionsResponse;
}) {
  const { t } = useTranslation();
  const f = useFormatters();
  const errorMessage = useErrorMessage();
  const [params] = useSearchParams();
  const lines = prepaidLines(subscriptions);
  const current = subscriptions.currentAccount?.currentMember.phoneNumber;
  const [phoneNumber, setPhoneNumber] = useState(
    () =>
      lines.find((m) => m.phoneNumber === params.get(QUERY.line))?.phoneNumber ??
      lines.find((m) => m.phoneNumber === current)?.phoneNumber ??
      lines[0]?.phoneNumber ??
      null,
  );
  const [amount, setAmount] = useState<number | null>(() => {
    const asked = Number(params.get(QUERY.amount));
    return options.amounts.includes(asked) ? asked : null;
  });
  const [missing, setMissing] = useState(false);
  const payment = usePaymentChoice();
  const { purchase, pending, error } = usePurchase();

  const line = lines.find((m) => m.phoneNumber === phoneNumber);
  if (!line || !phoneNumber) return <Alert tone="info">{t('topUp.notPrepaid')}</Alert>;

  const pay = () => {
    if (amount === null) {
      setMissing(true);
      return;
    }
    void payment.settle().then(({ payWith, paidWith }) =>
      purchase(
        '/top-ups',
        { phoneNumber, amount, payWith },
        {
          itemName: f.kr(amount),
          paidWith,
          returnTo: href(
            ROUTES.topUp,
            {},
            { [QUERY.line]: phoneNumber, [QUERY.amount]: String(amount) },
          ),
        },
      ),
    );
  };

  return (
    <div className="flex flex-col gap-5">
      <p className="text-body text-mist-700">{t('topUp.intro')}</p>
      {lines.length > 1 ? (
        <fieldset>
          <legend className="mb-2 text-body font-semibold text-ocean-950">{t('topUp.line')}</legend>
          <div role="radiogroup" aria-label={t('topUp.line')} className="flex flex-wrap gap-2">
            {lines.map((m) => (
              <button
                key={m.phoneNumber}
                type="button"
                role="radio"
                aria-checked={m.phoneNumber === phoneNumber}
                onClick={() => setPhoneNumber(m.phoneNumber)}
                className={cx(
                  'min-h-11 rounded-full px-4 text-body font-semibold tabular-nums shadow-card transition-colors',
                  m.phoneNumber === phoneNumber
                    ? 'bg-ocean-900 text-white'
                    : 'bg-white text-ocean-900 hover:bg-mist-100',
                )}
              >
                {formatPhoneNumber(m.phoneNumber)}
              </button>
            ))}
          </div>
        </fieldset>
      ) : null}
      <dl className="flex items-center justify-between gap-3 rounded-card bg-white px-5 py-4 shadow-card">
        <dt className="flex flex-col text-caption text-mist-600">
          <span className="font-semibold text-ocean-950">{t('topUp.balance')}</span>
          <span className="tabular-nums">{formatPhoneNumber(line.phoneNumber)}</span>
        </dt>
        <dd className="text-title font-bold text-ocean-950 tabular-nums">
          {f.kr(line.prepaidBalance ?? 0)}
        </dd>
      </dl>
      <fieldset>
        <legend className="mb-2 text-body font-semibold text-ocean-950">{t('topUp.amount')}</legend>
        <div role="radiogroup" aria-label={t('topUp.amount')} className="grid grid-cols-3 gap-2">
          {options.amounts.map((value) => (
            <button
              key={value}
              type="button"
              role="radio"
              aria-checked={amount === value}
              onClick={() => {
                setAmount(value);
                setMissing(false);
              }}
              className={cx(
                'rounded-2xl px-2 py-3 text-body font-semibold whitespace-nowrap shadow-card transition-colors',
                amount === value
                  ? 'bg-ocean-900 text-white'
                  : 'bg-white text-ocean-900 hover:bg-mist-100',
              )}
            >
              {f.kr(value, { decimals: 'auto' })}
            </button>
          ))}
        </div>
        {missing && <p className="mt-2 text-caption text-danger-600">{t('topUp.chooseFirst')}</p>}
      </fieldset>
      <PaymentMethodPicker choice={payment} />
      {error && (
        <Alert tone="error" title={t('topUp.failed')}>
          {errorMessage(error)}
        </Alert>
      )}
      <Button block onClick={pay} loading={pending || payment.waiting}>
        {amount !== null ? t('topUp.submit', { amount: f.kr(amount) }) : t('topUp.amount')}
      </Button>
    </div>
  );
}
