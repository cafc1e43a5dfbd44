import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { formatPhoneNumber } from '@alda/contract/format/phone';
import { PORT_OUT_CODE_DAYS } from '@alda/contract/rules/number-protection';
import type { LineProtection, PortOutCodeResponse } from '@alda/contract/schemas/number-protection';
import { DetailList, DetailRow } from '@/shared/account/detail-list';
import { QueryPending } from '@/shared/account/screen-states';
import { useFormatters } from '@/shared/format/use-formatters';
import { useErrorMessage } from '@/shared/i18n/use-error-message';
import {
  cancelUnlock,
  createPortOutCode,
  lockNumber,
  protectionKeys,
  requestUnlock,
  useProtectionQuery,
} from '@/shared/protection/protection-api';
import type { Result } from '@/shared/api/http';
import { useAppServices } from '@/shared/services/app-services';
import { useStepUp } from '@/shared/step-up/use-step-up';
import { Alert } from '@/shared/ui/alert';
import { Badge, type BadgeTone } from '@/shared/ui/badge';
import { Button, buttonClasses } from '@/shared/ui/button';
import { Card } from '@/shared/ui/card';
import { KeyIcon, ShieldIcon } from '@/shared/ui/icons';
import { useModal } from '@/shared/ui/modal/modal-context';
import { ScreenBody, ScreenHeader } from '@/shared/ui/screen';
import { useToast } from '@/shared/ui/toast/toast-context';
import { unlockWhen } from './when';

const STATE_TONE: Record<LineProtection['lock']['state'], BadgeTone> = {
  locked: 'success',
  unlocking: 'warning',
  unlocked: 'neutral',
};

/**
 * /nummarlas/:lineId (issue 32, ADR 0076): a number's lock in plain words — locked (port-out and
 * SIM changes refused), unlocking at a time with a one-tap cancel, or unlocked with "lock now" —
 * the unlock behind the password (or an SMS code) and the cooling-off; the port-out code, shown
 * once when made; and the number's latest SIM change. The in-app notification and the e-mail of
 * an unlock link here.
 */
export function NumberLockScreen() {
  const { lineId = '' } = useParams();
  const { t } = useTranslation();
  const protection = useProtectionQuery(lineId);

  const body = () => {
    if (protection.data === undefined)
      return <QueryPending query={protection} failedMessage={t('protection.loadFailed')} />;
    return (
      <>
        <LockCard data={protection.data} />
        <PortOutCard data={protection.data} />
        <NumberDetails data={protection.data} />
      </>
    );
  };

  return (
    <main className="min-h-dvh bg-mist-50">
      <ScreenHeader title={t('protection.title')} back />
      <ScreenBody>{body()}</ScreenBody>
    </main>
  );
}

/** Puts an answer of the lock's calls in the cache, so every screen shows the new state. */
function useStoreProtection(lineId: string) {
  const queryClient = useQueryClient();
  return (data: LineProtection) => queryClient.setQueryData(protectionKeys.detail(lineId), data);
}

function LockCard({ data }: { data: LineProtection }) {
  const { t } = useTranslation();
  const { http } = useAppServices();
  const toast = useToast();
  const stepUp = useStepUp();
  const errorMessage = useErrorMessage();
  const store = useStoreProtection(data.lineId);
  const [busy, setBusy] = useState(false);
  const { state, unlockAt } = data.lock;

  const run = async (call: () => Promise<void>) => {
    if (busy) return;
    setBusy(true);
    try {
      await call();
    } finally {
      setBusy(false);
    }
  };

  /** Keeps a call's answer, or tells why it failed; whether it succeeded. */
  const settle = (
    result: Result<LineProtection>,
  ): result is Result<LineProtection> & { ok: true } => {
    if (!result.ok) {
      toast.show({ type: 'error', message: errorMessage(result.error) });
      return false;
    }
    store(result.data);
    return true;
  };

  const lock = () =>
    run(async () => {
      if (settle(await lockNumber(http, data.lineId)))
        toast.show({ type: 'info', message: t('protection.lockedToast') });
    });

  const cancel = () =>
    run(async () => {
      if (settle(await cancelUnlock(http, data.lineId)))
        toast.show({ type: 'info', message: t('protection.unlockCancelled') });
    });

  const unlock = () =>
    run(async () => {
      const result = await stepUp({
        title: t('protection.unlockTitle'),
        // The server's cooling-off (NUMBER_UNLOCK_DELAY_H): whole hours as hours, else minutes.
        message:
          data.unlockDelayMinutes % 60 === 0
            ? t('protection.unlockMessageHours', { count: data.unlockDelayMinutes / 60 })
            : t('protection.unlockMessageMinutes', { count: data.unlockDelayMinutes }),
        confirmLabel: t('protection.unlock'),
        busyLabel: t('protection.unlocking'),
        tone: 'primary',
        icon: (
          <span className="flex size-12 items-center justify-center rounded-full bg-warning-50 text-warning-600">
            <KeyIcon />
          </span>
        ),
        submit: (proof) => requestUnlock(http, data.lineId, proof),
      });
      if (!result || !settle(result)) return;
      if (result.data.lock.unlockAt)
        toast.show({
          type: 'info',
          message: t('protection.unlockRequested', unlockWhen(result.data.lock.unlockAt)),
        });
    });

  return (
    <Card className="flex flex-col gap-4" role="region" aria-labelledby="lock-title">
      <div className="flex items-center gap-3">
        <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-ocean-50 text-ocean-700">
          <ShieldIcon className="size-5" />
        </span>
        <div className="flex min-w-0 flex-1 flex-col gap-0.5">
          <h2 id="lock-title" className="text-lead font-bold text-ocean-950">
            {t('protection.title')}
          </h2>
          <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
            <p className="text-caption text-mist-600">{formatPhoneNumber(data.phoneNumber)}</p>
            <Badge tone={STATE_TONE[state]}>{t(`protection.state.${state}`)}</Badge>
          </div>
        </div>
      </div>
      {state === 'locked' && (
        <>
          <p className="text-body text-mist-700">{t('protection.lockedBody')}</p>
          <Button block variant="secondary" loading={busy} onClick={() => void unlock()}>
            {t('protection.unlock')}
          </Button>
        </>
      )}
      {state === 'unlocking' && (
        <>
          <Alert tone="warning">
            {unlockAt ? t('protection.unlockingBody', unlockWhen(unlockAt)) : null}
          </Alert>
          <p className="text-body text-mist-700">{t('protection.notYou')}</p>
          <Button block loading={busy} onClick={() => void cancel()}>
            {t('protection.cancelUnlock')}
          </Button>
        </>
      )}
      {state === 'unlocked' && (
        <>
          <p className="text-body text-mist-700">{t('protection.unlockedBody')}</p>
          <Button block loading={busy} onClick={() => void lock()}>
            {t('protection.lockNow')}
          </Button>
        </>
      )}
      <p className="text-caption text-mist-500">{t('protection.lead')}</p>
    </Card>
  );
}

