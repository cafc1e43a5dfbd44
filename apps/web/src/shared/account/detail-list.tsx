import { useId, type ReactNode } from 'react';

/** A white card of label/value rows (plan, SIM, phone book …). */
export function DetailList({ title, children }: { title?: string; children: ReactNode }) {
  const titleId = useId();
  return (
    <section aria-labelledby={title ? titleId : undefined} className="flex flex-col gap-2">
      {title && (
        <h2
          id={titleId}
          className="px-1 text-caption font-semibold tracking-wide text-mist-500 uppercase"
        >
          {title}
        </h2>
      )}
      <dl className="divide-y divide-mist-100 rounded-card bg-white px-4 shadow-card">
        {children}
      </dl>
    </section>
  );
}

export function DetailRow({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex min-h-13 flex-wrap items-center justify-between gap-x-4 py-3">
      <dt className="text-body text-mist-600">{label}</dt>
      <dd className="ml-auto text-right text-body font-semibold text-mist-900">{children}</dd>
    </div>
  );
}
