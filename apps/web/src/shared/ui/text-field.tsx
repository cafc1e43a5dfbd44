import { forwardRef, useId, type InputHTMLAttributes, type ReactNode } from 'react';
import { cx } from './cx';

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  label: string;
  /** Inline error under the field; also marks the input invalid. */
  error?: string;
  hint?: string;
  /** A control inside the field's right edge (e.g. show password). */
  trailing?: ReactNode;
  /**
   * Marks the input invalid without showing `error` under it: for fields in a row whose
   * messages are shown below the row (ids in `describedBy`).
   */
  invalid?: boolean;
  /** Ids of further elements that describe the input (messages outside the field). */
  describedBy?: string;
}

/** A labelled input with an inline error, wired for screen readers (aria-invalid, aria-describedby). */
export const TextField = forwardRef<HTMLInputElement, TextFieldProps>(function TextField(
  { label, error, hint, trailing, invalid, describedBy: extraDescribedBy, className, ...props },
  ref,
) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy =
    [hint && !error && hintId, error && errorId, extraDescribedBy].filter(Boolean).join(' ') ||
    undefined;
  const isInvalid = Boolean(error) || invalid === true;
  return (
    <div className={cx('flex flex-col gap-1.5', className)}>
      <label htmlFor={id} className="text-caption font-semibold text-mist-700">
        {label}
      </label>
      <div className="relative">
        <input
          ref={ref}
          id={id}
          aria-invalid={isInvalid ? true : undefined}
          aria-describedby={describedBy}
          className={cx(
            'block min-h-13 w-full rounded-control border bg-white px-4 text-lead text-mist-900 transition-colors',
            'placeholder:text-mist-500 focus:outline-none focus-visible:outline-none focus:ring-4',
            isInvalid
              ? 'border-danger-600 focus:ring-danger-50'
              : 'border-mist-300 focus:border-fjord-500 focus:ring-fjord-100',
            trailing ? 'pr-13' : undefined,
          )}
          {...props}
        />
        {trailing && <div className="absolute inset-y-0 right-1 flex items-center">{trailing}</div>}
      </div>
      {hint && !error && (
        <p id={hintId} className="text-caption text-mist-500">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="text-caption font-medium text-danger-600">
          {error}
        </p>
      )}
    </div>
  );
});
