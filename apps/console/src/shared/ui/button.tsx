import type { ButtonHTMLAttributes, ReactNode } from 'react';
import { LoaderCircle } from 'lucide-react';
import { cx } from '../cx';

type Variant = 'primary' | 'secondary' | 'ghost' | 'danger';

const VARIANTS: Record<Variant, string> = {
  primary: 'bg-ocean-700 text-white hover:bg-ocean-800 disabled:bg-ocean-600',
  secondary:
    'border border-mist-300 bg-white text-ocean-900 hover:border-ocean-300 hover:bg-ocean-50 disabled:text-mist-600',
  ghost: 'text-ocean-800 hover:bg-mist-100 disabled:text-mist-600',
  danger: 'bg-danger-600 text-white hover:bg-danger-700 disabled:bg-danger-600',
};

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: Variant;
  size?: 'md' | 'sm';
  /** Shows a spinner, keeps the button from a second click and tells assistive technology. */
  pending?: boolean;
  icon?: ReactNode;
}

/** The console's button: one primary action per form, secondary and ghost for the rest. */
export function Button({
  variant = 'primary',
  size = 'md',
  pending = false,
  icon,
  disabled,
  className,
  children,
  type = 'button',
  ...props
}: ButtonProps) {
  return (
    <button
      type={type}
      disabled={disabled || pending}
      aria-busy={pending || undefined}
      className={cx(
        'inline-flex items-center justify-center gap-2 rounded-lg font-semibold whitespace-nowrap transition-colors disabled:cursor-not-allowed',
        size === 'md' ? 'min-h-11 px-4 text-body' : 'min-h-9 px-3 text-caption',
        VARIANTS[variant],
        className,
      )}
      {...props}
    >
      {pending ? <LoaderCircle aria-hidden="true" className="size-4 animate-spin" /> : icon}
      {children}
    </button>
  );
}
