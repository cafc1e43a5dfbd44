import { useId, type ComponentProps, type ReactNode } from 'react';
import { cx } from '../cx';

/** What a field's control is given to be wired to its label, hint and error. */
export interface FieldControlProps {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

/** A field's texts: its label, its hint and its error. */
export interface FieldTexts {
  label: string;
  /** Shown under the field and read with it. */
  hint?: string;
  /** Marks the field invalid and says why (read with it). */
  error?: string | null;
}

export interface FieldFrameProps extends FieldTexts {
  className?: string;
  /** The control (input, textarea, select), given its id and ARIA attributes. */
  children: (control: FieldControlProps) => ReactNode;
}

/**
 * A field's label, hint and error around its control, wired for assistive technology: the
 * control is labelled, described by the hint and the error, and invalid while there is an error.
 */
export function FieldFrame({ label, hint, error, className, children }: FieldFrameProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ');
  return (
    <div className={cx('flex flex-col gap-1.5', className)}>
      <label htmlFor={id} className="text-caption font-semibold text-mist-800">
        {label}
      </label>
      {children({
        id,
        'aria-invalid': error ? true : undefined,
        'aria-describedby': describedBy || undefined,
      })}
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

export interface TextFieldProps extends Omit<ComponentProps<'input'>, 'id'>, FieldTexts {}

/** A labelled input with its hint and error, wired for assistive technology. */
export function TextField({ label, hint, error, className, ...input }: TextFieldProps) {
  return (
    <FieldFrame label={label} hint={hint} error={error} className={className}>
      {(control) => (
        <input
          {...control}
          className={cx(
            'min-h-11 rounded-lg border bg-white px-3 text-body text-mist-900 placeholder:text-mist-500',
            'focus-visible:border-fjord-500',
            error ? 'border-danger-600' : 'border-mist-300 hover:border-mist-400',
          )}
          {...input}
        />
      )}
    </FieldFrame>
  );
}
