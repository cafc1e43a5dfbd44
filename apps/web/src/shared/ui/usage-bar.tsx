import { cx } from './cx';

export interface UsageBarProps {
  /** Share that is left, 0–1. */
  fraction: number;
  label: string;
  valueText: string;
  tone?: 'fjord' | 'ocean' | 'puffin';
  className?: string;
}

const fills = {
  fjord: 'bg-linear-to-r from-fjord-400 to-fjord-600',
  ocean: 'bg-linear-to-r from-ocean-400 to-ocean-700',
  puffin: 'bg-linear-to-r from-puffin-300 to-puffin-500',
} as const;

/** A slim horizontal meter (data left of a member, EU data left), role="meter". */
export function UsageBar({ fraction, label, valueText, tone = 'fjord', className }: UsageBarProps) {
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
      className={cx('h-2 w-full overflow-hidden rounded-full bg-mist-100', className)}
    >
      <div
        className={cx('h-full rounded-full transition-[width] duration-700 ease-out', fills[tone])}
        style={{ width: `${percent}%` }}
      />
    </div>
  );
}
