import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { cx } from './cx';
import { ChevronRightIcon } from './icons';

export interface ListRowProps {
  icon?: ReactNode;
  label: string;
  value?: ReactNode;
}

const rowClasses =
  'flex min-h-15 w-full items-center gap-4 px-4 py-3 text-left transition-colors hover:bg-mist-50 active:bg-mist-100';

function RowContent({
  icon,
  label,
  value,
  chevron,
  tone,
}: ListRowProps & { chevron: boolean; tone?: 'danger' }) {
  return (
    <>
      {icon && (
        <span
          className={cx(
            'flex size-10 shrink-0 items-center justify-center rounded-full',
            tone === 'danger' ? 'bg-danger-50 text-danger-600' : 'bg-ocean-50 text-ocean-700',
          )}
        >
          {icon}
        </span>
      )}
      <span
        className={cx(
          'min-w-0 flex-1 text-body font-medium',
          tone === 'danger' ? 'text-danger-600' : 'text-mist-900',
        )}
      >
        {label}
      </span>
      {value && <span className="min-w-0 text-right text-caption text-mist-500">{value}</span>}
      {chevron && <ChevronRightIcon className="size-5 shrink-0 text-mist-400" />}
    </>
  );
}

/** A row of a grouped list that navigates. */
export function ListRowLink({ to, ...props }: ListRowProps & { to: string }) {
  return (
    <Link to={to} className={rowClasses}>
      <RowContent {...props} chevron />
    </Link>
  );
}

/** A row of a grouped list that acts (e.g. log out). */
export function ListRowButton({
  onClick,
  tone,
  ...props
}: ListRowProps & { onClick: () => void; tone?: 'danger' }) {
  return (
    <button type="button" onClick={onClick} className={rowClasses}>
      <RowContent {...props} tone={tone} chevron={false} />
    </button>
  );
}

/** A white rounded group of rows separated by hairlines. */
export function ListGroup({ title, children }: { title?: string; children: ReactNode }) {
  return (
    <section className="flex flex-col gap-2">
      {title && (
        <h2 className="px-1 text-caption font-semibold tracking-wide text-mist-500 uppercase">
          {title}
        </h2>
      )}
      <div className="divide-y divide-mist-100 overflow-hidden rounded-card bg-white shadow-card">
        {children}
      </div>
    </section>
  );
}
