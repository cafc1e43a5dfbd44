import type { ReactNode } from 'react';
import { cx } from '../cx';

/** A small label with a tone: the state of a status message, a content version, … */
export type BadgeTone = 'success' | 'warning' | 'danger' | 'neutral' | 'info';

const TONES: Record<BadgeTone, string> = {
  success: 'bg-success-50 text-success-600 ring-success-600/25',
  warning: 'bg-warning-50 text-warning-600 ring-warning-600/25',
  danger: 'bg-danger-50 text-danger-700 ring-danger-600/25',
  neutral: 'bg-mist-100 text-mist-700 ring-mist-300',
  info: 'bg-ocean-50 text-ocean-800 ring-ocean-200',
};

export function Badge({
  tone,
  icon,
  children,
  className,
}: {
  tone: BadgeTone;
  icon?: ReactNode;
  children: ReactNode;
  className?: string;
}) {
  return (
    <span
      className={cx(
        'inline-flex items-center gap-1.5 rounded-full px-2.5 py-0.5 text-caption font-semibold whitespace-nowrap ring-1 ring-inset',
        TONES[tone],
        className,
      )}
    >
      {icon}
      {children}
    </span>
  );
}
