import { useId, type TextareaHTMLAttributes } from 'react';
import { cx } from '../cx';

export interface TextAreaFieldProps extends Omit<
  TextareaHTMLAttributes<HTMLTextAreaElement>,
  'id'
> {
  label: string;
  /** Shown under the field and read with it. */
  hint?: string;
  /** Marks the field invalid and says why (read with it). */
  error?: string | null;
  /** Monospaced text (markdown). */
  code?: boolean;
}

/** A labelled multi-line field with its hint and error, wired as TextField is. */
export function TextAreaField({
  label,
  hint,
  error,
  code = false,
  className,
  ...textarea
}: TextAreaFieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ');
  return (
    <div className={cx('flex flex-col gap-1.5', className)}>
      <label htmlFor={id} className="text-caption font-semibold text-mist-800">
        {label}
      </label>
      <textarea
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy || undefined}
        className={cx(
          'rounded-lg border bg-white px-3 py-2 text-body text-mist-900 placeholder:text-mist-500',
          'focus-visible:border-fjord-500',
          code && 'font-mono text-caption leading-relaxed',
          error ? 'border-danger-600' : 'border-mist-300 hover:border-mist-400',
        )}
        {...textarea}
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
