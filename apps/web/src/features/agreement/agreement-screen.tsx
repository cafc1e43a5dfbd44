import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  endAgreementResponse,
  type Agreement,
  type AgreementResponse,
  type AgreementStatus,
} from '@alda/contract/schemas/agreements';
import type { CheckoutMethod } from '@alda/contract/schemas/orders';
import { EmptyState, QueryPending } from '@/shared/account/screen-states';
import { accountKeys } from '@/shared/api/account-data';
import { useAgreementQuery } from '@/shared/api/account-queries';
import { ApiRequestError } from '@/shared/api/http';
import { apiErrorOf } from '@/shared/api/query-error';
import { useErrorMessage } from '@/shared/i18n/use-error-message';
import { withMobilePayMark } from '@/shared/payments/payment-method';
import {
  usePaymentMethods,
  walletOfAgreement,
  type Wallet,
} from '@/shared/payments/payment-methods';
import { usePurchase } from '@/shared/payments/use-purchase';
import { useAppServices } from '@/shared/services/app-services';
import { WalletIcon } from '@/shared/ui/account-icons';
import { Alert } from '@/shared/ui/alert';
import { Badge, type BadgeTone } from '@/shared/ui/badge';
import { Button } from '@/shared/ui/button';
import { Card } from '@/shared/ui/card';
import { useModal } from '@/shared/ui/modal/modal-context';
import { ScreenBody, ScreenHeader } from '@/shared/ui/screen';
import { Skeleton } from '@/shared/ui/skeleton';
import { useToast } from '@/shared/ui/toast/toast-context';
import { ROUTES } from '@/shared/config/paths';

const STATUS_TONE: Record<AgreementStatus, BadgeTone> = {
  active: 'success',
  pending: 'warning',
  expired: 'danger',
  cancelled: 'neutral',
};

/** The texts of a wallet's agreement: the card's (`paymentAgreement.*`) or MobilePay's. */
const wordsOf = (wallet: Wallet) =>
  wallet === 'mobilepay' ? 'paymentAgreement.mobilepay' : 'paymentAgreement';

/**
 * /min-brukari/gjaldsavtala (SPEC §2 profile.agreement, no footer): the payment agreement on
 * file — a card (brand, last four digits, expiry) or MobilePay, and its status — or why to have
 * one. Registering or changing it places a card check or a MobilePay agreement (POST
 * /agreements, as the provider says: `agreementVia`) that the customer completes on the
 * provider's page or in MobilePay; the payment status screen then says whether it is in place.
 * An active or pending agreement can be ended (DELETE /agreements).
 */
export function AgreementScreen() {
  const { t } = useTranslation();
  const agreement = useAgreementQuery();
  const via = usePaymentMethods().known?.agreementVia ?? null;
  const loading = (
    <div aria-busy="true" aria-label={t('app.loading')} className="flex flex-col gap-4">
      <Skeleton className="h-44 rounded-card" />
      <Skeleton className="h-13 rounded-control" />
    </div>
  );

  const body = () => {
    if (agreement.data === undefined)
      return (
        <QueryPending
          query={agreement}
          failedMessage={t('paymentAgreement.loadFailed')}
          loading={loading}
        />
      );
    // The words and the button depend on how the provider makes agreements: wait for it.
    if (via === null) return loading;
    const current = agreement.data;
    // A cancelled agreement no longer pays anything: the screen is the one for "no agreement".
    const onFile = current && current.status !== 'cancelled' ? current : null;
    const wallet = onFile ? walletOfAgreement(onFile, via) : via;
    return (
      <>
        {onFile ? (
          <AgreementOnFile agreement={onFile} wallet={wallet} />
        ) : (
          <EmptyState
            icon={<WalletIcon />}
            title={t(`${wordsOf(wallet)}.emptyTitle`)}
            body={t(`${wordsOf(wallet)}.emptyBody`)}
          />
        )}
        <RegisterAgreement via={via} onFile={onFile} />
        {onFile && (onFile.status === 'active' || onFile.status === 'pending') && (
          <EndAgreement wallet={wallet} />
        )}
      </>
    );
  };

  return (
    <main className="min-h-dvh bg-mist-50">
      <ScreenHeader title={t('paymentAgreement.title')} back={ROUTES.profile} />
      <ScreenBody>{body()}</ScreenBody>
    </main>
  );
}

/** The badge's word: "needs renewal" for an agreement of a provider no longer used. */
const statusWord = (agreement: Agreement) =>
  agreement.needsRenewal
    ? 'paymentAgreement.status.renewal'
    : (`paymentAgreement.status.${agreement.status}` as const);

/**
 * The agreement on file with its status: a saved card drawn as a card (brand, •••• last 4,
 * expiry), or MobilePay's word mark (no card digits: MobilePay keeps the card).
 */
function AgreementOnFile({ agreement, wallet }: { agreement: Agreement; wallet: Wallet }) {
  const { t } = useTranslation();
  const words = wordsOf(wallet);
  return (
    <section aria-labelledby="agreement-card-title" className="flex flex-col gap-3">
      {wallet === 'mobilepay' ? (
        <Card className="flex flex-wrap items-start justify-between gap-3">
          <h2 id="agreement-card-title" className="text-title font-bold">
            {withMobilePayMark(t('payment.method.mobilepay'))}
          </h2>
          <Badge tone={STATUS_TONE[agreement.status]}>{t(statusWord(agreement))}</Badge>
        </Card>
      ) : (
        <CardFace agreement={agreement} />
      )}
      {agreement.status === 'pending' && <Alert tone="info">{t(`${words}.pendingNote`)}</Alert>}
      {agreement.status === 'expired' && (
        <Alert tone="warning">
          {agreement.needsRenewal ? t('paymentAgreement.renewalNote') : t(`${words}.expiredNote`)}
        </Alert>
      )}
      {agreement.status === 'active' && (
        <p className="px-1 text-caption text-mist-600">{t(`${words}.activeNote`)}</p>
      )}
    </section>
  );
}

