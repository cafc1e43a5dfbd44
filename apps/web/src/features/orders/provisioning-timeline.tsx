import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod/mini';
import type { Order } from '@alda/contract/schemas/orders';
import { correctPortingRequest, type OrderProvisioning } from '@alda/contract/schemas/provisioning';
import { href, ROUTES } from '@/shared/config/paths';
import { useFieldMessage } from '@/shared/forms/field-message';
import { useFormatters } from '@/shared/format/use-formatters';
import { useErrorMessage } from '@/shared/i18n/use-error-message';
import { useAppServices } from '@/shared/services/app-services';
import { ClockIcon, SimIcon } from '@/shared/ui/account-icons';
import { Alert } from '@/shared/ui/alert';
import { Button, ButtonLink } from '@/shared/ui/button';
import { Card } from '@/shared/ui/card';
import { cx } from '@/shared/ui/cx';
import { CheckIcon, WarningIcon } from '@/shared/ui/icons';
import { TextField } from '@/shared/ui/text-field';
import { useToast } from '@/shared/ui/toast/toast-context';

/** Steps that went wrong: drawn in the danger colour with their reason. */
const TROUBLE = new Set(['port_rejected', 'failed']);

/**
 * How an order is being set up (SPEC §4 "Subscription processing can take days", ADR 0055): what
 * happens next and when, what the customer can do now (confirm the SIM works, correct the SIM
 * card number of a rejected port, install the eSIM), and every step so far with its date, then
 * the steps still to come.
 */
export function ProvisioningView({
  order,
  provisioning,
  onChanged,
}: {
  order: Order;
  provisioning: OrderProvisioning;
  /** After the customer acted: read the order again. */
  onChanged: () => unknown;
}) {
  const { t } = useTranslation();
  const done = provisioning.steps.map((s) => s.step);
  const esimReady =
    done.includes('esim_ready') && !order.isComplete && !order.isCancelled && order.lineId;
  return (
    <>
      <NextCard order={order} provisioning={provisioning} onChanged={onChanged} />
      {esimReady && order.lineId && (
        <ButtonLink
          to={href(ROUTES.esimInstall, { lineId: order.lineId })}
          block
          icon={<SimIcon className="size-5" />}
        >
          {t('provisioning.installEsim')}
        </ButtonLink>
      )}
      <Card className="flex flex-col gap-4" role="region" aria-labelledby="provisioning-steps">
        <h2 id="provisioning-steps" className="text-lead font-bold text-ocean-950">
          {t('provisioning.stepsTitle')}
        </h2>
        <Timeline provisioning={provisioning} />
      </Card>
    </>
  );
}

/** The steps: done ones with their dates (and reasons), then the ones to come. */
export function Timeline({ provisioning }: { provisioning: OrderProvisioning }) {
  const { t } = useTranslation();
  const f = useFormatters();
  return (
    <ol className="flex flex-col" aria-label={t('provisioning.stepsTitle')}>
      {provisioning.steps.map((step, index) => {
        const trouble = TROUBLE.has(step.step);
        const last = index === provisioning.steps.length - 1 && provisioning.upcoming.length === 0;
        return (
          <li
            key={`${step.step}-${step.at}`}
            className="relative flex gap-3 pb-5 last:pb-0"
            data-state={trouble ? 'trouble' : 'done'}
          >
            {!last && (
              <span
                aria-hidden="true"
                className="absolute top-7 bottom-0 left-3.5 w-0.5 bg-fjord-200"
              />
            )}
            <span
              aria-hidden="true"
              className={cx(
                'z-10 flex size-7 shrink-0 items-center justify-center rounded-full text-white',
                trouble ? 'bg-danger-600' : 'bg-fjord-500',
              )}
            >
              {trouble ? <WarningIcon className="size-4" /> : <CheckIcon className="size-4" />}
            </span>
            <div className="flex min-w-0 flex-col gap-0.5">
              <span
                className={cx(
                  'text-body font-semibold',
                  trouble ? 'text-danger-600' : 'text-mist-900',
                )}
              >
                {t(`provisioning.step.${step.step}`)}
              </span>
              <time dateTime={step.at} className="text-caption text-mist-500 tabular-nums">
                {f.dateTime(step.at)}
              </time>
              {step.reason && <span className="text-caption text-mist-700">{step.reason}</span>}
            </div>
          </li>
        );
      })}
      {provisioning.upcoming.map((step, index) => (
        <li
          key={`upcoming-${step}`}
          className="relative flex gap-3 pb-5 last:pb-0"
          data-state="upcoming"
        >
          {index < provisioning.upcoming.length - 1 && (
            <span
              aria-hidden="true"
              className="absolute top-7 bottom-0 left-3.5 w-0.5 bg-mist-200"
            />
          )}
          <span
            aria-hidden="true"
            className="z-10 size-7 shrink-0 rounded-full border-2 border-dashed border-mist-300 bg-white"
          />
          <div className="flex flex-col gap-0.5">
            <span className="text-body text-mist-500">{t(`provisioning.step.${step}`)}</span>
            <span className="text-caption text-mist-500">{t('provisioning.toCome')}</span>
          </div>
        </li>
      ))}
    </ol>
  );
}

