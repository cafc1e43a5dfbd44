import { useTranslation } from 'react-i18next';
import type { Agreement, AgreementStatus } from '@alda/contract/schemas/agreements';
import { EmptyState, QueryPending } from '@/shared/account/screen-states';
import { useAgreementQuery } from '@/shared/api/account-queries';
import { useErrorMessage } from '@/shared/i18n/use-error-message';
import { usePurchase } from '@/shared/payments/use-purchase';
import { WalletIcon } from '@/shared/ui/account-icons';
import { Alert } from '@/shared/ui/alert';
import { Badge, type BadgeTone } from '@/shared/ui/badge';
import { Button } from '@/shared/ui/button';
import { Card } from '@/shared/ui/card';
import { ScreenBody, ScreenHeader } from '@/shared/ui/screen';
import { Skeleton } from '@/shared/ui/skeleton';
import { ROUTES } from '@/shared/config/paths';

const STATUS_TONE: Record<AgreementStatus, BadgeTone> = {
  active: 'success',
  pending: 'warning',
  expired: 'danger',
  cancelled: 'neutral',
};

/**
 * /min-brukari/gjaldsavtala (SPEC §2 profile.agreement, no footer): the card on file — brand,
 * last four digits, expiry and status — or why to save one. Registering or changing the card
 * places a card check (POST /agreements) that the customer completes on the provider's hosted
 * card page; the payment status screen then says whether the card was saved.
 */
export function AgreementScreen() {
  const { t } = useTranslation();
  const agreement = useAgreementQuery();

  const body = () => {
    if (agreement.data === undefined)
      return (
        <QueryPending
          query={agreement}
          failedMessage={t('agreement.loadFailed')}
          loading={
            <div aria-busy="true" aria-label={t('app.loading')} className="flex flex-col gap-4">
              <Skeleton className="h-44 rounded-card" />
              <Skeleton className="h-13 rounded-control" />
            </div>
          }
        />
      );
    const current = agreement.data;
    // A cancelled agreement no longer pays anything: the screen is the one for "no card".
    const onFile = current && current.status !== 'cancelled' ? current : null;
    return (
      <>
        {onFile ? (
          <CardOnFile agreement={onFile} />
        ) : (
          <EmptyState
            icon={<WalletIcon />}
            title={t('agreement.emptyTitle')}
            body={t('agreement.emptyBody')}
          />
        )}
        <RegisterCard hasCard={onFile !== null && onFile.cardLast4 !== null} />
      </>
    );
  };

  return (
    <main className="min-h-dvh bg-mist-50">
      <ScreenHeader title={t('agreement.title')} back={ROUTES.profile} />
      <ScreenBody>{body()}</ScreenBody>
    </main>
  );
}

/** The saved card, drawn as a card: brand, •••• last 4, expiry, and the agreement's status. */
function CardOnFile({ agreement }: { agreement: Agreement }) {
  const { t } = useTranslation();
  return (
    <section aria-labelledby="agreement-card-title" className="flex flex-col gap-3">
      <Card className="flex flex-col gap-6 bg-gradient-to-br from-ocean-900 to-ocean-700 text-white">
        <div className="flex flex-wrap items-start justify-between gap-3">
          <h2 id="agreement-card-title" className="text-lead font-bold">
            {agreement.cardBrand ?? t('agreement.unknownBrand')}
          </h2>
          <Badge tone={STATUS_TONE[agreement.status]}>
            {t(`agreement.status.${agreement.status}`)}
          </Badge>
        </div>
        <p
          className="font-mono text-lead tracking-wider tabular-nums"
          aria-label={
            agreement.cardLast4
              ? t('agreement.endingIn', { last4: agreement.cardLast4 })
              : undefined
          }
        >
          {agreement.cardLast4 ? `•••• •••• •••• ${agreement.cardLast4}` : '•••• •••• •••• ••••'}
        </p>
        {agreement.cardExpiry && (
          <p className="flex flex-col">
            <span className="text-caption text-ocean-100">{t('agreement.expiry')}</span>
            <span className="text-body font-semibold tabular-nums">{agreement.cardExpiry}</span>
          </p>
        )}
      </Card>
      {agreement.status === 'pending' && <Alert tone="info">{t('agreement.pendingNote')}</Alert>}
      {agreement.status === 'expired' && <Alert tone="warning">{t('agreement.expiredNote')}</Alert>}
      {agreement.status === 'active' && (
        <p className="px-1 text-caption text-mist-600">{t('agreement.activeNote')}</p>
      )}
    </section>
  );
}

/**
 * "Skráset kort" / "Skift kort": POST /agreements through `usePurchase` (one Idempotency-Key per
 * attempt: a retry after a lost answer cannot place a second card check), then the provider's
 * hosted card page, which returns to the payment status screen.
 */
function RegisterCard({ hasCard }: { hasCard: boolean }) {
  const { t } = useTranslation();
  const errorMessage = useErrorMessage();
  const { purchase, pending, error } = usePurchase();

  const submit = () =>
    purchase('/agreements', {}, { itemName: t('agreement.itemName'), returnTo: ROUTES.agreement });

  return (
    <div className="flex flex-col gap-3">
      {error && (
        <Alert tone="error" title={t('agreement.createFailed')}>
          {errorMessage(error)}
        </Alert>
      )}
      <Button
        block
        variant={hasCard ? 'secondary' : 'primary'}
        loading={pending}
        onClick={() => void submit()}
      >
        {hasCard ? t('agreement.change') : t('agreement.register')}
      </Button>
      <p className="px-1 text-center text-caption text-mist-500">{t('agreement.checkNote')}</p>
    </div>
  );
}
