import { QrSvg, useQrSymbol } from '../../../../web/src/features/sim/qr-symbol';

/**
 * A QR code of `value` (the `otpauth://` URI of an enrolment), drawn as SVG with the customer
 * app's code (its eSIM QR code), with the console's own texts for loading and failure.
 */
export function QrCode({
  value,
  label,
  loadingText,
  failedText,
}: {
  value: string;
  /** The image's accessible name. */
  label: string;
  loadingText: string;
  failedText: string;
}) {
  const symbol = useQrSymbol(value);
  if (symbol === null)
    return (
      <div
        role="status"
        className="flex aspect-square w-full max-w-56 items-center justify-center rounded-xl bg-mist-100 text-caption text-mist-600"
      >
        {loadingText}
      </div>
    );
  if (symbol.kind === 'failed') return <p className="text-body text-danger-600">{failedText}</p>;
  return (
    <QrSvg
      symbol={symbol}
      label={label}
      className="aspect-square w-full max-w-56 rounded-xl bg-white ring-1 ring-mist-200"
    />
  );
}
