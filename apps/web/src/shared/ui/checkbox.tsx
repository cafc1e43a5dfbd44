import { forwardRef, useId, type InputHTMLAttributes, type ReactNode } from 'react';
import { cx } from './cx';
import { CheckIcon } from './icons';

export interface CheckboxProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'id'> {
  label: ReactNode;
  /** More text under the label. */
  description?: ReactNode;
  /** Inline error under the box (e.g. a required acceptance, SPEC §5 MUST_ACCEPT). */
  error?: string;
}

/**
 * A labelled native checkbox drawn as a rounded box with a tick, wired for screen readers
 * (aria-invalid, aria-describedby); the whole row is its label, so it is easy to hit on a phone.
 */
export const Checkbox = forwardRef<HTMLInputElement, CheckboxProps>(function Checkbox(
  { label, description, error, className, ...props },
  ref,
) {
  const id = useId();
  const describedBy =
    [description && `${id}-description`, error && `${id}-error`].filter(Boolean).join(' ') ||
    undefined;
  return (
    <div className={cx('flex flex-col gap-1.5', className)}>
      <label htmlFor={id} className="flex cursor-pointer items-start gap-3">
        <span className="relative mt-0.5 inline-flex shrink-0">
          <input
            ref={ref}
            id={id}
            type="checkbox"
            aria-invalid={error ? true : undefined}
            aria-describedby={describedBy}
            className={cx(
              'peer size-6 cursor-pointer appearance-none rounded-md border-2 bg-white transition-colors',
              'checked:border-fjord-500 checked:bg-fjord-500',
              'focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-fjord-400',
              error ? 'border-danger-600' : 'border-mist-400',
            )}
            {...props}
          />
          <CheckIcon
            className="pointer-events-none absolute inset-0 m-auto hidden size-4 text-white peer-checked:block"
            strokeWidth={3}
          />
        </span>
        <span className="text-body font-medium text-mist-900">{label}</span>
      </label>
      {/* Outside the label, so a link in it (the terms) does not tick the box. */}
      {description && (
        <div id={`${id}-description`} className="pl-9 text-caption text-mist-500">
          {description}
        </div>
      )}
      {error && (
        <p id={`${id}-error`} className="pl-9 text-caption font-medium text-danger-600">
          {error}
        </p>
      )}
    </div>
  );
});
