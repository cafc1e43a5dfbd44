import { forwardRef, useId, type InputHTMLAttributes } from 'react';
import { cx } from './cx';

export interface SwitchProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'id'> {
  label: string;
  description?: string;
}

/**
 * An on/off setting: a native checkbox with role switch (keyboard and form libraries work as for
 * any checkbox), drawn as a track with a knob; a disabled one (saving, or always on) is dimmed.
 */
export const Switch = forwardRef<HTMLInputElement, SwitchProps>(function Switch(
  { label, description, className, onChange, ...props },
  ref,
) {
  const id = useId();
  return (
    <div className={cx('flex items-start gap-4', className)}>
      <div className="flex min-w-0 flex-1 flex-col gap-0.5">
        <label htmlFor={id} className="text-body font-medium text-mist-900">
          {label}
        </label>
        {description && (
          <p id={`${id}-description`} className="text-caption text-mist-500">
            {description}
          </p>
        )}
      </div>
      <span className={cx('relative mt-0.5 inline-flex shrink-0', props.disabled && 'opacity-80')}>
        <input
          ref={ref}
          id={id}
          type="checkbox"
          role="switch"
          aria-describedby={description ? `${id}-description` : undefined}
          className="peer h-7 w-12 cursor-pointer appearance-none disabled:cursor-not-allowed rounded-full bg-mist-300 transition-colors checked:bg-fjord-500 focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-fjord-400"
          {...props}
          onChange={onChange}
        />
        <span
          aria-hidden="true"
          className="pointer-events-none absolute top-0.5 left-0.5 size-6 rounded-full bg-white shadow-card transition-transform peer-checked:translate-x-5"
        />
      </span>
    </div>
  );
});