/** The saved card, drawn as a card: brand, •••• last 4, expiry, and the agreement's status. */
function CardFace({ agreement }: { agreement: Agreement }) {
  const { t } = useTranslation();
  return (
    <Card className="flex flex-col gap-6 bg-gradient-to-br from-ocean-900 to-ocean-700 text-white">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <h2 id="agreement-card-title" className="text-lead font-bold">
          {agreement.cardBrand ?? t('paymentAgreement.unknownBrand')}
        </h2>
        <Badge tone={STATUS_TONE[agreement.status]}>{t(statusWord(agreement))}</Badge>
      </div>
      <p
        className="font-mono text-lead tracking-wider tabular-nums"
        aria-label={
          agreement.cardLast4
            ? t('paymentAgreement.endingIn', { last4: agreement.cardLast4 })
            : undefined
        }
      >
        {agreement.cardLast4 ? `•••• •••• •••• ${agreement.cardLast4}` : '•••• •••• •••• ••••'}
      </p>
      {agreement.cardExpiry && (
        <p className="flex flex-col">
          <span className="text-caption text-ocean-100">{t('paymentAgreement.expiry')}</span>
          <span className="text-body font-semibold tabular-nums">{agreement.cardExpiry}</span>
        </p>
      )}
    </Card>
  );
}

/**
 * "Skráset kort" / "Skift kort", or with MobilePay "Góðkenn í MobilePay": POST /agreements
 * through `usePurchase` (one Idempotency-Key per attempt: a retry after a lost answer cannot
 * place a second one), then the provider's card page or MobilePay, which return to the payment
 * status screen. An active MobilePay agreement needs none: MobilePay keeps its card itself.
 */
function RegisterAgreement({ via, onFile }: { via: CheckoutMethod; onFile: Agreement | null }) {
  const { t } = useTranslation();
  const errorMessage = useErrorMessage();
  const { purchase, pending, error } = usePurchase();
  const mobilePay = via === 'mobilepay';
  const words = wordsOf(via);
  if (mobilePay && onFile?.status === 'active' && walletOfAgreement(onFile, via) === 'mobilepay')
    return null;
  const hasCard = !mobilePay && onFile !== null && onFile.cardLast4 !== null;

  const submit = () =>
    purchase(
      '/agreements',
      {},
      { itemName: t(`${words}.itemName`), returnTo: ROUTES.agreement, paidWith: via },
    );

  return (
    <div className="flex flex-col gap-3">
      {error && (
        <Alert tone="error" title={t(`${words}.createFailed`)}>
          {errorMessage(error)}
        </Alert>
      )}
      <Button
        block
        variant={hasCard || mobilePay ? 'secondary' : 'primary'}
        loading={pending}
        onClick={() => void submit()}
      >
        {mobilePay
          ? withMobilePayMark(t('paymentAgreement.mobilepay.register'))
          : hasCard
            ? t('paymentAgreement.change')
            : t('paymentAgreement.register')}
      </Button>
      <p className="px-1 text-center text-caption text-mist-500">{t(`${words}.checkNote`)}</p>
    </div>
  );
}

/**
 * DELETE /agreements: ends the agreement on file, at the provider too. None there any more (404)
 * is what the customer asked for; anything else failed and nothing changed (503: try again).
 * Afterwards the agreement is read again, and the screen is the one for "no agreement".
 */
function useEndAgreement() {
  const { t } = useTranslation();
  const { http } = useAppServices();
  const queryClient = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: async () => {
      const result = await http.delete('/agreements', endAgreementResponse);
      if (!result.ok && result.error.code !== 'NOT_FOUND') throw new ApiRequestError(result.error);
    },
    onSuccess: async () => {
      const key = accountKeys.resource('agreement');
      queryClient.setQueryData<AgreementResponse>(key, (old) =>
        old ? { ...old, status: 'cancelled' } : null,
      );
      toast.show({ type: 'info', message: t('paymentAgreement.end.done') });
      await queryClient.invalidateQueries({ queryKey: key });
    },
  });
}

/** "Enda gjaldsavtaluna", after a confirm that says what changes. */
function EndAgreement({ wallet }: { wallet: Wallet }) {
  const { t } = useTranslation();
  const modal = useModal();
  const errorMessage = useErrorMessage();
  const end = useEndAgreement();

  const run = async () => {
    if (end.isPending) return;
    const confirmed = await modal.confirm({
      title: t('paymentAgreement.end.confirmTitle'),
      message: t(`${wordsOf(wallet)}.endBody`),
      confirmLabel: t('paymentAgreement.end.confirm'),
      tone: 'danger',
    });
    if (confirmed) end.mutate();
  };

  return (
    <div className="flex flex-col gap-3 border-t border-mist-200 pt-5">
      {end.error && (
        <Alert tone="error" title={t('paymentAgreement.end.failed')}>
          {errorMessage(apiErrorOf(end.error))}
        </Alert>
      )}
      <Button block variant="ghost" loading={end.isPending} onClick={() => void run()}>
        {t('paymentAgreement.end.action')}
      </Button>
    </div>
  );
}
