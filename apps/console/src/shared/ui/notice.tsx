import type { ReactNode } from 'react';
import { CircleAlert, CircleCheck, Info } from 'lucide-react';
import { cx } from '../cx';

type Tone = 'danger' | 'info' | 'success';

const TONES: Record<Tone, { box: string; icon: typeof Info }> = {
  danger: { box: 'border-danger-600/30 bg-danger-50 text-danger-700', icon: CircleAlert },
  info: { box: 'border-ocean-200 bg-ocean-50 text-ocean-900', icon: Info },
  success: { box: 'border-success-600/30 bg-success-50 text-success-600', icon: CircleCheck },
};

/**
 * A message box. `danger` is an alert (read at once when it appears); the others are a polite
 * status.
 */
export function Notice({
  tone = 'info',
  children,
  className,
}: {
  tone?: Tone;
  children: ReactNode;
  className?: string;
}) {
  const { box, icon: Icon } = TONES[tone];
  return (
    <div
      role={tone === 'danger' ? 'alert' : 'status'}
      className={cx(
        'flex items-start gap-2.5 rounded-lg border px-3.5 py-3 text-caption',
        box,
        className,
      )}
    >
      <Icon aria-hidden="true" className="mt-px size-4 shrink-0" />
      <div className="min-w-0 font-medium">{children}</div>
    </div>
  );
}