function PortOutCard({ data }: { data: LineProtection }) {
  const { t } = useTranslation();
  const { http } = useAppServices();
  const f = useFormatters();
  const modal = useModal();
  const errorMessage = useErrorMessage();
  const store = useStoreProtection(data.lineId);
  // Shown once: kept only in this screen's state, never cached or fetched again.
  const [code, setCode] = useState<PortOutCodeResponse | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const hasCode = code !== null || data.portOutCode !== null;

  const create = async () => {
    if (busy) return;
    if (hasCode) {
      const confirmed = await modal.confirm({
        title: t('protection.portOut.replaceTitle'),
        message: t('protection.portOut.replaceMessage'),
        confirmLabel: t('protection.portOut.replaceConfirm'),
      });
      if (!confirmed) return;
    }
    setBusy(true);
    setError(null);
    const result = await createPortOutCode(http, data.lineId);
    setBusy(false);
    if (!result.ok) {
      setError(errorMessage(result.error));
      return;
    }
    setCode(result.data);
    store({
      ...data,
      portOutCode: { createdAt: result.data.createdAt, expiresAt: result.data.expiresAt },
    });
  };

  return (
    <Card className="flex flex-col gap-4" role="region" aria-labelledby="port-out-title">
      <h2 id="port-out-title" className="text-lead font-bold text-ocean-950">
        {t('protection.portOut.title')}
      </h2>
      <p className="text-body text-mist-700">{t('protection.portOut.lead')}</p>
      {code ? (
        <ShownCode code={code} expires={f.date(code.expiresAt)} />
      ) : (
        <p className="text-body text-mist-700">
          {data.portOutCode
            ? t('protection.portOut.active', { date: f.date(data.portOutCode.expiresAt) })
            : t('protection.portOut.none')}
        </p>
      )}
      {data.lock.state !== 'unlocked' && (
        <p className="text-caption text-mist-500">{t('protection.portOut.lockedHint')}</p>
      )}
      {error && <Alert tone="error">{error}</Alert>}
      <Button
        block
        variant={hasCode ? 'secondary' : 'primary'}
        loading={busy}
        onClick={() => void create()}
      >
        {hasCode ? t('protection.portOut.createNew') : t('protection.portOut.create')}
      </Button>
    </Card>
  );
}

/** The new code, this once, with a copy button and what it may be used for. */
function ShownCode({ code, expires }: { code: PortOutCodeResponse; expires: string }) {
  const { t } = useTranslation();
  const toast = useToast();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(code.code);
      toast.show({ type: 'info', message: t('protection.portOut.copied') });
    } catch {
      toast.show({ type: 'error', message: t('protection.portOut.copyFailed') });
    }
  };
  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-col gap-1.5">
        <span className="text-caption font-semibold text-mist-700">
          {t('protection.portOut.codeLabel')}
        </span>
        <div className="flex items-center gap-2 rounded-control border border-mist-300 bg-white py-1 pr-1 pl-4">
          <code
            data-testid="port-out-code"
            className="min-w-0 flex-1 text-lead font-bold tracking-wider break-all text-mist-900"
          >
            {code.code}
          </code>
          <button
            type="button"
            onClick={() => void copy()}
            aria-label={t('protection.portOut.copyLabel')}
            className={buttonClasses({ variant: 'secondary', size: 'md' })}
          >
            {t('protection.portOut.copy')}
          </button>
        </div>
      </div>
      <Alert tone="warning">{t('protection.portOut.shownOnce')}</Alert>
      <p className="text-caption text-mist-600">
        {t('protection.portOut.rules', { days: PORT_OUT_CODE_DAYS, date: expires })}
      </p>
    </div>
  );
}

function NumberDetails({ data }: { data: LineProtection }) {
  const { t } = useTranslation();
  const f = useFormatters();
  return (
    <DetailList>
      <DetailRow label={t('protection.number')}>{formatPhoneNumber(data.phoneNumber)}</DetailRow>
      <DetailRow label={t('protection.simChanged')}>
        {data.simChangedAt ? f.date(data.simChangedAt) : t('protection.simNever')}
      </DetailRow>
    </DetailList>
  );
}
