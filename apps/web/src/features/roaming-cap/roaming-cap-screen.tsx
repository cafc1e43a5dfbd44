import { useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router';
import { capChangeNeedsConfirmation, roamingCapThreshold } from '@alda/contract/rules/roaming';
import { roamingCap, type RoamingCap } from '@alda/contract/schemas/roaming';
import { formatPhoneNumber } from '@alda/contract/format/phone';
import { QueryPending } from '@/shared/account/screen-states';
import { QUERY } from '@/shared/config/paths';
import { accountKeys } from '@/shared/api/account-data';
import { useSubscriptionDetailQuery } from '@/shared/api/account-queries';
import { useFormatters } from '@/shared/format/use-formatters';
import { useErrorMessage } from '@/shared/i18n/use-error-message';
import { useAppServices } from '@/shared/services/app-services';
import { WriteToUsLink } from '@/shared/support/write-to-us-link';
import { Alert } from '@/shared/ui/alert';
import { Button } from '@/shared/ui/button';
import { Card } from '@/shared/ui/card';
import { ChoiceList } from '@/shared/ui/choice-list';
import { useModal } from '@/shared/ui/modal/modal-context';
import { ScreenBody, ScreenHeader } from '@/shared/ui/screen';
import { useToast } from '@/shared/ui/toast/toast-context';
import { UsageBar } from '@/shared/ui/usage-bar';

/** Caps the owner picks from, øre with VAT, besides the default and "no cap". */
const CAP_STEPS = [75_000, 150_000, 300_000];
const OFF = 'off';

/**
 * /utreidsluloft/:lineId (issue 33 §2, ADR 0078): a number's roaming spend cap — this month's
 * charges abroad against the cap, whether data abroad is stopped, and for the account owner the
 * cap to choose (raising it or removing it only after a confirmation that names the risk). The
 * number's own user sees the same and is told to ask the owner.
 */
export function RoamingCapScreen() {
  const { lineId = '' } = useParams();
  const { t } = useTranslation();
  const detail = useSubscriptionDetailQuery(lineId);

  const body = () => {
    const roaming = detail.data?.member.roaming;
    if (detail.data === undefined || !roaming)
      return <QueryPending query={detail} failedMessage={t('roamingCap.loadFailed')} />;
    return (
      <>
        <StateCard roaming={roaming} phoneNumber={detail.data.member.phoneNumber} />
        {detail.data.isOwner ? (
          <CapChoice lineId={lineId} roaming={roaming} />
        ) : (
          <Alert tone="info">{t('roamingCap.askOwner')}</Alert>
        )}
        <WriteToUsLink item={{ type: 'roaming_cap', id: detail.data.member.phoneNumber }} />
      </>
    );
  };

  return (
    <main className="min-h-dvh bg-mist-50">
      <ScreenHeader title={t('roamingCap.title')} back />
      <ScreenBody>{body()}</ScreenBody>
    </main>
  );
}

function StateCard({ roaming, phoneNumber }: { roaming: RoamingCap; phoneNumber: string }) {
  const { t } = useTranslation();
  const f = useFormatters();
  const kr = (oere: number) => f.kr(oere, { decimals: 'auto' });
  const { capOere, chargedOere } = roaming;
  return (
    <Card className="flex flex-col gap-3" role="region" aria-labelledby="roaming-cap-month">
      <div className="flex items-baseline justify-between gap-3">
        <h2 id="roaming-cap-month" className="text-body font-semibold text-ocean-950">
          {t('roamingCap.thisMonth')}
        </h2>
        <span className="shrink-0 text-caption whitespace-nowrap text-mist-500 tabular-nums">
          {formatPhoneNumber(phoneNumber)}
        </span>
      </div>
      <p className="text-lead font-bold text-ocean-950">
        {capOere === null
          ? t('roamingCap.charged', { charged: kr(chargedOere) })
          : t('roamingCap.chargedOf', { charged: kr(chargedOere), cap: kr(capOere) })}
      </p>
      {capOere !== null && (
        <UsageBar
          fraction={capOere > 0 ? chargedOere / capOere : 1}
          label={t('roamingCap.thisMonth')}
          valueText={t('roamingCap.chargedOf', { charged: kr(chargedOere), cap: kr(capOere) })}
          tone={roaming.stopped || roamingCapThreshold(chargedOere, capOere) ? 'puffin' : 'fjord'}
        />
      )}
      {roaming.chargedMb > 0 && (
        <p className="text-caption text-mist-600">
          {t('roamingCap.chargedData', { data: f.data(roaming.chargedMb) })}
        </p>
      )}
      {roaming.stopped && (
        <Alert tone="warning" title={t('roamingCap.stopped')}>
          {t('roamingCap.stoppedBody')}
        </Alert>
      )}
      {capOere === null && <p className="text-body text-mist-700">{t('roamingCap.offBody')}</p>}
      <p className="text-caption text-mist-500">
        {t('roamingCap.lead', { price: f.kr(roaming.pricePerMbOere) })}
      </p>
    </Card>
  );
}

function CapChoice({ lineId, roaming }: { lineId: string; roaming: RoamingCap }) {
  const { t } = useTranslation();
  const f = useFormatters();
  const { http } = useAppServices();
  const modal = useModal();
  const toast = useToast();
  const errorMessage = useErrorMessage();
  const queryClient = useQueryClient();
  const current = roaming.capOere === null ? OFF : String(roaming.capOere);
  const [chosen, setChosen] = useState(current);
  const [busy, setBusy] = useState(false);
  const kr = (oere: number) => f.kr(oere, { decimals: 'auto' });
  const [search, setSearch] = useSearchParams();

  const amounts = [...new Set([roaming.defaultCapOere, ...CAP_STEPS, roaming.capOere ?? 0])]
    .filter((a) => a > 0)
    .sort((a, b) => a - b);
  const choices = [
    ...amounts.map((a) => ({
      value: String(a),
      label: a === roaming.defaultCapOere ? t('roamingCap.default', { amount: kr(a) }) : kr(a),
    })),
    { value: OFF, label: t('roamingCap.off') },
  ];

  const save = async (value: string) => {
    if (busy || value === current) return;
    const next = value === OFF ? null : Number(value);
    const confirmed =
      !capChangeNeedsConfirmation(roaming.capOere, next) ||
      (await modal.confirm(
        next === null
          ? {
              title: t('roamingCap.offTitle'),
              message: t('roamingCap.offMessage'),
              confirmLabel: t('roamingCap.offConfirm'),
              tone: 'danger',
            }
          : {
              title: t('roamingCap.raiseTitle'),
              message: t('roamingCap.raiseMessage', { cap: kr(next) }),
              confirmLabel: t('roamingCap.raiseConfirm'),
              tone: 'warning',
            },
      ));
    if (!confirmed) return;
    setBusy(true);
    try {
      const result = await http.patch(
        `/subscriptions/${encodeURIComponent(lineId)}/roaming-cap`,
        { capOere: next, confirmed: true },
        roamingCap,
      );
      if (!result.ok) {
        toast.show({ type: 'error', message: errorMessage(result.error) });
        return;
      }
      // Home, the manage screen and this one show the number's new cap and state.
      await queryClient.invalidateQueries({ queryKey: accountKeys.all });
      toast.show({ type: 'info', message: t('roamingCap.saved') });
    } finally {
      setBusy(false);
    }
  };

  // Opened from home's "raise the cap" (one tap to go on): the next cap, confirmed at once.
  const raising = useRef(false);
  const raise = search.get(QUERY.raise) === '1' && roaming.stopped && roaming.capOere !== null;
  useEffect(() => {
    if (!raise || raising.current) return;
    raising.current = true;
    const above = amounts.find((a) => a > Math.max(roaming.capOere ?? 0, roaming.chargedOere));
    const next = above === undefined ? OFF : String(above);
    setChosen(next);
    setSearch({}, { replace: true });
    void save(next);
    // Once, when the screen opens to raise; the ref keeps a re-render from asking twice.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [raise]);

  return (
    <section className="flex flex-col gap-3" aria-labelledby="roaming-cap-choose">
      <h2 id="roaming-cap-choose" className="px-1 text-body font-semibold text-ocean-950">
        {t('roamingCap.choose')}
      </h2>
      <ChoiceList
        choices={choices}
        chosen={chosen}
        onChoose={setChosen}
        labelledBy="roaming-cap-choose"
      />
      <Button block loading={busy} disabled={chosen === current} onClick={() => void save(chosen)}>
        {t('roamingCap.save')}
      </Button>
    </section>
  );
}
