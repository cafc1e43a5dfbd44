import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { useTranslation } from '@/shared/i18n/react';
import type { PaymentMethod } from '@alda/contract/schemas/orders';
import type { PackageOffer } from '@alda/contract/schemas/packages';
import type { Member, SubscriptionsResponse } from '@alda/contract/schemas/subscriptions';
import { customerLines, familyOverview } from '@/shared/account/family';
import { DetailSkeleton, QueryError } from '@/shared/account/screen-states';
import { accountQueries, useSubscriptionsQuery } from '@/shared/api/account-queries';
import { formatPhoneNumber } from '@alda/contract/format/phone';
import { useFormatters } from '@/shared/format/use-formatters';
import { useErrorMessage } from '@/shared/i18n/use-error-message';
import { PaymentMethodPicker, useCardOnFile } from '@/shared/payments/payment-method';
import { usePurchase } from '@/shared/payments/use-purchase';
import { useAppServices } from '@/shared/services/app-services';
import { Alert } from '@/shared/ui/alert';
import { Button } from '@/shared/ui/button';
import { cx } from '@/shared/ui/cx';
import { ScreenBody, ScreenHeader } from '@/shared/ui/screen';
import { href, QUERY, ROUTES } from '@/shared/config/paths';

/** A number a package can be bought for: the customer's own lines, and an owner's family. */
interface Line {
  member: Member;
  own: boolean;
}

function linesOf(subscriptions: SubscriptionsResponse): Line[] {
  const own = customerLines(subscriptions).map((member) => ({ member, own: true }));
  const family = subscriptions.isOwner
    ? familyOverview(subscriptions, undefined, undefined).members.map((member) => ({
        member,
        own: false,
      }))
    : [];
  return [...own, ...family].filter((line) => line.member.status === 'active');
}

/** `/keyp-pakka`: buy an extra package (SPEC §1), valid until the end of the month. */
export function PackagesScreen() {
  const { t } = useTranslation();
  const { http } = useAppServices();
  const subscriptions = useSubscriptionsQuery();
  const packages = useQuery(accountQueries.packages(http));
  const failed = subscriptions.isError ? subscriptions : packages.isError ? packages : null;
  return (
    <main className="min-h-dvh bg-mist-50">
      <ScreenHeader title={t('packages.title')} back={ROUTES.home} />
      <ScreenBody>
        {subscriptions.isPending || packages.isPending ? (
          <DetailSkeleton />
        ) : failed || !subscriptions.data || !packages.data ? (
          <>
            <Alert tone="error">{t('packages.loadFailed')}</Alert>
            <QueryError
              error={failed?.error}
              onRetry={() => void failed?.refetch()}
              retrying={failed?.isFetching}
            />
          </>
        ) : (
          <PurchaseForm subscriptions={subscriptions.data} offers={packages.data} />
        )}
      </ScreenBody>
    </main>
  );
}

