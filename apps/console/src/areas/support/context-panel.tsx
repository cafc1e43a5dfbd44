import { useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Crosshair, RefreshCw } from 'lucide-react';
import { orderKind, paymentStatus } from '@alda/contract/schemas/orders';
import { provisioningStepKey } from '@alda/contract/schemas/provisioning';
import { staffPaymentMethod, staffPaymentState } from '@alda/contract/schemas/staff-payments';
import type { SupportSubject } from '@alda/contract/schemas/support';
import type { StaffSupportContext } from '@alda/contract/schemas/staff-support';
import { mayUse } from '@/app/areas';
import { cx } from '@/shared/cx';
import { localeOf } from '@/shared/i18n';
import { useSession } from '@/shared/services';
import { Badge, type BadgeTone } from '@/shared/ui/badge';
import { Button } from '@/shared/ui/button';
import { LoadFailed } from '@/shared/ui/load-failed';
import { formatDateTime, formatKr, formatPhoneNumber } from './format';
import { useSubjectText } from './parts';

/*
 * Beside the thread (issue 46 "the customer's context: lines, open orders, recent payments, and
 * the item the conversation is about"): who the customer is, their numbers, the orders not done
 * yet with where each stands (a rejected port in red with its words), the latest payments in kr.,
 * and the item the conversation is about marked with an icon and words. Fetched once per opening
 * of the thread, recorded in the audit log with the conversation as the reason; "Refresh" asks
 * again (and is recorded again).
 */

/** The part of a TanStack query the panel reads. */
export interface ContextQuery {
  data: StaffSupportContext | undefined;
  isPending: boolean;
  isError: boolean;
  isFetching: boolean;
  error: unknown;
  refetch: () => Promise<unknown>;
}

type SupportT = ReturnType<typeof useTranslation<'support'>>['t'];

/** An order's status word: a provisioning step or a payment status; as sent when newer. */
function orderStatusText(t: SupportT, status: string): string {
  const step = provisioningStepKey.safeParse(status);
  if (step.success) return t(`orderStatus.${step.data}`);
  const payment = paymentStatus.safeParse(status);
  if (payment.success) return t(`orderStatus.${payment.data}`);
  return status;
}

function orderStatusTone(status: string): BadgeTone {
  if (status === 'port_rejected' || status === 'failed') return 'danger';
  if (status === 'cancelled') return 'neutral';
  return 'info';
}

function orderKindText(t: SupportT, kind: string): string {
  const known = orderKind.safeParse(kind);
  return known.success ? t(`orderKind.${known.data}`) : kind;
}

function paymentText(t: SupportT, method: string, state: string): [string, string] {
  const m = staffPaymentMethod.safeParse(method);
  const s = staffPaymentState.safeParse(state);
  return [
    m.success ? t(`paymentMethod.${m.data}`) : method,
    s.success ? t(`paymentState.${s.data}`) : state,
  ];
}

function lineStatusText(t: SupportT, status: string): string {
  return status === 'active' || status === 'processing' ? t(`lineStatus.${status}`) : status;
}

/** Whether an item of the panel is the one the conversation is about. */
function isSubject(subject: SupportSubject, type: 'order' | 'payment' | 'line', id: string) {
  if (!subject.id) return false;
  if (type === 'line')
    return (subject.type === 'line' || subject.type === 'roaming_cap') && subject.id === id;
  return subject.type === type && subject.id === id;
}

export function ContextPanel({ context }: { context: ContextQuery }) {
  const { t } = useTranslation('support');
  const headingId = useId();
  return (
    <aside
      aria-labelledby={headingId}
      className="flex flex-col gap-5 self-start rounded-xl border border-mist-200 bg-white p-4"
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div>
          <h2 id={headingId} className="text-heading font-bold text-ocean-950">
            {t('context.title')}
          </h2>
          <p className="mt-0.5 text-caption text-mist-600">{t('context.audited')}</p>
        </div>
        {context.data ? (
          <Button
            variant="ghost"
            size="sm"
            pending={context.isFetching}
            icon={<RefreshCw aria-hidden="true" className="size-4" />}
            title={t('context.refreshHint')}
            onClick={() => void context.refetch()}
          >
            {t('context.refresh')}
          </Button>
        ) : null}
      </div>
      <ContextBody context={context} />
    </aside>
  );
}

