import { forwardRef, useId, useState, type InputHTMLAttributes } from 'react';
import { PIN_LENGTH } from '@alda/contract/constants';
import { cx } from '@/shared/ui/cx';

export interface PinInputProps extends Omit<
  InputHTMLAttributes<HTMLInputElement>,
  'id' | 'value' | 'onChange' | 'type'
> {
  label: string;
  value: string;
  onChange: (digits: string) => void;
  error?: string;
}

/**
 * The one-time code as PIN_LENGTH boxes. One real input lies over the boxes (transparent), so
 * paste, SMS autofill (autocomplete one-time-code), screen readers and form tools all see a single
 * ordinary field; the boxes only draw its digits.
 */
export const PinInput = forwardRef<HTMLInputElement, PinInputProps>(function PinInput(
  { label, value, onChange, error, onFocus, onBlur, className, ...props },
  ref,
) {
  const id = useId();
  const [focused, setFocused] = useState(false);
  const digits = value.split('');
  const activeIndex = Math.min(value.length, PIN_LENGTH - 1);
  return (
    <div className={cx('flex flex-col gap-1.5', className)}>
      <label htmlFor={id} className="text-caption font-semibold text-mist-700">
        {label}
      </label>
      <div className="relative">
        <input
          ref={ref}
          id={id}
          type="text"
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9]*"
          maxLength={PIN_LENGTH}
          value={value}
          onChange={(e) => {
            const digits = e.currentTarget.value.replace(/\D/g, '').slice(0, PIN_LENGTH);
            onChange(digits);
          }}
          onFocus={(e) => {
            setFocused(true);
            onFocus?.(e);
          }}
          onBlur={(e) => {
            setFocused(false);
            onBlur?.(e);
          }}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          className="absolute inset-0 z-10 h-full w-full cursor-text text-transparent caret-transparent opacity-0 focus:outline-none"
          {...props}
        />
        <div aria-hidden="true" className="grid grid-cols-6 gap-2">
          {Array.from({ length: PIN_LENGTH }, (_, index) => {
            const active = focused && index === activeIndex;
            return (
              <span
                key={index}
                className={cx(
                  'flex h-15 items-center justify-center rounded-control border bg-white text-title font-bold text-ocean-950 tabular-nums transition-colors',
                  error
                    ? 'border-danger-600'
                    : active
                      ? 'border-fjord-500 ring-4 ring-fjord-100'
                      : digits[index]
                        ? 'border-ocean-300'
                        : 'border-mist-300',
                )}
              >
                {digits[index] ?? ''}
                {active && !digits[index] && (
                  <span className="h-6 w-0.5 animate-pulse rounded-full bg-fjord-500" />
                )}
              </span>
            );
          })}
        </div>
      </div>
      {error && (
        <p id={`${id}-error`} className="text-caption font-medium text-danger-600">
          {error}
        </p>
      )}
    </div>
  );
});
