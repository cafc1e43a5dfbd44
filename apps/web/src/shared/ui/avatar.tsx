import { cx } from './cx';

const palettes = [
  'bg-ocean-100 text-ocean-800',
  'bg-fjord-100 text-fjord-700',
  'bg-puffin-100 text-puffin-600',
  'bg-mist-200 text-mist-800',
] as const;

/** Initials in a circle; the colour follows the name so a person keeps theirs across screens. */
export function Avatar({
  firstname,
  lastname,
  size = 'md',
  className,
}: {
  firstname: string;
  lastname: string;
  size?: 'md' | 'lg';
  className?: string;
}) {
  const initials = `${firstname.trim().charAt(0)}${lastname.trim().charAt(0)}`.toUpperCase();
  let hash = 0;
  for (const char of `${firstname}${lastname}`) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return (
    <span
      aria-hidden="true"
      className={cx(
        'flex shrink-0 items-center justify-center rounded-full font-bold',
        size === 'lg' ? 'size-16 text-heading' : 'size-11 text-body',
        palettes[hash % palettes.length],
        className,
      )}
    >
      {initials || '·'}
    </span>
  );
}
