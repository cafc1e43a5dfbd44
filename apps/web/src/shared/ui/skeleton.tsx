import { cx } from './cx';

/** A grey placeholder block shown while content loads. */
export function Skeleton({ className }: { className?: string }) {
  return (
    <div aria-hidden="true" className={cx('animate-pulse rounded-lg bg-mist-200', className)} />
  );
}
