import { useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { formatPhoneNumber } from '@alda/contract/format/phone';
import { lineHandover, type LineHandover } from '@alda/contract/schemas/subscriptions';
import { DetailList, DetailRow } from '@/shared/account/detail-list';
import { Price } from '@/shared/account/price';
import { QueryPending } from '@/shared/account/screen-states';
import type { ApiError } from '@/shared/api/http';
import { lineHandoverKeys, useLineHandoverQuery } from '@/shared/api/line-handovers';
import { href, ROUTES } from '@/shared/config/paths';
import { useFormatters } from '@/shared/format/use-formatters';
import { useErrorMessage } from '@/shared/i18n/use-error-message';
import { useKnownError } from '@/shared/i18n/use-known-error';
import { useCardOnFile } from '@/shared/payments/payment-method';
import { useAppServices } from '@/shared/services/app-services';
import { Alert } from '@/shared/ui/alert';
import { Button, ButtonLink } from '@/shared/ui/button';
import { Card } from '@/shared/ui/card';
import { useModal } from '@/shared/ui/modal/modal-context';
import { ScreenBody, ScreenHeader } from '@/shared/ui/screen';
import { useToast } from '@/shared/ui/toast/toast-context';
import { useOpenOrder } from './plan-transfer';
import { transfersApi } from './transfers-api';

const fullName = (p: { firstname: string; lastname: string }) =>
  `${p.firstname} ${p.lastname}`.trim();

/**
 * `/yvirtaka/:id` (ADR 0056 "Hand a number to another person"; the hand-over's notification links
 * here): the receiver sees who offers which number on which plan at what monthly price and
 * accepts (a `hand_over` order, followed on the order screen; needs their card on file) or
 * declines; the giver sees where it stands and may withdraw it; a decided one shows its outcome.
 */
export function HandoverScreen() {
  const { id = '' } = useParams();
  const { t } = useTranslation();
  const handover = useLineHandoverQuery(id);

  return (
    <main className="min-h-dvh bg-mist-50">
      <ScreenHeader title={t('transfers.handover.title')} back={ROUTES.menu} />
      <ScreenBody>
        {handover.data === undefined ? (
          <QueryPending query={handover} />
        ) : (
          <Handover handover={handover.data} />
        )}
      </ScreenBody>
    </main>
  );
}

function Handover({ handover }: { handover: LineHandover }) {
  const { t } = useTranslation();
  const f = useFormatters();
  const { http } = useAppServices();
  const modal = useModal();
  const toast = useToast();
  const queryClient = useQueryClient();
  const openOrder = useOpenOrder();
  const errorMessage = useErrorMessage();
  const knownError = useKnownError();
  const card = useCardOnFile();
  const [busy, setBusy] = useState<'accept' | 'end' | null>(null);
  const [failure, setFailure] = useState<ApiError | null>(null);
  const key = useRef<string | null>(null);

  const number = formatPhoneNumber(handover.phoneNumber);
  const from = fullName(handover.from);
  const to = fullName(handover.to);
  const pending = handover.status === 'pending';

  const refresh = (next?: LineHandover) => {
    if (next) queryClient.setQueryData(lineHandoverKeys.detail(handover.id), next);
    void queryClient.invalidateQueries({
      queryKey: lineHandoverKeys.all,
      exact: next !== undefined,
    });
  };

  const accept = async () => {
    if (busy) return;
    setFailure(null);
    key.current ??= crypto.randomUUID();
    setBusy('accept');
    const result = await transfersApi.acceptHandover(http, handover.id, key.current);
    setBusy(null);
    if (!result.ok) {
      if (result.error.status !== 0) key.current = null;
      setFailure(result.error);
      if (result.error.code === 'CONFLICT' || result.error.code === 'NOT_FOUND') refresh();
      return;
    }
    key.current = null;
    refresh();
    openOrder(result.data);
  };

  const end = async () => {
    if (busy) return;
    const receiver = handover.isReceiver;
    const confirmed = await modal.confirm({
      title: receiver
        ? t('transfers.handover.declineTitle')
        : t('transfers.handover.withdrawTitle'),
      message: receiver
        ? t('transfers.handover.declineMessage', { name: from, number })
        : t('transfers.handover.withdrawMessage', { name: to, number }),
      confirmLabel: receiver ? t('transfers.handover.decline') : t('transfers.handover.withdraw'),
      cancelLabel: t('transfers.handover.keep'),
      tone: 'danger',
    });
    if (!confirmed) return;
    setFailure(null);
    setBusy('end');
    const result = await transfersApi.endHandover(http, handover.id);
    setBusy(null);
    if (!result.ok) {
      setFailure(result.error);
      refresh();
      return;
    }
    const parsed = lineHandover.safeParse(result.data);
    refresh(
      parsed.success
        ? parsed.data
        : {
            ...handover,
            status: receiver ? 'declined' : 'withdrawn',
            decidedAt: new Date().toISOString(),
          },
    );
    toast.show({
      type: 'info',
      message: receiver ? t('transfers.handover.declined') : t('transfers.handover.withdrawn'),
    });
  };

  const lead = handover.isReceiver
    ? t('transfers.handover.offer', { name: from, number, plan: handover.planName })
    : t('transfers.handover.offered', { name: to, number, plan: handover.planName });

  return (
    <div className="flex flex-col gap-5">
      <Card className="flex flex-col gap-2">
        <span className="text-caption font-semibold text-mist-500">
          {t(`transfers.handover.status.${handover.status}`)}
        </span>
        <span className="text-display font-bold text-ocean-950 tabular-nums">{number}</span>
        <p className="text-body text-mist-700">{lead}</p>
      </Card>

      <DetailList>
        <DetailRow label={t('transfers.handover.from')}>{from}</DetailRow>
        <DetailRow label={t('transfers.handover.to')}>{to}</DetailRow>
        <DetailRow label={t('transfers.handover.plan')}>{handover.planName}</DetailRow>
        <DetailRow label={t('transfers.handover.price')}>
          <Price price={handover.monthlyPrice} perMonth />
        </DetailRow>
        <DetailRow label={t('transfers.handover.created')}>{f.date(handover.createdAt)}</DetailRow>
        {handover.decidedAt && (
          <DetailRow label={t('transfers.handover.decided')}>
            {f.date(handover.decidedAt)}
          </DetailRow>
        )}
      </DetailList>

      {!pending && <Outcome handover={handover} />}

      {pending && handover.isReceiver && (
        <>
          <p className="px-1 text-body text-mist-700">{t('transfers.handover.whatHappens')}</p>
          {card === null && (
            <Alert tone="info" title={t('transfers.cardTitle')}>
              <p>{t('transfers.handover.cardNeeded')}</p>
              <Link to={ROUTES.agreement} className="font-semibold underline">
                {t('transfers.registerCard')}
              </Link>
            </Alert>
          )}
        </>
      )}
      {pending && !handover.isReceiver && (
        <Alert tone="info">{t('transfers.handover.waiting', { name: to })}</Alert>
      )}

      {failure && (
        <Alert tone="error" title={t('transfers.failed')}>
          {knownError(failure) && <p>{errorMessage(failure)}</p>}
          {failure.code === 'AGREEMENT_REQUIRED' && (
            <Link to={ROUTES.agreement} className="font-semibold underline">
              {t('transfers.registerCard')}
            </Link>
          )}
        </Alert>
      )}

      {pending && handover.isReceiver && (
        <div className="flex flex-col gap-3">
          <Button
            block
            size="lg"
            loading={busy === 'accept'}
            disabled={busy !== null || card === null}
            onClick={() => void accept()}
          >
            {t('transfers.handover.accept')}
          </Button>
          <Button
            block
            variant="secondary"
            loading={busy === 'end'}
            disabled={busy !== null}
            onClick={() => void end()}
          >
            {t('transfers.handover.decline')}
          </Button>
        </div>
      )}
      {pending && !handover.isReceiver && (
        <Button
          block
          variant="danger"
          loading={busy === 'end'}
          disabled={busy !== null}
          onClick={() => void end()}
        >
          {t('transfers.handover.withdraw')}
        </Button>
      )}
    </div>
  );
}

function Outcome({ handover }: { handover: LineHandover }) {
  const { t } = useTranslation();
  if (handover.status === 'pending') return null;
  const who = handover.isReceiver ? 'receiver' : 'giver';
  const text = t(`transfers.handover.outcome.${handover.status}.${who}`, {
    name: fullName(handover.isReceiver ? handover.from : handover.to),
    number: formatPhoneNumber(handover.phoneNumber),
  });
  return (
    <div className="flex flex-col gap-3">
      <Alert tone={handover.status === 'accepted' ? 'success' : 'info'}>{text}</Alert>
      {handover.status === 'accepted' && handover.orderId && handover.isReceiver && (
        <ButtonLink
          to={href(ROUTES.order, { orderId: handover.orderId })}
          variant="secondary"
          block
        >
          {t('transfers.handover.seeOrder')}
        </ButtonLink>
      )}
    </div>
  );
}
