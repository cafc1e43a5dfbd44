import { useEffect, useState } from 'react';

/** The dark modules of a QR symbol as one SVG path, one unit square per module. */
export function qrModulesPath(modules: {
  size: number;
  get(row: number, col: number): number | boolean;
}): string {
  const parts: string[] = [];
  for (let row = 0; row < modules.size; row++)
    for (let col = 0; col < modules.size; col++)
      if (modules.get(row, col)) parts.push(`M${col} ${row}h1v1h-1z`);
  return parts.join('');
}

/** The quiet zone around the symbol, in modules (ISO/IEC 18004 asks for 4). */
const QUIET = 4;

type State = { value: string } & ({ kind: 'ready'; size: number; d: string } | { kind: 'failed' });

/**
 * A QR code of `value` drawn as SVG (as the customer app's eSIM code, apps/web): the encoder
 * (`qrcode`) is loaded only when a code is shown. Error correction M: a phone camera reads it off
 * a screen with glare.
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
  const [state, setState] = useState<State | null>(null);

  useEffect(() => {
    let live = true;
    import('qrcode')
      .then((qr) => {
        const { modules } = qr.create(value, { errorCorrectionLevel: 'M' });
        if (live) setState({ value, kind: 'ready', size: modules.size, d: qrModulesPath(modules) });
      })
      .catch(() => {
        if (live) setState({ value, kind: 'failed' });
      });
    return () => {
      live = false;
    };
  }, [value]);

  if (state === null || state.value !== value)
    return (
      <div
        role="status"
        className="flex aspect-square w-full max-w-56 items-center justify-center rounded-xl bg-mist-100 text-caption text-mist-600"
      >
        {loadingText}
      </div>
    );
  if (state.kind === 'failed') return <p className="text-body text-danger-600">{failedText}</p>;
  const side = state.size + 2 * QUIET;
  return (
    <svg
      role="img"
      aria-label={label}
      viewBox={`${-QUIET} ${-QUIET} ${side} ${side}`}
      shapeRendering="crispEdges"
      className="aspect-square w-full max-w-56 rounded-xl bg-white ring-1 ring-mist-200"
    >
      <rect x={-QUIET} y={-QUIET} width={side} height={side} fill="#fff" />
      <path d={state.d} fill="#000" data-testid="qr-modules" />
    </svg>
  );
}