/** What happens next and when, and what the customer can do about it now. */
function NextCard({
  order,
  provisioning,
  onChanged,
}: {
  order: Order;
  provisioning: OrderProvisioning;
  onChanged: () => unknown;
}) {
  const { t } = useTranslation();
  const f = useFormatters();
  const { waitingFor, expectedAt, upcoming, delivery, pickupLocation, isPorting, portDate } =
    provisioning;
  const next = upcoming[0];
  const failed = provisioning.steps.some((s) => s.step === 'failed');

  let text: string;
  if (order.isComplete) text = t('provisioning.next.complete');
  else if (failed || order.isCancelled) text = t('provisioning.next.failed');
  else if (waitingFor === 'customer_sim')
    text = t(`provisioning.next.customerSim.${delivery ?? 'own_card'}`, {
      shop: pickupLocation?.name ?? '',
    });
  else if (waitingFor === 'customer_correction') text = t('provisioning.next.correction');
  else if (next) text = t('provisioning.next.network', { step: t(`provisioning.step.${next}`) });
  else text = t('provisioning.next.waiting');

  return (
    <Card className="flex flex-col gap-3" role="region" aria-labelledby="provisioning-next">
      <div className="flex items-center gap-3">
        <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-warning-50 text-warning-600">
          <ClockIcon className="size-5" />
        </span>
        <h2 id="provisioning-next" className="text-lead font-bold text-ocean-950">
          {order.isComplete ? t('provisioning.doneTitle') : t('provisioning.nextTitle')}
        </h2>
      </div>
      <p className="text-body text-mist-700">{text}</p>
      {expectedAt && waitingFor === 'network' && (
        <p className="text-caption text-mist-600">
          {t('provisioning.expectedAt', { date: f.dateTime(expectedAt) })}
        </p>
      )}
      {expectedAt && waitingFor === 'customer_sim' && (
        <p className="text-caption text-mist-600">
          {t('provisioning.autoActiveAt', { date: f.dateTime(expectedAt) })}
        </p>
      )}
      {isPorting && portDate && !order.isComplete && (
        <p className="text-caption text-mist-600">
          {t('provisioning.portDate', { date: f.date(portDate) })}
        </p>
      )}
      {pickupLocation && delivery === 'pickup' && !order.isComplete && (
        <div className="rounded-2xl bg-mist-50 px-3 py-2 text-caption text-mist-700">
          <p className="font-semibold">{pickupLocation.name}</p>
          <p>{`${pickupLocation.address}, ${pickupLocation.postCode} ${pickupLocation.city}`}</p>
          {pickupLocation.openingHours.map((line) => (
            <p key={line} className="text-mist-500">
              {line}
            </p>
          ))}
        </div>
      )}
      {waitingFor === 'customer_sim' && !order.isComplete && (
        <ConfirmSim orderId={order.id} onChanged={onChanged} />
      )}
      {waitingFor === 'customer_correction' && !order.isComplete && (
        <CorrectPorting
          orderId={order.id}
          reason={provisioning.steps.findLast((s) => s.step === 'port_rejected')?.reason ?? null}
          onChanged={onChanged}
        />
      )}
    </Card>
  );
}

/** "My SIM works": POST /orders/{id}/confirm-sim; the number becomes active now. */
function ConfirmSim({ orderId, onChanged }: { orderId: string; onChanged: () => unknown }) {
  const { t } = useTranslation();
  const { http } = useAppServices();
  const toast = useToast();
  const errorMessage = useErrorMessage();
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    setBusy(true);
    const result = await http.post(
      `/orders/${encodeURIComponent(orderId)}/confirm-sim`,
      {},
      z.unknown(),
    );
    setBusy(false);
    if (!result.ok) {
      toast.show({ type: 'error', message: errorMessage(result.error) });
      return;
    }
    toast.show({ type: 'info', message: t('provisioning.confirmSim.done') });
    await onChanged();
  };
  return (
    <div className="flex flex-col gap-2">
      <p className="text-caption text-mist-600">{t('provisioning.confirmSim.hint')}</p>
      <Button block loading={busy} onClick={() => void confirm()}>
        {t('provisioning.confirmSim.button')}
      </Button>
    </div>
  );
}

/**
 * The other provider rejected the port: the reason, and the SIM card number at the current
 * provider typed again (ITU-T E.118, checked here with the contract's rule before it is sent);
 * PATCH /orders/{id}/porting asks for the port again.
 */
function CorrectPorting({
  orderId,
  reason,
  onChanged,
}: {
  orderId: string;
  reason: string | null;
  onChanged: () => unknown;
}) {
  const { t } = useTranslation();
  const { http } = useAppServices();
  const toast = useToast();
  const errorMessage = useErrorMessage();
  const fieldMessage = useFieldMessage();
  const [value, setValue] = useState('');
  const [fieldError, setFieldError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);

  const submit = async () => {
    const parsed = correctPortingRequest.safeParse({ simcardNumber: value });
    if (!parsed.success) {
      setFieldError(parsed.error.issues[0]?.message ?? 'INVALID_SIMCARD_NUMBER');
      return;
    }
    setFieldError(undefined);
    setBusy(true);
    const result = await http.patch(
      `/orders/${encodeURIComponent(orderId)}/porting`,
      parsed.data,
      z.unknown(),
    );
    setBusy(false);
    if (!result.ok) {
      if (result.error.field === 'simcardNumber' || result.error.code === 'VALIDATION_FAILED')
        setFieldError(result.error.issues?.[0]?.key ?? result.error.code);
      else toast.show({ type: 'error', message: errorMessage(result.error) });
      return;
    }
    toast.show({ type: 'info', message: t('provisioning.correction.sent') });
    await onChanged();
  };

  return (
    <form
      noValidate
      className="flex flex-col gap-3"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <Alert tone="warning">{reason ?? t('provisioning.correction.defaultReason')}</Alert>
      <TextField
        label={t('provisioning.correction.label')}
        hint={t('provisioning.correction.hint')}
        inputMode="numeric"
        autoComplete="off"
        value={value}
        onChange={(event) => {
          setValue(event.currentTarget.value);
          if (fieldError) setFieldError(undefined);
        }}
        error={fieldMessage(fieldError)}
      />
      <Button type="submit" block loading={busy}>
        {t('provisioning.correction.submit')}
      </Button>
    </form>
  );
}
