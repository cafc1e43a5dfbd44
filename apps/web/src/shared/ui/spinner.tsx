import { cx } from './cx';
import { SPINNER_ARC } from './splash-markup';

/** An indeterminate spinner; decorative — pair it with text or aria-busy on the region. */
export function Spinner({ className }: { className?: string }) {
  return (
    <svg
      viewBox="0 0 24 24"
      aria-hidden="true"
      className={cx('animate-spin', className ?? 'size-6')}
    >
      <circle
        cx="12"
        cy="12"
        r="9"
        fill="none"
        stroke="currentColor"
        strokeOpacity="0.2"
        strokeWidth="3"
      />
      <path
        d={SPINNER_ARC}
        fill="none"
        stroke="currentColor"
        strokeWidth="3"
        strokeLinecap="round"
      />
    </svg>
  );
}