function ContextBody({ context }: { context: ContextQuery }) {
  const { t, i18n } = useTranslation('support');
  const locale = localeOf(i18n);
  const subjectText = useSubjectText();
  const session = useSession();

  if (context.isPending)
    return (
      <p role="status" className="text-caption text-mist-600">
        {t('context.loading')}
      </p>
    );
  if (!context.data)
    return (
      <LoadFailed
        title={t('context.loadFailed')}
        error={context.error}
        retry={t('context.retry')}
        onRetry={() => void context.refetch()}
      />
    );

  const { customer, lines, openOrders, payments, subject } = context.data;
  const mayOpenCustomer = session ? mayUse(session.staff.role, 'customers') : false;

  return (
    <>
      <p className="flex items-start gap-2 rounded-lg bg-ocean-50 px-3 py-2 text-caption text-ocean-900">
        <Crosshair aria-hidden="true" className="mt-px size-4 shrink-0" />
        <span>{t('context.about', { subject: subjectText(subject) })}</span>
      </p>

      {customer ? (
        <Section title={t('context.customer')}>
          <dl className="grid grid-cols-[max-content_minmax(0,1fr)] gap-x-3 gap-y-1 text-caption">
            <dt className="text-mist-600">{t('context.name')}</dt>
            <dd className="font-medium break-words text-mist-900">{customer.name}</dd>
            <dt className="text-mist-600">{t('context.email')}</dt>
            <dd className="font-medium break-all text-mist-900">{customer.email}</dd>
            <dt className="text-mist-600">{t('context.phone')}</dt>
            <dd className="font-medium text-mist-900 tabular-nums">
              {customer.phoneNumber ? formatPhoneNumber(customer.phoneNumber) : t('context.none')}
            </dd>
            <dt className="text-mist-600">{t('context.language')}</dt>
            <dd className="font-medium text-mist-900">
              {t(`languageNames.${customer.locale}`, { ns: 'common' })}
            </dd>
          </dl>
          {mayOpenCustomer ? (
            <Link
              to={`/customers/${encodeURIComponent(customer.id)}`}
              className="text-caption font-semibold text-ocean-700 underline-offset-2 hover:text-ocean-900 hover:underline"
            >
              {t('context.openCustomer')}
            </Link>
          ) : null}
        </Section>
      ) : (
        <p className="text-caption text-mist-700">{t('context.anonymised')}</p>
      )}

      {customer ? (
        <>
          <Section title={t('context.lines')}>
            {lines.length === 0 ? (
              <Empty>{t('context.noLines')}</Empty>
            ) : (
              <ul className="flex flex-col gap-1.5">
                {lines.map((line) => (
                  <Item key={line.msisdn} marked={isSubject(subject, 'line', line.msisdn)}>
                    <span className="font-semibold tabular-nums">
                      {formatPhoneNumber(line.msisdn)}
                    </span>
                    <span className="text-mist-700">
                      {[line.planName, lineStatusText(t, line.status)].filter(Boolean).join(' · ')}
                    </span>
                  </Item>
                ))}
              </ul>
            )}
          </Section>

          <Section title={t('context.orders')}>
            {openOrders.length === 0 ? (
              <Empty>{t('context.noOrders')}</Empty>
            ) : (
              <ul className="flex flex-col gap-1.5">
                {openOrders.map((order) => (
                  <Item key={order.id} marked={isSubject(subject, 'order', order.id)}>
                    <span className="font-semibold">
                      {orderKindText(t, order.kind)}
                      {order.msisdn ? (
                        <span className="tabular-nums"> · {formatPhoneNumber(order.msisdn)}</span>
                      ) : null}
                    </span>
                    <span className="flex flex-wrap items-center gap-2">
                      <Badge tone={orderStatusTone(order.status)}>
                        {orderStatusText(t, order.status)}
                      </Badge>
                      <span className="text-mist-600">{formatDateTime(order.createdAt)}</span>
                    </span>
                  </Item>
                ))}
              </ul>
            )}
          </Section>

          <Section title={t('context.payments')}>
            {payments.length === 0 ? (
              <Empty>{t('context.noPayments')}</Empty>
            ) : (
              <ul className="flex flex-col gap-1.5">
                {payments.map((payment) => {
                  const [method, state] = paymentText(t, payment.method, payment.state);
                  return (
                    <Item key={payment.id} marked={isSubject(subject, 'payment', payment.id)}>
                      <span className="font-semibold tabular-nums">
                        {formatKr(payment.amountOere, locale)}
                      </span>
                      <span className="text-mist-700">
                        {method} · {state} · {formatDateTime(payment.createdAt)}
                      </span>
                    </Item>
                  );
                })}
              </ul>
            )}
          </Section>
        </>
      ) : null}
    </>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="flex flex-col gap-2">
      <h3 id={id} className="text-body font-semibold text-ocean-950">
        {title}
      </h3>
      {children}
    </section>
  );
}

function Empty({ children }: { children: ReactNode }) {
  return <p className="text-caption text-mist-600">{children}</p>;
}

/** A line of a list; the conversation's own item framed and named ("This conversation is about this"). */
function Item({ marked, children }: { marked: boolean; children: ReactNode }) {
  const { t } = useTranslation('support');
  return (
    <li
      className={cx(
        'flex flex-col gap-1 rounded-lg border px-3 py-2 text-caption',
        marked ? 'border-ocean-500 bg-ocean-50 ring-1 ring-ocean-500' : 'border-mist-200',
      )}
    >
      {marked ? (
        <span className="inline-flex items-center gap-1.5 font-semibold text-ocean-800">
          <Crosshair aria-hidden="true" className="size-3.5" />
          {t('context.isSubject')}
        </span>
      ) : null}
      {children}
    </li>
  );
}
