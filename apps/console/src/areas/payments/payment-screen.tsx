import { useId, useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { ArrowLeft, CircleAlert, CircleCheck, CloudOff, Undo2 } from 'lucide-react';
import { formatDateTime } from '@alda/contract/format/date';
import type {
  StaffPaymentDetail,
  StaffProviderCheck,
  StaffRefund,
} from '@alda/contract/schemas/staff-payments';
import { isApiError } from '@/shared/api';
import { useErrorText } from '@/shared/error-text';
import { localeOf } from '@/shared/i18n';
import { Badge } from '@/shared/ui/badge';
import { Button } from '@/shared/ui/button';
import { DataTable, type DataColumn } from '@/shared/ui/data-table';
import { LoadFailed } from '@/shared/ui/load-failed';
import { Notice } from '@/shared/ui/notice';
import { PageHeader } from '@/shared/ui/page-header';
import { UpdatedAt } from '@/shared/ui/updated-at';
import { PaymentStateBadge, RefundStateBadge } from './badges';
import { formatKr } from './money';
import { usePayment } from './payments-api';
import { CardText } from './payments-screen';
import { RefundDialog } from './refund-dialog';

/**
 * `/console/payments/:id`: one payment — its facts and money, the reconciliation verdict, what
 * the provider says now, the provider's messages, the refunds and a refund. Refreshed every 5 s,
 * so a refund moves from pending to refunded on its own.
 */
export function PaymentScreen() {
  const { id = '' } = useParams();
  const { t, i18n } = useTranslation('payments');
  const locale = localeOf(i18n);
  const errorText = useErrorText();
  const payment = usePayment(id);

  const back = (
    <Link
      to=".."
      relative="path"
      className="mb-4 inline-flex items-center gap-1.5 text-caption font-semibold text-ocean-700 hover:text-ocean-900"
    >
      <ArrowLeft aria-hidden="true" className="size-4" />
      {t('detail.back')}
    </Link>
  );

  if (payment.isPending) {
    return (
      <>
        {back}
        <PageHeader title={t('detail.loading')} />
      </>
    );
  }
  if (!payment.data) {
    const notFound = isApiError(payment.error, 'NOT_FOUND', 'VALIDATION_FAILED');
    return (
      <>
        {back}
        <PageHeader title={notFound ? t('detail.notFound') : t('detail.loadFailed')} />
        {notFound ? null : (
          <LoadFailed
            error={payment.error}
            retry={t('list.retry')}
            onRetry={() => void payment.refetch()}
          />
        )}
      </>
    );
  }

  const data = payment.data;
  return (
    <>
      {back}
      <PageHeader
        title={t('detail.title', { amount: formatKr(data.amountOere, locale) })}
        lead={`${data.customer.name} · ${t(`kind.${data.order.kind}`)} · ${formatDateTime(data.createdAt)}`}
        actions={<RefundAction payment={data} />}
      />
      <div className="mb-4 flex flex-wrap items-center gap-3">
        <PaymentStateBadge state={data.state} />
        <ReconciliationBadge check={data.providerCheck} />
        <UpdatedAt
          as="span"
          at={payment.dataUpdatedAt}
          className="ml-auto text-caption text-mist-600"
        />
      </div>
      {payment.isError ? (
        <Notice tone="danger" className="mb-4">
          {errorText(payment.error)}
        </Notice>
      ) : null}

      <div className="grid gap-5 lg:grid-cols-2">
        <Section title={t('detail.money')}>
          <MoneyFacts payment={data} />
        </Section>
        <Section title={t('reconciliation.title')}>
          <Reconciliation check={data.providerCheck} />
        </Section>
        <Section title={t('detail.facts')}>
          <Facts payment={data} />
        </Section>
        <div className="flex flex-col gap-5">
          <Section title={t('provider.title')}>
            <ProviderView check={data.providerCheck} />
          </Section>
          <Section title={t('events.title')}>
            <Events events={data.events} />
          </Section>
        </div>
      </div>

      <section aria-labelledby="refunds-title" className="mt-6">
        <h2 id="refunds-title" className="mb-3 text-heading font-bold text-ocean-950">
          {t('refunds.title')}
        </h2>
        <Refunds refunds={data.refunds} />
      </section>
    </>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="rounded-xl border border-mist-200 bg-white p-5">
      <h2 id={id} className="mb-3 text-heading font-bold text-ocean-950">
        {title}
      </h2>
      {children}
    </section>
  );
}

function FactList({ children }: { children: ReactNode }) {
  return (
    <dl className="grid grid-cols-[minmax(9rem,auto)_1fr] gap-x-4 gap-y-2 text-caption">
      {children}
    </dl>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt className="font-semibold text-mist-700">{label}</dt>
      <dd className="min-w-0 break-words text-mist-900">{children}</dd>
    </>
  );
}

const mono = 'font-mono text-[0.75rem] break-all';

function Facts({ payment }: { payment: StaffPaymentDetail }) {
  const { t } = useTranslation('payments');
  return (
    <FactList>
      <Fact label={t('detail.customer')}>{payment.customer.name}</Fact>
      <Fact label={t('detail.order')}>
        {t(`kind.${payment.order.kind}`)} · <span className={mono}>{payment.order.id}</span>
      </Fact>
      <Fact label={t('detail.id')}>
        <span className={mono}>{payment.id}</span>
      </Fact>
      <Fact label={t('detail.method')}>{t(`method.${payment.method}`)}</Fact>
      <Fact label={t('detail.card')}>
        {payment.card ? <CardText card={payment.card} /> : t('detail.noCard')}
      </Fact>
      <Fact label={t('detail.provider')}>{payment.provider}</Fact>
      <Fact label={t('detail.providerPaymentId')}>
        {payment.providerPaymentId ? (
          <span className={mono}>{payment.providerPaymentId}</span>
        ) : (
          t('detail.notSent')
        )}
      </Fact>
      <Fact label={t('detail.created')}>{formatDateTime(payment.createdAt)}</Fact>
      <Fact label={t('detail.updated')}>{formatDateTime(payment.updatedAt)}</Fact>
      {payment.failureReason ? (
        <Fact label={t('detail.failureReason')}>{payment.failureReason}</Fact>
      ) : null}
      <Fact label={t('detail.receipt')}>
        {payment.receipt
          ? t('detail.receiptValue', {
              number: payment.receipt.number,
              time: formatDateTime(payment.receipt.issuedAt),
            })
          : t('detail.noReceipt')}
      </Fact>
    </FactList>
  );
}

function MoneyFacts({ payment }: { payment: StaffPaymentDetail }) {
  const { t, i18n } = useTranslation('payments');
  const locale = localeOf(i18n);
  const kr = (oere: number) => <span className="tabular-nums">{formatKr(oere, locale)}</span>;
  return (
    <FactList>
      <Fact label={t('detail.amount')}>
        {kr(payment.amountOere)}{' '}
        <span className="text-mist-600">
          {payment.currency} · {t('detail.amountNote')}
        </span>
      </Fact>
      <Fact label={t('detail.refunded')}>{kr(payment.refundedOere)}</Fact>
      <Fact label={t('detail.refunding')}>{kr(payment.refundingOere)}</Fact>
      <Fact label={t('detail.refundable')}>
        <strong>{kr(payment.refundableOere)}</strong>
      </Fact>
    </FactList>
  );
}

/** The verdict at a glance, beside the payment's state. */
function ReconciliationBadge({ check }: { check: StaffProviderCheck }) {
  const { t } = useTranslation('payments');
  if (check.status === 'unreachable') {
    return (
      <Badge tone="neutral" icon={<CloudOff aria-hidden="true" className="size-3.5" />}>
        {t('reconciliation.unreachable')}
      </Badge>
    );
  }
  const agree = check.reconciliation.verdict === 'agree';
  return (
    <Badge
      tone={agree ? 'success' : 'danger'}
      icon={
        agree ? (
          <CircleCheck aria-hidden="true" className="size-3.5" />
        ) : (
          <CircleAlert aria-hidden="true" className="size-3.5" />
        )
      }
    >
      {`${t('reconciliation.title')}: ${agree ? t('reconciliation.agree') : t('reconciliation.differs')}`}
    </Badge>
  );
}

function Reconciliation({ check }: { check: StaffProviderCheck }) {
  const { t } = useTranslation('payments');
  if (check.status === 'unreachable') {
    return (
      <div className="flex flex-col gap-2">
        <Badge tone="neutral" icon={<CloudOff aria-hidden="true" className="size-3.5" />}>
          {t('reconciliation.unreachable')}
        </Badge>
        <p className="text-caption text-mist-700">{t('reconciliation.unreachableBody')}</p>
      </div>
    );
  }
  const { verdict, ours, provider, next } = check.reconciliation;
  const providerText = provider ? t(`state.${provider}`) : t('reconciliation.providerNone');
  return (
    <div className="flex flex-col gap-2">
      <div>
        {verdict === 'agree' ? (
          <Badge tone="success" icon={<CircleCheck aria-hidden="true" className="size-3.5" />}>
            {t('reconciliation.agree')}
          </Badge>
        ) : (
          <Badge tone="danger" icon={<CircleAlert aria-hidden="true" className="size-3.5" />}>
            {t('reconciliation.differs')}
          </Badge>
        )}
      </div>
      <p className="text-caption text-mist-800">
        {verdict === 'agree'
          ? t('reconciliation.agreeBody', { state: t(`state.${ours}`) })
          : t('reconciliation.differsBody', { ours: t(`state.${ours}`), provider: providerText })}
      </p>
      {next ? (
        <p className="text-caption text-mist-700">{t(`reconciliation.next.${next}`)}</p>
      ) : null}
      {check.status === 'not_sent' ? (
        <p className="text-caption text-mist-700">{t('reconciliation.notSent')}</p>
      ) : null}
    </div>
  );
}

function ProviderView({ check }: { check: StaffProviderCheck }) {
  const { t } = useTranslation('payments');
  if (check.status === 'unreachable') {
    return <p className="text-caption text-mist-700">{t('reconciliation.unreachableBody')}</p>;
  }
  if (check.status === 'not_sent') {
    return <p className="text-caption text-mist-700">{t('reconciliation.notSent')}</p>;
  }
  if (!check.view) return <p className="text-caption text-mist-700">{t('provider.unknown')}</p>;
  const { view } = check;
  return (
    <FactList>
      <Fact label={t('provider.state')}>{t(`provider.states.${view.state}`)}</Fact>
      {view.card ? (
        <Fact label={t('provider.card')}>
          {[
            [view.card.brand, view.card.last4 && `•••• ${view.card.last4}`]
              .filter(Boolean)
              .join(' '),
            view.card.expiry,
          ]
            .filter(Boolean)
            .join(' · ')}
        </Fact>
      ) : null}
      {view.failureReason ? (
        <Fact label={t('provider.failureReason')}>{view.failureReason}</Fact>
      ) : null}
    </FactList>
  );
}

function Events({ events }: { events: StaffPaymentDetail['events'] }) {
  const { t } = useTranslation('payments');
  if (events.length === 0) return <p className="text-caption text-mist-600">{t('events.empty')}</p>;
  /** `payment.succeeded` → `succeeded`, for the events the console has a text for. */
  const kindOf = (type: string) => {
    const kind = type.replace(/^payment\./, '');
    return kind === 'pending' || kind === 'succeeded' || kind === 'failed' ? kind : null;
  };
  return (
    <ol className="relative flex flex-col gap-3 border-l-2 border-mist-200 pl-5">
      {events.map((event) => (
        <li key={event.eventId} className="relative">
          <span
            aria-hidden="true"
            className={`absolute top-1.5 -left-[1.6875rem] size-3 rounded-full ring-2 ring-white ${
              event.type === 'payment.succeeded'
                ? 'bg-success-600'
                : event.type === 'payment.failed'
                  ? 'bg-danger-600'
                  : 'bg-warning-600'
            }`}
          />
          <p className="text-caption font-semibold text-mist-900">
            {(() => {
              const kind = kindOf(event.type);
              return kind ? t(`events.types.${kind}`) : event.type;
            })()}
          </p>
          <p className="text-caption text-mist-600">
            <time dateTime={event.receivedAt}>{formatDateTime(event.receivedAt)}</time>
            {' · '}
            <span className={mono}>{t('events.eventId', { id: event.eventId })}</span>
          </p>
        </li>
      ))}
    </ol>
  );
}

function Refunds({ refunds }: { refunds: StaffRefund[] }) {
  const { t, i18n } = useTranslation('payments');
  const locale = localeOf(i18n);
  const columns = useMemo<DataColumn<StaffRefund>[]>(
    () => [
      {
        id: 'created',
        header: () => t('refunds.columns.created'),
        cell: ({ row }) => (
          <div className="flex flex-col">
            <span className="whitespace-nowrap">{formatDateTime(row.original.createdAt)}</span>
            <span className="text-mist-600 break-all">
              {row.original.requestedBy?.replace(/^staff:/, '') ?? t('refunds.automatic')}
            </span>
          </div>
        ),
      },
      {
        id: 'amount',
        header: () => t('refunds.columns.amount'),
        cell: ({ row }) => (
          <span className="whitespace-nowrap tabular-nums">
            {formatKr(row.original.amountOere, locale)}
          </span>
        ),
      },
      {
        id: 'state',
        header: () => t('refunds.columns.state'),
        cell: ({ row }) => (
          <div className="flex flex-col items-start gap-1">
            <RefundStateBadge state={row.original.state} />
            {row.original.refundedAt ? (
              <span className="whitespace-nowrap text-mist-600">
                {formatDateTime(row.original.refundedAt)}
              </span>
            ) : null}
            <span className="text-mist-600">
              {t('refunds.attemptsValue', { count: row.original.attempts })}
            </span>
            {row.original.lastError ? (
              <span className="text-danger-700">
                {t('refunds.lastError', { error: row.original.lastError })}
              </span>
            ) : null}
          </div>
        ),
      },
      {
        id: 'reason',
        header: () => t('refunds.columns.reason'),
        cell: ({ row }) => <span className="break-words">{row.original.reason ?? '–'}</span>,
      },
    ],
    [t, locale],
  );
  return (
    <DataTable
      columns={columns}
      data={refunds}
      caption={t('refunds.caption')}
      getRowId={(row) => row.id}
      empty={t('refunds.empty')}
    />
  );
}

/** The refund button, or why there is none; the dialog while it is open. */
function RefundAction({ payment }: { payment: StaffPaymentDetail }) {
  const { t } = useTranslation('payments');
  const [open, setOpen] = useState(false);
  const opener = useRef<HTMLElement | null>(null);
  const blocked =
    payment.state !== 'paid'
      ? t('refund.notPaid')
      : payment.refundableOere === 0
        ? t('refund.nothingLeft')
        : null;
  return (
    <>
      {blocked ? (
        <p className="max-w-xs text-right text-caption text-mist-600">{blocked}</p>
      ) : (
        <Button
          variant="danger"
          icon={<Undo2 aria-hidden="true" className="size-4" />}
          onClick={(event) => {
            opener.current = event.currentTarget;
            setOpen(true);
          }}
        >
          {t('refund.open')}
        </Button>
      )}
      {open ? (
        <RefundDialog
          payment={payment}
          onClose={() => {
            setOpen(false);
            // The focus goes back to the button (or, when nothing is left to refund, the page).
            requestAnimationFrame(() => {
              if (opener.current?.isConnected) opener.current.focus();
              else document.getElementById('main')?.focus();
            });
          }}
        />
      ) : null}
    </>
  );
}
