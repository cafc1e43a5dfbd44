import { useId, type ReactNode } from 'react';
import { cx } from './cx';

export interface DataRingProps {
  /** Share of the allowance that is left, 0–1 (1 for an unlimited allowance). */
  fraction: number;
  /** Accessible name, e.g. 'Data left in the Faroe Islands'. */
  label: string;
  /** What a screen reader says for the value, e.g. '12.5 GB left of 20 GB'. */
  valueText: string;
  /** Diameter in px. */
  size?: number;
  /** 'low' turns the ring warm when little is left. */
  tone?: 'normal' | 'low';
  /** The text in the middle of the ring. */
  children?: ReactNode;
  className?: string;
}

/**
 * A ring meter of data left: the coloured arc is what remains of the month's allowance, the grey
 * track what has been used. Exposed as role="meter" so assistive technology reads the value.
 */
export function DataRing({
  fraction,
  label,
  valueText,
  size = 200,
  tone = 'normal',
  children,
  className,
}: DataRingProps) {
  // useId's characters (':', '«') are not valid in a url(#…) reference.
  const gradientId = `ring${useId().replace(/[^a-zA-Z0-9_-]/g, '')}`;
  const stroke = Math.round(size * 0.075);
  const radius = (size - stroke) / 2;
  const circumference = 2 * Math.PI * radius;
  const clamped = Math.min(1, Math.max(0, Number.isFinite(fraction) ? fraction : 0));
  const percent = Math.round(clamped * 100);
  return (
    <div
      role="meter"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      aria-valuetext={valueText}
      className={cx('relative inline-flex items-center justify-center', className)}
      style={{ width: size, height: size }}
    >
      <svg
        viewBox={`0 0 ${size} ${size}`}
        width={size}
        height={size}
        aria-hidden="true"
        focusable="false"
        className="-rotate-90"
      >
        <defs>
          <linearGradient id={gradientId} x1="0" y1="0" x2="1" y2="1">
            {tone === 'low' ? (
              <>
                <stop offset="0%" stopColor="var(--color-puffin-300)" />
                <stop offset="100%" stopColor="var(--color-puffin-600)" />
              </>
            ) : (
              <>
                <stop offset="0%" stopColor="var(--color-fjord-300)" />
                <stop offset="100%" stopColor="var(--color-fjord-600)" />
              </>
            )}
          </linearGradient>
        </defs>
        <circle
          cx={size / 2}
          cy={size / 2}
          r={radius}
          fill="none"
          stroke="var(--color-mist-100)"
          strokeWidth={stroke}
        />
        {clamped > 0 && (
          <circle
            cx={size / 2}
            cy={size / 2}
            r={radius}
            fill="none"
            stroke={`url(#${gradientId})`}
            strokeWidth={stroke}
            strokeLinecap="round"
            strokeDasharray={circumference}
            strokeDashoffset={circumference * (1 - clamped)}
            className="transition-[stroke-dashoffset] duration-700 ease-out"
          />
        )}
      </svg>
      <div className="absolute inset-0 flex flex-col items-center justify-center px-6 text-center">
        {children}
      </div>
    </div>
  );
}
