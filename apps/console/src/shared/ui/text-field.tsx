import { useId, type InputHTMLAttributes } from 'react';
import { cx } from '../cx';

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  label: string;
  /** Shown under the field and read with it. */
  hint?: string;
  /** Marks the field invalid and says why (read with it). */
  error?: string | null;
}

/** A labelled input with its hint and error, wired for assistive technology. */
export function TextField({ label, hint, error, className, ...input }: TextFieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ');
  return (
    <div className={cx('flex flex-col gap-1.5', className)}>
      <label htmlFor={id} className="text-caption font-semibold text-mist-800">
        {label}
      </label>
      <input
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy || undefined}
        className={cx(
          'min-h-11 rounded-lg border bg-white px-3 text-body text-mist-900 placeholder:text-mist-500',
          'focus-visible:border-fjord-500',
          error ? 'border-danger-600' : 'border-mist-300 hover:border-mist-400',
        )}
        {...input}
      />
      {hint ? (
        <p id={hintId} className="text-caption text-mist-600">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="text-caption font-medium text-danger-600">
          {error}
        </p>
      ) : null}
    </div>
  );
}
