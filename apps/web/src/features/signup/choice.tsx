import type { ReactNode } from 'react';
import { cx } from '@/shared/ui/cx';
import { CheckIcon } from '@/shared/ui/icons';

/** A group of choice cards (one may be chosen), as the purchase screens draw them. */
export function ChoiceGroup({
  label,
  children,
  className,
}: {
  label: string;
  children: ReactNode;
  className?: string;
}) {
  return (
    <div role="radiogroup" aria-label={label} className={cx('flex flex-col gap-2', className)}>
      {children}
    </div>
  );
}

/** One choice card: a title, an optional line under it and what belongs to it when chosen. */
export function ChoiceCard({
  selected,
  onSelect,
  title,
  hint,
  aside,
  icon,
}: {
  selected: boolean;
  onSelect: () => void;
  title: ReactNode;
  hint?: ReactNode;
  /** Right-hand side, e.g. the price. */
  aside?: ReactNode;
  icon?: ReactNode;
}) {
  return (
    <button
      type="button"
      role="radio"
      aria-checked={selected}
      onClick={onSelect}
      className={cx(
        'flex w-full items-start gap-3 rounded-2xl px-4 py-3 text-left shadow-card ring-2 transition-colors',
        selected ? 'bg-ocean-50 ring-ocean-700' : 'bg-white ring-transparent hover:bg-mist-50',
      )}
    >
      {icon && (
        <span className="mt-0.5 flex size-10 shrink-0 items-center justify-center rounded-full bg-ocean-100 text-ocean-800">
          {icon}
        </span>
      )}
      <span className="flex min-w-0 flex-1 flex-col gap-1">
        <span className="text-lead font-bold text-ocean-950">{title}</span>
        {hint && <span className="text-caption text-mist-600">{hint}</span>}
      </span>
      {aside}
      <span
        aria-hidden="true"
        className={cx(
          'mt-1 flex size-5 shrink-0 items-center justify-center rounded-full border-2',
          selected ? 'border-ocean-700 bg-ocean-700 text-white' : 'border-mist-300',
        )}
      >
        {selected && <CheckIcon className="size-3.5" strokeWidth={3} />}
      </span>
    </button>
  );
}

/** A small heading over a part of a step. */
export function StepHeading({ children, id }: { children: ReactNode; id?: string }) {
  return (
    <h2 id={id} className="text-title font-bold text-ocean-950">
      {children}
    </h2>
  );
}
