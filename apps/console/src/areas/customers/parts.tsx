import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { cx } from '@/shared/cx';

/* Small pieces of the customers area's screens: fact lists, blocks and the view's tabs. */

/** Label–value pairs as a description list. */
export function Facts({
  items,
  className,
}: {
  items: Array<[label: string, value: ReactNode]>;
  className?: string;
}) {
  return (
    <dl
      className={cx(
        'grid content-start self-start grid-cols-[max-content_minmax(0,1fr)] gap-x-4 gap-y-1.5',
        className,
      )}
    >
      {items.map(([label, value]) => (
        <div key={label} className="contents">
          <dt className="text-caption text-mist-600">{label}</dt>
          <dd className="text-caption font-medium break-words text-mist-900">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** A titled block of a tab (an `h2` or `h3`). */
export function Block({
  title,
  level = 2,
  actions,
  children,
}: {
  title: string;
  level?: 2 | 3;
  actions?: ReactNode;
  children: ReactNode;
}) {
  const id = useId();
  const Heading = level === 2 ? 'h2' : 'h3';
  return (
    <section aria-labelledby={id} className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <Heading
          id={id}
          className={cx('font-bold text-ocean-950', level === 2 ? 'text-heading' : 'text-body')}
        >
          {title}
        </Heading>
        {actions ? <div className="flex flex-wrap gap-2">{actions}</div> : null}
      </div>
      {children}
    </section>
  );
}

export interface TabItem<K extends string> {
  key: K;
  label: string;
  /** A count shown beside the label (read with it). */
  count?: number;
  /** Marks the tab as needing attention (a rejected port waiting for the customer). */
  alert?: boolean;
}

/**
 * Tabs as the ARIA pattern has them: a `tablist` of `tab` buttons (arrow keys, Home and End move
 * between them; only the selected one is in the tab order) controlling one `tabpanel`.
 */
export function Tabs<K extends string>({
  label,
  items,
  selected,
  onSelect,
  children,
}: {
  label: string;
  items: readonly TabItem<K>[];
  selected: K;
  onSelect: (key: K) => void;
  children: ReactNode;
}) {
  const base = useId();
  const buttons = useRef(new Map<K, HTMLButtonElement>());
  const tabId = (key: K) => `${base}-tab-${key}`;
  const panelId = `${base}-panel`;

  const move = (event: KeyboardEvent, index: number) => {
    const last = items.length - 1;
    const next =
      event.key === 'ArrowRight'
        ? index === last
          ? 0
          : index + 1
        : event.key === 'ArrowLeft'
          ? index === 0
            ? last
            : index - 1
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? last
              : null;
    if (next === null) return;
    event.preventDefault();
    const item = items[next];
    if (!item) return;
    onSelect(item.key);
    buttons.current.get(item.key)?.focus();
  };

  return (
    <div>
      <div role="tablist" aria-label={label} className="flex flex-wrap border-b border-mist-200">
        {items.map((item, index) => {
          const active = item.key === selected;
          return (
            <button
              key={item.key}
              ref={(node) => {
                if (node) buttons.current.set(item.key, node);
                else buttons.current.delete(item.key);
              }}
              type="button"
              role="tab"
              id={tabId(item.key)}
              aria-selected={active}
              aria-controls={panelId}
              tabIndex={active ? 0 : -1}
              onClick={() => onSelect(item.key)}
              onKeyDown={(event) => move(event, index)}
              className={cx(
                '-mb-px inline-flex min-h-11 items-center gap-1 border-b-2 px-2 text-caption font-semibold whitespace-nowrap transition-colors',
                active
                  ? 'border-ocean-700 text-ocean-900'
                  : 'border-transparent text-mist-700 hover:border-mist-300 hover:text-ocean-900',
              )}
            >
              {item.label}
              {item.count !== undefined ? (
                <span
                  className={cx(
                    'rounded-full px-1.5 text-tab font-bold tabular-nums',
                    item.alert ? 'bg-danger-600 text-white' : 'bg-mist-100 text-mist-700',
                  )}
                >
                  {item.count}
                </span>
              ) : null}
            </button>
          );
        })}
      </div>
      <div
        role="tabpanel"
        id={panelId}
        aria-labelledby={tabId(selected)}
        tabIndex={0}
        className="pt-5 focus:outline-none focus-visible:ring-2 focus-visible:ring-fjord-500"
      >
        {children}
      </div>
    </div>
  );
}
