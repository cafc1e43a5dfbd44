import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatPhoneNumber } from '@alda/contract/format/phone';
import type { SimDetails, SimSecretsResponse } from '@alda/contract/schemas/provisioning';
import { accountKeys } from '@/shared/api/account-data';
import { href, ROUTES } from '@/shared/config/paths';
import { useErrorMessage } from '@/shared/i18n/use-error-message';
import { useAppServices } from '@/shared/services/app-services';
import { ClockIcon, SimIcon } from '@/shared/ui/account-icons';
import { Badge } from '@/shared/ui/badge';
import { Button } from '@/shared/ui/button';
import { Card } from '@/shared/ui/card';
import { ErrorState } from '@/shared/ui/error-state';
import { EyeIcon, EyeOffIcon } from '@/shared/ui/icons';
import { ListGroup, ListRowLink } from '@/shared/ui/list-row';
import { useModal } from '@/shared/ui/modal/modal-context';
import { Skeleton } from '@/shared/ui/skeleton';
import { Switch } from '@/shared/ui/switch';
import { useToast } from '@/shared/ui/toast/toast-context';
import { NumberLockRow } from '@/shared/protection/number-lock-row';
import { revealSimSecrets, setPhoneBookVisible, simKeys, useSimQuery } from './sim-api';

/**
 * The SIM of one number (SPEC §1 "manage eSIM or physical SIM details and phone-book
 * visibility"): its type; an eSIM's install screen; a physical card's masked ICCID and its PIN
 * and PUK after the password; a replacement or a switch to eSIM; and whether the number is in
 * the phone book. Shown on the manage screen (owner) and the profile (a member's own numbers).
 */
export function SimSection({
  lineId,
  showNumber = false,
}: {
  lineId: string;
  showNumber?: boolean;
}) {
  const { t } = useTranslation();
  const sim = useSimQuery(lineId);
  const titleId = `sim-${lineId}-title`;
  const title = (number?: string) =>
    showNumber && number
      ? t('sim.titleFor', { number: formatPhoneNumber(number) })
      : t('sim.title');

  if (sim.data === undefined)
    return (
      <Card className="flex flex-col gap-3" aria-busy={!sim.isError || undefined}>
        <h2 className="text-lead font-bold text-ocean-950">{title()}</h2>
        {sim.isError ? (
          <ErrorState
            message={t('sim.loadFailed')}
            onRetry={() => void sim.refetch()}
            retrying={sim.isFetching}
          />
        ) : (
          <Skeleton className="h-24 rounded-2xl" />
        )}
      </Card>
    );

  const details = sim.data;
  return (
    <section className="flex flex-col gap-3" aria-labelledby={titleId}>
      <Card className="flex flex-col gap-4">
        <div className="flex items-center gap-3">
          <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-ocean-50 text-ocean-700">
            <SimIcon className="size-5" />
          </span>
          <div className="flex min-w-0 flex-1 flex-col">
            <h2 id={titleId} className="text-lead font-bold text-ocean-950">
              {title(details.phoneNumber)}
            </h2>
            <p className="text-caption text-mist-600">
              {details.simType === 'esim' ? t('sim.ESIM') : t('sim.PHYSICAL')}
            </p>
          </div>
          {details.esim && details.simType === 'esim' && (
            <Badge tone={details.esim.installed ? 'success' : 'info'}>
              {details.esim.installed ? t('sim.esimInstalled') : t('sim.esimNotInstalled')}
            </Badge>
          )}
        </div>
        {details.simType === 'physical' && <PhysicalSim details={details} />}
        <PhoneBookSwitch details={details} />
      </Card>
      <ListGroup>
        {details.esim && (
          <ListRowLink
            to={href(ROUTES.esimInstall, { lineId })}
            icon={<SimIcon className="size-5" />}
            label={details.simType === 'esim' ? t('sim.installEsim') : t('sim.installPendingEsim')}
          />
        )}
        {details.pendingOrderId ? (
          <ListRowLink
            to={href(ROUTES.order, { orderId: details.pendingOrderId })}
            icon={<ClockIcon className="size-5" />}
            label={t('sim.pendingOrder')}
          />
        ) : (
          <ListRowLink
            to={href(ROUTES.simReplacement, { lineId })}
            icon={<SimIcon className="size-5" />}
            label={details.simType === 'esim' ? t('sim.replaceEsim') : t('sim.replacePhysical')}
          />
        )}
        <NumberLockRow lineId={lineId} />
      </ListGroup>
    </section>
  );
}

