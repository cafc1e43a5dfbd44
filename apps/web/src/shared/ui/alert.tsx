import type { ReactNode } from 'react';
import { cx } from './cx';
import { CheckIcon, ErrorIcon, InfoIcon, WarningIcon } from './icons';

export type AlertTone = 'error' | 'warning' | 'info' | 'success';

const tones: Record<AlertTone, { box: string; icon: ReactNode }> = {
  error: {
    box: 'bg-danger-50 text-danger-700',
    icon: <ErrorIcon className="mt-0.5 size-5 shrink-0" />,
  },
  warning: {
    box: 'bg-warning-50 text-warning-600',
    icon: <WarningIcon className="mt-0.5 size-5 shrink-0" />,
  },
  info: {
    box: 'bg-ocean-50 text-ocean-800',
    icon: <InfoIcon className="mt-0.5 size-5 shrink-0" />,
  },
  success: {
    box: 'bg-success-50 text-success-600',
    icon: <CheckIcon className="mt-0.5 size-5 shrink-0" strokeWidth={2.4} />,
  },
};

/**
 * A message inside a screen (a failed submit, a result): icon, optional title, text and links.
 * Errors are announced at once (role alert); the other tones politely (role status).
 */
export function Alert({
  tone,
  title,
  children,
  id,
  className,
}: {
  tone: AlertTone;
  title?: string;
  children?: ReactNode;
  id?: string;
  className?: string;
}) {
  const { box, icon } = tones[tone];
  return (
    <div
      id={id}
      role={tone === 'error' ? 'alert' : 'status'}
      className={cx('flex items-start gap-3 rounded-2xl px-4 py-3 text-body', box, className)}
    >
      {icon}
      <div className="flex min-w-0 flex-1 flex-col gap-1">
        {title && <p className="font-semibold">{title}</p>}
        {children}
      </div>
    </div>
  );
}
