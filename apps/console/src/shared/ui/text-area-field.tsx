import type { ComponentProps } from 'react';
import { cx } from '../cx';
import { FieldFrame, type FieldTexts } from './text-field';

export interface TextAreaFieldProps extends Omit<ComponentProps<'textarea'>, 'id'>, FieldTexts {
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
  return (
    <FieldFrame label={label} hint={hint} error={error} className={className}>
      {(control) => (
        <textarea
          {...control}
          className={cx(
            'rounded-lg border bg-white px-3 py-2 text-body text-mist-900 placeholder:text-mist-500',
            'focus-visible:border-fjord-500',
            code && 'font-mono text-caption leading-relaxed',
            error ? 'border-danger-600' : 'border-mist-300 hover:border-mist-400',
          )}
          {...textarea}
        />
      )}
    </FieldFrame>
  );
}