/** The card's number, masked, and its PIN and PUK once the password is given again. */
function PhysicalSim({ details }: { details: SimDetails }) {
  const { t } = useTranslation();
  const { http } = useAppServices();
  const modal = useModal();
  const toast = useToast();
  const errorMessage = useErrorMessage();
  const [secrets, setSecrets] = useState<SimSecretsResponse | null>(null);
  const [busy, setBusy] = useState(false);

  const reveal = async () => {
    const password = await modal.prompt({
      title: t('sim.secrets.title'),
      message: t('sim.secrets.message'),
      label: t('sim.secrets.password'),
      inputType: 'password',
      confirmLabel: t('sim.secrets.confirm'),
    });
    if (!password) return;
    setBusy(true);
    const result = await revealSimSecrets(http, details.lineId, password);
    setBusy(false);
    if (!result.ok) {
      toast.show({ type: 'error', message: errorMessage(result.error) });
      return;
    }
    setSecrets(result.data);
  };

  return (
    <div className="flex flex-col gap-3">
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-body">
        <dt className="text-mist-500">{t('sim.iccid')}</dt>
        <dd className="text-right font-medium text-mist-900 tabular-nums">
          {details.iccidMasked ?? t('common.notProvided')}
        </dd>
        {secrets && (
          <>
            <dt className="text-mist-500">{t('sim.pin')}</dt>
            <dd
              className="text-right font-mono text-lead font-bold text-ocean-950"
              data-testid="sim-pin"
            >
              {secrets.pin}
            </dd>
            <dt className="text-mist-500">{t('sim.puk')}</dt>
            <dd
              className="text-right font-mono text-lead font-bold text-ocean-950"
              data-testid="sim-puk"
            >
              {secrets.puk}
            </dd>
          </>
        )}
      </dl>
      {secrets ? (
        <Button
          variant="ghost"
          icon={<EyeOffIcon className="size-5" />}
          onClick={() => setSecrets(null)}
        >
          {t('sim.secrets.hide')}
        </Button>
      ) : (
        <Button
          variant="secondary"
          icon={<EyeIcon className="size-5" />}
          loading={busy}
          onClick={() => void reveal()}
        >
          {t('sim.secrets.show')}
        </Button>
      )}
    </div>
  );
}

/** Whether this number is listed in the phone book (per number). */
function PhoneBookSwitch({ details }: { details: SimDetails }) {
  const { t } = useTranslation();
  const { http } = useAppServices();
  const toast = useToast();
  const errorMessage = useErrorMessage();
  const queryClient = useQueryClient();
  const [saving, setSaving] = useState(false);

  const change = async (next: boolean) => {
    setSaving(true);
    const result = await setPhoneBookVisible(http, details.lineId, next);
    setSaving(false);
    if (!result.ok) {
      toast.show({ type: 'error', message: errorMessage(result.error) });
      return;
    }
    queryClient.setQueryData(simKeys.detail(details.lineId), result.data);
    // The subscriptions show the number's listing too.
    void queryClient.invalidateQueries({
      queryKey: accountKeys.all,
      predicate: (query) => !query.queryKey.includes('sim'),
    });
    toast.show({
      type: 'info',
      message: next ? t('sim.phoneBook.shown') : t('sim.phoneBook.hidden'),
    });
  };

  return (
    <div className="border-t border-mist-100 pt-4">
      <Switch
        label={t('sim.phoneBook.label')}
        description={t('sim.phoneBook.description')}
        checked={details.phoneBookVisible}
        disabled={saving}
        aria-busy={saving || undefined}
        onChange={(event) => void change(event.currentTarget.checked)}
      />
    </div>
  );
}
