import { useTranslation } from 'react-i18next';
import { Skeleton } from '@/shared/ui/skeleton';
import { QrSvg, useQrSymbol } from './qr-symbol';

/** A QR code of `value` (the eSIM's activation code), drawn as SVG (qr-symbol.tsx). */
export function QrCode({ value, label }: { value: string; label: string }) {
  const { t } = useTranslation();
  const symbol = useQrSymbol(value);
  if (symbol === null) return <Skeleton className="aspect-square w-full max-w-64 rounded-2xl" />;
  if (symbol.kind === 'failed')
    return <p className="text-body text-danger-600">{t('sim.esim.qrFailed')}</p>;
  return (
    <QrSvg
      symbol={symbol}
      label={label}
      className="aspect-square w-full max-w-64 rounded-2xl bg-white"
    />
  );
}
