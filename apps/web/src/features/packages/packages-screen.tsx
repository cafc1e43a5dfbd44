import { useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { purchaseNeedsApproval } from '@alda/contract/rules/controls';
import { NO_LINE_CONTROLS, type PackageRequest } from '@alda/contract/schemas/controls';
import type { PackageOffer } from '@alda/contract/schemas/packages';
import type { Member, SubscriptionsResponse } from '@alda/contract/schemas/subscriptions';
import { customerLines, familyOverview } from '@/shared/account/family';
import { DetailSkeleton, QueryError } from '@/shared/account/screen-states';
import type { ApiError } from '@/shared/api/http';
import { accountQueries, useSubscriptionsQuery } from '@/shared/api/account-queries';
import {
  controlsApi,
  packageRequestKeys,
  usePackageRequestsQuery,
} from '@/shared/api/package-requests';
import { formatPhoneNumber } from '@alda/contract/format/phone';
import { useFormatters } from '@/shared/format/use-formatters';
import { useErrorMessage } from '@/shared/i18n/use-error-message';
import { PaymentMethodPicker, usePaymentChoice } from '@/shared/payments/payment-method';
import { usePurchase } from '@/shared/payments/use-purchase';
import { useAppServices } from '@/shared/services/app-services';
import { useToast } from '@/shared/ui/toast/toast-context';
import { Alert } from '@/shared/ui/alert';
import { Button, ButtonLink } from '@/shared/ui/button';
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

/**
 * `/keyp-pakka`: buy an extra package (SPEC §1), valid until the end of the month. With
 * `?umbon=<id>` the owner approves a member's package request by buying it here (issue 16.3,
 * ADR 0068); on a number whose owner requires approval, the member sends a request instead.
 */
export function PackagesScreen() {
  const { t } = useTranslation();
  const { http } = useAppServices();
  const [params] = useSearchParams();
  const approving = params.get(QUERY.request);
  const subscriptions = useSubscriptionsQuery();
  const packages = useQuery(accountQueries.packages(http));
  const requests = usePackageRequestsQuery();
  const failed = subscriptions.isError
    ? subscriptions
    : packages.isError
      ? packages
      : approving && requests.isError
        ? requests
        : null;
  return (
    <main className="min-h-dvh bg-mist-50">
      <ScreenHeader
        title={approving ? t('packages.approve.title') : t('packages.title')}
        back={ROUTES.home}
      />
      <ScreenBody>
        {subscriptions.isPending || packages.isPending || (approving && requests.isPending) ? (
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
        ) : approving ? (
          <ApproveRequest
            request={requests.data?.find(
              (r) => r.id === approving && r.isApprover && r.status === 'pending',
            )}
          />
        ) : (
          <>
            <PendingRequests requests={(requests.data ?? []).filter((r) => !r.isApprover)} />
            <PurchaseForm subscriptions={subscriptions.data} offers={packages.data} />
          </>
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
  const payment = usePaymentChoice();
  const { purchase, pending, error } = usePurchase();
  const ask = useAsk();
  const [missing, setMissing] = useState(false);
  const chosen = offers.find((o) => o.id === packageId) ?? null;
  const line = lines.find((l) => l.member.phoneNumber === phoneNumber);
  // The server only lets an owner switch approval on for a member's number, so approval on a
  // number of the customer's own means a member buying: it becomes a request (ADR 0068).
  const needsApproval = line
    ? purchaseNeedsApproval(line.member.controls ?? NO_LINE_CONTROLS, !line.own)
    : false;

  if (lines.length === 0 || !phoneNumber) return <Alert tone="info">{t('packages.noLine')}</Alert>;
  if (offers.length === 0) return <Alert tone="info">{t('packages.empty')}</Alert>;

  const buy = () => {
    if (!chosen) {
      setMissing(true);
      return;
    }
    if (needsApproval) {
      void ask.send({ packageId: chosen.id, phoneNumber });
      return;
    }
    void payment.settle().then(({ payWith, paidWith }) =>
      purchase(
        '/packages',
        { packageId: chosen.id, phoneNumber, payWith },
        {
          itemName: chosen.name,
          paidWith,
          returnTo: href(
            ROUTES.buyPackage,
            {},
            { [QUERY.line]: phoneNumber, [QUERY.package]: chosen.id },
          ),
        },
      ),
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
      {needsApproval ? (
        <Alert tone="info" title={t('packages.approval.notice')}>
          {t('packages.approval.next')}
        </Alert>
      ) : (
        <PaymentMethodPicker choice={payment} />
      )}
      {error && !needsApproval && (
        <Alert tone="error" title={t('packages.failed')}>
          {errorMessage(error)}
        </Alert>
      )}
      {ask.error && needsApproval && (
        <Alert tone="error" title={t('packages.approval.failed')}>
          {errorMessage(ask.error)}
        </Alert>
      )}
      <Button
        block
        onClick={buy}
        loading={needsApproval ? ask.pending : pending || payment.waiting}
      >
        {!chosen
          ? t('packages.choose')
          : needsApproval
            ? t('packages.approval.submit')
            : t('packages.submit', { amount: f.kr(chosen.price.gross) })}
      </Button>
    </div>
  );
}

/**
 * The member's ask (POST /package-requests): one Idempotency-Key per attempt, so a double tap
 * or a retry after a lost answer asks once; an answered refusal ends the attempt.
 */
function useAsk() {
  const { t } = useTranslation();
  const { http } = useAppServices();
  const toast = useToast();
  const queryClient = useQueryClient();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const key = useRef<string | null>(null);
  // A second tap while the first is on its way shares it (state would only say so next render).
  const inFlight = useRef<Promise<void> | null>(null);
  const attempt = async (body: { packageId: string; phoneNumber: string }) => {
    key.current ??= crypto.randomUUID();
    setPending(true);
    setError(null);
    const result = await controlsApi.ask(http, body, key.current);
    // No answer (status 0): the request may have arrived, so a retry keeps the key.
    if (result.ok || result.error.status !== 0) key.current = null;
    await queryClient.invalidateQueries({ queryKey: packageRequestKeys.all });
    setPending(false);
    if (!result.ok) {
      setError(result.error);
      return;
    }
    toast.show({ type: 'info', message: t('packages.approval.sent') });
  };
  const send = (body: { packageId: string; phoneNumber: string }) => {
    inFlight.current ??= attempt(body).finally(() => {
      inFlight.current = null;
    });
    return inFlight.current;
  };
  return { send, pending, error };
}

/** The member's requests waiting for the owner, each with what happens next and a withdraw. */
function PendingRequests({ requests }: { requests: PackageRequest[] }) {
  const { t } = useTranslation();
  const f = useFormatters();
  const { http } = useAppServices();
  const toast = useToast();
  const errorMessage = useErrorMessage();
  const queryClient = useQueryClient();
  const [withdrawing, setWithdrawing] = useState<string | null>(null);
  if (requests.length === 0) return null;

  const withdraw = async (id: string) => {
    setWithdrawing(id);
    const result = await controlsApi.remove(http, id);
    await queryClient.invalidateQueries({ queryKey: packageRequestKeys.all });
    setWithdrawing(null);
    toast.show(
      result.ok
        ? { type: 'info', message: t('packages.pending.withdrawn') }
        : {
            type: 'error',
            message: `${t('packages.pending.withdrawFailed')} ${errorMessage(result.error)}`,
          },
    );
  };

  return (
    <section
      aria-labelledby="pending-requests-title"
      className="mb-5 flex flex-col gap-3 rounded-card bg-warning-50 p-4 text-warning-600"
    >
      <h2 id="pending-requests-title" className="text-body font-bold">
        {t('packages.pending.title')}
      </h2>
      <ul className="flex flex-col gap-3">
        {requests.map((request) => (
          <li key={request.id} className="flex flex-col gap-2">
            <span className="text-body font-semibold">
              {t('packages.pending.item', {
                package: request.package.name,
                number: formatPhoneNumber(request.phoneNumber),
                date: f.date(request.createdAt),
              })}
            </span>
            <span className="text-caption">
              {request.orderId ? t('packages.pending.paying') : t('packages.pending.next')}
            </span>
            {!request.orderId && (
              <Button
                size="md"
                variant="secondary"
                className="self-start"
                loading={withdrawing === request.id}
                disabled={withdrawing !== null}
                onClick={() => void withdraw(request.id)}
              >
                {t('packages.pending.withdraw')}
              </Button>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * The owner approves a member's request: the number and package are the request's; the owner
 * picks how to pay and goes through the normal payment flow (card page, MobilePay or the
 * agreement on file, then
 * `/betaling/:orderId`). The request turns approved when the payment is paid (ADR 0068).
 */
function ApproveRequest({ request }: { request: PackageRequest | undefined }) {
  const { t } = useTranslation();
  const f = useFormatters();
  const errorMessage = useErrorMessage();
  const payment = usePaymentChoice();
  const { purchase, pending, error } = usePurchase();
  if (!request)
    return (
      <div className="flex flex-col gap-4">
        <Alert tone="info">{t('packages.approve.gone')}</Alert>
        <ButtonLink to={ROUTES.home} variant="secondary" block>
          {t('nav.home')}
        </ButtonLink>
      </div>
    );
  const name = `${request.requester.firstname} ${request.requester.lastname}`.trim();
  const approve = () =>
    void payment.settle().then(({ payWith, paidWith }) =>
      purchase(
        `/package-requests/${encodeURIComponent(request.id)}/approve`,
        { payWith },
        {
          itemName: request.package.name,
          paidWith,
          returnTo: href(
            ROUTES.buyPackage,
            {},
            {
              [QUERY.line]: request.phoneNumber,
              [QUERY.package]: request.package.id,
              [QUERY.request]: request.id,
            },
          ),
        },
      ),
    );
  return (
    <div className="flex flex-col gap-5">
      <p className="text-body text-mist-700">
        {t('packages.approve.intro', {
          name,
          package: request.package.name,
          number: formatPhoneNumber(request.phoneNumber),
        })}
      </p>
      <div className="flex flex-col gap-1 rounded-2xl bg-white px-4 py-3 shadow-card">
        <span className="flex items-baseline justify-between gap-3">
          <span className="text-lead font-bold text-ocean-950">{request.package.name}</span>
          <span className="text-body font-bold whitespace-nowrap text-ocean-950">
            {f.kr(request.package.price.gross)}
          </span>
        </span>
        <span className="text-caption text-mist-600">
          {t('price.breakdown', {
            net: f.kr(request.package.price.net),
            vat: f.kr(request.package.price.vat),
          })}
        </span>
      </div>
      <PaymentMethodPicker choice={payment} />
      {error && (
        <Alert tone="error" title={t('packages.failed')}>
          {errorMessage(error)}
        </Alert>
      )}
      <Button block onClick={approve} loading={pending || payment.waiting}>
        {t('packages.approve.submit', { amount: f.kr(request.package.price.gross) })}
      </Button>
    </div>
  );
}
