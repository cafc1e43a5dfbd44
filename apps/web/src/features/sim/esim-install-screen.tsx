import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { formatPhoneNumber } from '@alda/contract/format/phone';
import { EmptyState, QueryPending } from '@/shared/account/screen-states';
import { useSimQuery } from '@/shared/sim/sim-api';
import { isIosDevice } from '@/shared/sim/platform';
import { SimIcon } from '@/shared/ui/account-icons';
import { buttonClasses } from '@/shared/ui/button';
import { Card } from '@/shared/ui/card';
import { ScreenBody, ScreenHeader } from '@/shared/ui/screen';
import { useToast } from '@/shared/ui/toast/toast-context';
import { QrCode } from './qr-code';

/**
 * /sim-kort/:lineId/esim: install the eSIM of a number (ADR 0055). The activation code
 * `LPA:1$<SM-DP+>$<matching id>` as a QR code to scan from another screen; on an iPhone Apple's
 * one-tap install link; elsewhere (Android) the SM-DP+ address and the activation code to copy
 * into the phone's "add eSIM" screen by hand.
 */
export function EsimInstallScreen() {
  const { lineId = '' } = useParams();
  const { t } = useTranslation();
  const sim = useSimQuery(lineId);
  const ios = isIosDevice();

  const body = () => {
    if (sim.data === undefined) return <QueryPending query={sim} />;
    const { esim, phoneNumber } = sim.data;
    if (!esim)
      return (
        <EmptyState
          icon={<SimIcon />}
          title={t('sim.esim.noneTitle')}
          body={t('sim.esim.noneBody', { number: formatPhoneNumber(phoneNumber) })}
        />
      );
    return (
      <>
        <p className="text-body text-mist-700">
          {t('sim.esim.intro', { number: formatPhoneNumber(phoneNumber) })}
        </p>
        {esim.installed && (
          <p className="rounded-2xl bg-success-50 px-3 py-2 text-caption text-success-600">
            {t('sim.esim.alreadyInstalled')}
          </p>
        )}
        {ios && (
          <Card className="flex flex-col gap-3">
            <h2 className="text-lead font-bold text-ocean-950">{t('sim.esim.iosTitle')}</h2>
            <p className="text-body text-mist-600">{t('sim.esim.iosBody')}</p>
            <a
              href={esim.iosInstallUrl}
              target="_blank"
              rel="noopener noreferrer"
              className={buttonClasses({ variant: 'primary', block: true })}
            >
              {t('sim.esim.iosButton')}
            </a>
          </Card>
        )}
        <Card className="flex flex-col items-center gap-3">
          <h2 className="self-start text-lead font-bold text-ocean-950">{t('sim.esim.qrTitle')}</h2>
          <p className="self-start text-body text-mist-600">{t('sim.esim.qrBody')}</p>
          <QrCode
            value={esim.activationCode}
            label={t('sim.esim.qrLabel', { number: formatPhoneNumber(phoneNumber) })}
          />
        </Card>
        {!ios && (
          <Card className="flex flex-col gap-4">
            <h2 className="text-lead font-bold text-ocean-950">{t('sim.esim.manualTitle')}</h2>
            <p className="text-body text-mist-600">{t('sim.esim.manualBody')}</p>
            <CopyField label={t('sim.esim.smdpAddress')} value={esim.smdpAddress} />
            <CopyField label={t('sim.esim.activationCode')} value={esim.matchingId} />
          </Card>
        )}
      </>
    );
  };

  return (
    <main className="min-h-dvh bg-mist-50">
      <ScreenHeader title={t('sim.esim.title')} back />
      <ScreenBody>{body()}</ScreenBody>
    </main>
  );
}

/** A value to type into the phone, with a button that copies it. */
function CopyField({ label, value }: { label: string; value: string }) {
  const { t } = useTranslation();
  const toast = useToast();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      toast.show({ type: 'info', message: t('sim.esim.copied', { what: label }) });
    } catch {
      toast.show({ type: 'error', message: t('sim.esim.copyFailed') });
    }
  };
  return (
    <div className="flex flex-col gap-1.5">
      <span className="text-caption font-semibold text-mist-700">{label}</span>
      <div className="flex items-center gap-2 rounded-control border border-mist-300 bg-white py-1 pr-1 pl-4">
        <code className="min-w-0 flex-1 text-body break-all text-mist-900">{value}</code>
        <button
          type="button"
          onClick={() => void copy()}
          aria-label={t('sim.esim.copy', { what: label })}
          className={buttonClasses({ variant: 'secondary', size: 'md' })}
        >
          {t('sim.esim.copyShort')}
        </button>
      </div>
    </div>
  );
}