function PurchaseForm({
  subscriptions,
  offers,
}: {
  subscriptions: SubscriptionsResponse;
  offers: PackageOffer[];
}) {
  const { t } = useTranslation();
  const f = useFormatters();
  const errorMessage = useErrorMessage();
  const [params] = useSearchParams();
  const lines = linesOf(subscriptions);
  const current = subscriptions.currentAccount?.currentMember.phoneNumber;
  const [phoneNumber, setPhoneNumber] = useState(
    () =>
      lines.find((l) => l.member.phoneNumber === params.get(QUERY.line))?.member.phoneNumber ??
      lines.find((l) => l.member.phoneNumber === current)?.member.phoneNumber ??
      lines[0]?.member.phoneNumber ??
      null,
  );
  const [packageId, setPackageId] = useState<string | null>(
    () => offers.find((o) => o.id === params.get(QUERY.package))?.id ?? null,
  );
  const agreement = useCardOnFile();
  const [method, setMethod] = useState<PaymentMethod>('card');
  const payWith: PaymentMethod = agreement ? method : 'card';
  const { purchase, pending, error } = usePurchase();
  const [missing, setMissing] = useState(false);
  const chosen = offers.find((o) => o.id === packageId) ?? null;

  if (lines.length === 0 || !phoneNumber) return <Alert tone="info">{t('packages.noLine')}</Alert>;
  if (offers.length === 0) return <Alert tone="info">{t('packages.empty')}</Alert>;

  const buy = () => {
    if (!chosen) {
      setMissing(true);
      return;
    }
    void purchase(
      '/packages',
      { packageId: chosen.id, phoneNumber, payWith },
      {
        itemName: chosen.name,
        returnTo: href(
          ROUTES.buyPackage,
          {},
          { [QUERY.line]: phoneNumber, [QUERY.package]: chosen.id },
        ),
      },
    );
  };

  return (
    <div className="flex flex-col gap-5">
      <p className="text-body text-mist-700">{t('packages.intro')}</p>
      {lines.length > 1 && (
        <fieldset>
          <legend className="mb-2 text-body font-semibold text-ocean-950">
            {t('packages.line')}
          </legend>
          <div role="radiogroup" aria-label={t('packages.line')} className="flex flex-wrap gap-2">
            {lines.map(({ member, own }) => (
              <button
                key={member.phoneNumber}
                type="button"
                role="radio"
                aria-checked={phoneNumber === member.phoneNumber}
                onClick={() => setPhoneNumber(member.phoneNumber)}
                className={cx(
                  'flex min-h-11 flex-col items-start rounded-2xl px-4 py-2 text-left shadow-card transition-colors',
                  phoneNumber === member.phoneNumber
                    ? 'bg-ocean-900 text-white'
                    : 'bg-white text-ocean-900 hover:bg-mist-100',
                )}
              >
                <span className="text-body font-semibold tabular-nums">
                  {formatPhoneNumber(member.phoneNumber)}
                </span>
                <span className="text-caption opacity-80">
                  {own
                    ? t('packages.lineOwn')
                    : t('packages.lineMember', {
                        name: `${member.user.firstname} ${member.user.lastname}`.trim(),
                      })}
                </span>
              </button>
            ))}
          </div>
        </fieldset>
      )}
      <fieldset>
        <legend className="mb-2 text-body font-semibold text-ocean-950">
          {t('packages.choose')}
        </legend>
        <div role="radiogroup" aria-label={t('packages.choose')} className="flex flex-col gap-2">
          {offers.map((offer) => {
            const selected = offer.id === packageId;
            return (
              <button
                key={offer.id}
                type="button"
                role="radio"
                aria-checked={selected}
                onClick={() => {
                  setPackageId(offer.id);
                  setMissing(false);
                }}
                className={cx(
                  'flex flex-col gap-1 rounded-2xl px-4 py-3 text-left shadow-card ring-2 transition-colors',
                  selected
                    ? 'bg-ocean-50 ring-ocean-700'
                    : 'bg-white ring-transparent hover:bg-mist-50',
                )}
              >
                <span className="flex flex-wrap items-baseline justify-between gap-x-3">
                  <span className="text-lead font-bold text-ocean-950">{offer.name}</span>
                  <span className="text-body font-bold whitespace-nowrap text-ocean-950">
                    {f.kr(offer.price.gross)}
                  </span>
                </span>
                <span className="flex flex-wrap justify-between gap-x-3 text-caption text-mist-600">
                  <span>{t('packages.validUntil', { date: f.date(offer.validUntil) })}</span>
                  <span>
                    {t('price.breakdown', {
                      net: f.kr(offer.price.net),
                      vat: f.kr(offer.price.vat),
                    })}
                  </span>
                </span>
              </button>
            );
          })}
        </div>
        {missing && (
          <p className="mt-2 text-caption text-danger-600">{t('packages.chooseFirst')}</p>
        )}
      </fieldset>
      <PaymentMethodPicker value={payWith} onChange={setMethod} agreement={agreement} />
      {error && (
        <Alert tone="error" title={t('packages.failed')}>
          {errorMessage(error)}
        </Alert>
      )}
      <Button block onClick={buy} loading={pending}>
        {chosen ? t('packages.submit', { amount: f.kr(chosen.price.gross) }) : t('packages.choose')}
      </Button>
    </div>
  );
}
