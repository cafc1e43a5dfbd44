import { useEffect, useState } from 'react';

/*
 * Drawing a QR code as SVG, for the customer app's eSIM code and the staff console's TOTP
 * enrolment (which imports this file): the encoder (`qrcode`) is loaded only when a code is
 * shown, so it stays out of the other screens' download. Error correction M: a phone camera reads
 * it off a screen with glare. Each app says "loading" and "failed" in its own words.
 */

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

export type QrSymbol = { kind: 'ready'; size: number; d: string } | { kind: 'failed' };

/** The symbol of `value`, or `null` while it is being made. */
export function useQrSymbol(value: string): QrSymbol | null {
  // The drawn symbol of one value (a state of another value means this one is still loading).
  const [state, setState] = useState<({ value: string } & QrSymbol) | null>(null);

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

  return state === null || state.value !== value ? null : state;
}

/** A ready symbol as an image named `label`, on white with its quiet zone. */
export function QrSvg({
  symbol,
  label,
  className,
}: {
  symbol: Extract<QrSymbol, { kind: 'ready' }>;
  label: string;
  className: string;
}) {
  const side = symbol.size + 2 * QUIET;
  return (
    <svg
      role="img"
      aria-label={label}
      viewBox={`${-QUIET} ${-QUIET} ${side} ${side}`}
      shapeRendering="crispEdges"
      className={className}
    >
      <rect x={-QUIET} y={-QUIET} width={side} height={side} fill="#fff" />
      <path d={symbol.d} fill="#000" data-testid="qr-modules" />
    </svg>
  );
}
