import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Lock, LockOpen, MonitorX, Send, Timer } from 'lucide-react';
import type { Locale } from '@alda/contract/locale';
import {
  type StaffCustomerLine,
  type StaffCustomerMessage,
  type StaffCustomerOrder,
  type StaffCustomerPayment,
  type StaffCustomerSession,
  type StaffCustomerView,
  type StaffOrderStep,
  type StaffPortOutAttempt,
} from '@alda/contract/schemas/staff-customers';
import { cx } from '@/shared/cx';
import { Badge, type BadgeTone } from '@/shared/ui/badge';
import { Button } from '@/shared/ui/button';
import { DataTable, type DataColumn } from '@/shared/ui/data-table';
import { Notice } from '@/shared/ui/notice';
import { ReasonDialog } from '@/shared/ui/reason-dialog';
import { useResendMessage, useSignOutEverywhere } from './customers-api';
import { formatDate, formatDateTime, formatKr, formatPhoneNumber, formatRecipient } from './format';
import { Block, Facts } from './parts';
import { reasonTexts } from './reason-texts';
import { isPortOutRefusal } from '@alda/contract/rules/number-protection';

/*
 * The tabs of the customer view (customer-screen.tsx), one component each. Texts come from the
 * API in the staff member's language where the server composes them (activity sentences, step
 * reasons, notification titles); everything else is in locales/<lang>/customers.json.
 */

type T = ReturnType<typeof useTranslation<'customers'>>['t'];

/** Who performed a step: the network, the worker, the customer, or an operator by name. */
function actorText(actor: string, t: T): string {
  if (actor === 'network' || actor === 'worker' || actor === 'customer')
    return t(`orders.actors.${actor}`);
  const [, name] = /^(?:operator|staff):(.+)$/.exec(actor) ?? [];
  return name ?? actor;
}

/** A message's delivery state (ADR 0084): kept by the outbox, or an SMS's way through the SMSC. */
const DELIVERY_TONES: Record<StaffCustomerMessage['delivery']['state'], BadgeTone> = {
  kept: 'neutral',
  queued: 'warning',
  sent: 'info',
  delivered: 'success',
  failed: 'danger',
};

const LINE_TONES: Record<StaffCustomerLine['status'], BadgeTone> = {
  active: 'success',
  processing: 'warning',
  cancelled: 'neutral',
};

/** `{ date: 'DD.MM.YYYY', time: 'HH:mm' }` in Tórshavn: the contract's date and time, apart. */
function whenOf(instant: string): { date: string; time: string } {
  const [date = '', time = ''] = formatDateTime(instant).split(' ');
  return { date, time };
}

/**
 * A number's lock (ADR 0076): locked, unlocking — still locked, with when it opens, on the
 * Tórshavn clock — or unlocked. Staff cannot shorten the wait; they can tell the customer when.
 */
function LockBadge({ lock }: { lock: StaffCustomerLine['lock'] }) {
  const { t } = useTranslation('customers');
  if (lock.state === 'locked')
    return (
      <Badge tone="success" icon={<Lock aria-hidden="true" className="size-3.5" />}>
        {t('lines.lock.locked')}
      </Badge>
    );
  if (lock.state === 'unlocking')
    return (
      <Badge tone="warning" icon={<Timer aria-hidden="true" className="size-3.5" />}>
        {lock.unlockAt
          ? t('lines.lock.unlockingAt', whenOf(lock.unlockAt))
          : t('lines.lock.unlocking')}
      </Badge>
    );
  return (
    <Badge tone="neutral" icon={<LockOpen aria-hidden="true" className="size-3.5" />}>
      {t('lines.lock.unlocked')}
    </Badge>
  );
}

/** A port-out's answer in words: accepted, or refused and why (an unknown code as it came). */
function attemptOutcome(attempt: StaffPortOutAttempt, t: T): string {
  if (attempt.outcome === 'accepted') return t('portOuts.accepted');
  if (!attempt.reason) return t('portOuts.refused');
  return t('portOuts.refusedBecause', {
    reason: isPortOutRefusal(attempt.reason)
      ? t(`portOuts.reasons.${attempt.reason}`)
      : attempt.reason,
  });
}

type PortOutRow = StaffPortOutAttempt & { id: string; msisdn: string };

/** Other providers' requests to move the customer's numbers away, newest first. */
function PortOutAttempts({ lines }: { lines: StaffCustomerView['lines'] }) {
  const { t } = useTranslation('customers');
  const rows: PortOutRow[] = lines
    .flatMap((line) =>
      line.portOutAttempts.map((attempt, i) => ({
        ...attempt,
        id: `${line.id}:${i}`,
        msisdn: line.msisdn,
      })),
    )
    .sort((a, b) => b.at.localeCompare(a.at));
  if (rows.length === 0) return null;
  const columns: DataColumn<PortOutRow>[] = [
    {
      id: 'at',
      header: () => t('portOuts.columns.at'),
      cell: ({ row }) => (
        <span className="whitespace-nowrap tabular-nums">{formatDateTime(row.original.at)}</span>
      ),
    },
    {
      id: 'number',
      header: () => t('portOuts.columns.number'),
      cell: ({ row }) => (
        <span className="font-semibold whitespace-nowrap tabular-nums">
          {formatPhoneNumber(row.original.msisdn)}
        </span>
      ),
    },
    {
      id: 'provider',
      header: () => t('portOuts.columns.provider'),
      cell: ({ row }) => row.original.provider,
    },
    {
      id: 'outcome',
      header: () => t('portOuts.columns.outcome'),
      cell: ({ row }) => (
        <Badge tone={row.original.outcome === 'accepted' ? 'info' : 'danger'}>
          {attemptOutcome(row.original, t)}
        </Badge>
      ),
    },
  ];
  return (
    <Block title={t('portOuts.title')} level={3}>
      <p className="text-caption text-mist-600">{t('portOuts.lead')}</p>
      <DataTable
        columns={columns}
        data={rows}
        caption={t('portOuts.title')}
        getRowId={(row) => row.id}
      />
    </Block>
  );
}

export function LinesTab({ lines }: { lines: StaffCustomerView['lines'] }) {
  const { t } = useTranslation('customers');
  const columns: DataColumn<StaffCustomerLine>[] = [
    {
      id: 'number',
      header: () => t('lines.columns.number'),
      cell: ({ row }) => (
        <span className="font-semibold whitespace-nowrap tabular-nums">
          {formatPhoneNumber(row.original.msisdn)}
        </span>
      ),
    },
    {
      id: 'status',
      header: () => t('lines.columns.status'),
      cell: ({ row }) => (
        <div className="flex flex-col items-start gap-1">
          <Badge tone={LINE_TONES[row.original.status]}>
            {t(`lines.status.${row.original.status}`)}
          </Badge>
          {row.original.dataPaused ? <Badge tone="danger">{t('lines.dataPaused')}</Badge> : null}
          {row.original.expiresAt ? (
            <span className="text-caption text-mist-600">
              {t('lines.expires', { date: formatDate(row.original.expiresAt) })}
            </span>
          ) : null}
        </div>
      ),
    },
    {
      id: 'lock',
      header: () => t('lines.columns.lock'),
      cell: ({ row }) => <LockBadge lock={row.original.lock} />,
    },
    {
      id: 'plan',
      header: () => t('lines.columns.plan'),
      cell: ({ row }) => (
        <div>
          <div>{row.original.planName ?? t('lines.noPlan')}</div>
          {row.original.prepaid ? <Badge tone="info">{t('lines.prepaid')}</Badge> : null}
        </div>
      ),
    },
    {
      id: 'sim',
      header: () => t('lines.columns.sim'),
      cell: ({ row }) => (
        <div>
          <div>
            {t(`lines.simType.${row.original.simType}`)}
            {row.original.simType === 'esim'
              ? ` · ${t(row.original.esimInstalled ? 'lines.esimInstalled' : 'lines.esimNotInstalled')}`
              : ''}
          </div>
          {row.original.iccid ? (
            <div className="font-mono text-caption break-all text-mist-700">
              {row.original.iccid}
            </div>
          ) : null}
          <div className="text-caption whitespace-nowrap text-mist-600">
            {row.original.simChangedAt
              ? t('lines.simChanged', { date: formatDate(row.original.simChangedAt) })
              : t('lines.simNeverChanged')}
          </div>
        </div>
      ),
    },
    {
      id: 'family',
      header: () => t('lines.columns.family'),
      cell: ({ row }) => t(`lines.familyRole.${row.original.familyRole}`),
    },
    {
      id: 'user',
      header: () => t('lines.columns.user'),
      cell: ({ row }) =>
        row.original.usedByCustomer
          ? t('lines.usedByCustomer')
          : (row.original.userName ?? t('lines.noUser')),
    },
    {
      id: 'since',
      header: () => t('lines.columns.since'),
      cell: ({ row }) => (
        <span className="whitespace-nowrap">
          {formatDate(row.original.activatedAt ?? row.original.createdAt)}
        </span>
      ),
    },
  ];
  return (
    <Block title={t('lines.title')}>
      <DataTable
        columns={columns}
        data={lines}
        caption={t('lines.title')}
        getRowId={(row) => row.id}
        empty={t('lines.empty')}
      />
      <PortOutAttempts lines={lines} />
    </Block>
  );
}

export function FamilyTab({ family }: { family: StaffCustomerView['family'] }) {
  const { t } = useTranslation('customers');
  if (!family)
    return (
      <Block title={t('family.title')}>
        <p className="text-body text-mist-600">{t('family.none')}</p>
      </Block>
    );
  type Member = (typeof family.members)[number];
  const columns: DataColumn<Member>[] = [
    {
      id: 'number',
      header: () => t('family.columns.number'),
      cell: ({ row }) => (
        <span className="font-semibold whitespace-nowrap tabular-nums">
          {formatPhoneNumber(row.original.msisdn)}
        </span>
      ),
    },
    {
      id: 'name',
      header: () => t('family.columns.name'),
      cell: ({ row }) => (
        <span>
          {row.original.name ?? t('family.unnamed')}
          {row.original.isOwner ? (
            <span className="ml-2">
              <Badge tone="info">{t('family.owner')}</Badge>
            </span>
          ) : null}
        </span>
      ),
    },
    {
      id: 'login',
      header: () => t('family.columns.login'),
      cell: ({ row }) => t(row.original.userId ? 'family.ownLogin' : 'family.noLogin'),
    },
    {
      id: 'status',
      header: () => t('family.columns.status'),
      cell: ({ row }) => (
        <Badge tone={LINE_TONES[row.original.status]}>
          {t(`lines.status.${row.original.status}`)}
        </Badge>
      ),
    },
  ];
  return (
    <Block title={t('family.title')}>
      <Facts
        items={[
          [t('family.role'), t(`family.customerRole.${family.customerRole}`)],
          [t('family.ownerLabel'), `${family.owner.name} (${family.owner.email})`],
          [t('family.plan'), family.planName ?? t('lines.noPlan')],
          [t('family.status'), t(`lines.status.${family.status}`)],
        ]}
      />
      <DataTable
        columns={columns}
        data={family.members}
        caption={t('family.caption')}
        getRowId={(row) => row.lineId}
        empty={t('family.noMembers')}
      />
    </Block>
  );
}

/** Where an order stands, as a badge. */
function OrderState({ order }: { order: StaffCustomerOrder }) {
  const { t } = useTranslation('customers');
  const last = order.provisioning?.steps.at(-1)?.step;
  if (order.isCancelled) return <Badge tone="neutral">{t('orders.state.cancelled')}</Badge>;
  if (order.isComplete) return <Badge tone="success">{t('orders.state.complete')}</Badge>;
  if (order.provisioning?.waitingFor === 'customer_correction')
    return <Badge tone="danger">{t('orders.state.rejected')}</Badge>;
  if (last === 'failed' && order.provisioning?.waitingFor === 'none')
    return <Badge tone="danger">{t('orders.state.failed')}</Badge>;
  return (
    <Badge tone="warning">
      {order.provisioning
        ? t(`orders.waiting.${order.provisioning.waitingFor}`)
        : t('orders.state.processing')}
    </Badge>
  );
}

function StepItem({ step, t }: { step: StaffOrderStep; t: T }) {
  const bad = step.step === 'port_rejected' || step.step === 'failed';
  return (
    <li className="relative pb-3 pl-6 before:absolute before:top-3 before:bottom-0 before:left-[4.5px] before:w-px before:bg-mist-300 last:pb-0 last:before:hidden">
      <span
        aria-hidden="true"
        className={cx(
          'absolute top-1.5 left-0 size-2.5 rounded-full',
          bad ? 'bg-danger-600' : 'bg-fjord-500',
        )}
      />
      <div className="flex flex-wrap items-baseline gap-x-3 gap-y-0.5">
        <span className={cx('font-semibold', bad ? 'text-danger-700' : 'text-mist-900')}>
          {t(`orders.step.${step.step}`)}
        </span>
        <span className="text-caption text-mist-600 tabular-nums">{formatDateTime(step.at)}</span>
        <span className="text-caption text-mist-600">
          {t('orders.by', { actor: actorText(step.actor, t) })}
        </span>
      </div>
      {step.reason ? (
        <p className="mt-0.5 text-caption break-words text-mist-800">
          {t('orders.reason', { reason: step.reason })}
        </p>
      ) : null}
    </li>
  );
}

function OrderCard({
  order,
  locale,
  linkOrders,
}: {
  order: StaffCustomerOrder;
  locale: Locale;
  linkOrders: boolean;
}) {
  const { t } = useTranslation('customers');
  const p = order.provisioning;
  const porting = p?.porting;
  const facts: Array<[string, string]> = [
    [t('orders.created'), formatDateTime(order.createdAt)],
    [t('orders.id'), order.id],
  ];
  if (order.planName) facts.push([t('orders.plan'), order.planName]);
  if (order.priceOere !== null)
    facts.push([
      t('orders.price'),
      `${formatKr(order.priceOere, locale)} · ${t(`payments.orderPayment.${order.paymentStatus}`)}`,
    ]);
  if (order.lifecycleAction)
    facts.push([t('orders.lifecycle'), t(`orders.lifecycleAction.${order.lifecycleAction}`)]);
  if (!order.placedByCustomer) facts.push([t('orders.placedBy'), t('orders.placedByOwner')]);
  if (p?.delivery) facts.push([t('orders.delivery'), t(`orders.deliveries.${p.delivery}`)]);
  if (p?.portDate) facts.push([t('orders.portDate'), formatDate(p.portDate)]);
  if (p?.expectedAt && !order.isComplete)
    facts.push([t('orders.expectedAt'), formatDateTime(p.expectedAt)]);
  if (order.completedAt) facts.push([t('orders.completed'), formatDateTime(order.completedAt)]);

  return (
    <article
      aria-label={t('orders.cardLabel', {
        kind: t(`orders.kind.${order.kind}`),
        number: order.msisdn ? formatPhoneNumber(order.msisdn) : '',
      })}
      className={cx(
        'rounded-xl border bg-white p-4',
        p?.waitingFor === 'customer_correction' ? 'border-danger-600/40' : 'border-mist-200',
      )}
    >
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <h3 className="text-body font-bold text-ocean-950">
          {t(`orders.kind.${order.kind}`)}
          {order.msisdn ? (
            <span className="ml-2 font-semibold text-mist-700 tabular-nums">
              {formatPhoneNumber(order.msisdn)}
            </span>
          ) : null}
        </h3>
        <div className="flex flex-wrap items-center gap-3">
          <OrderState order={order} />
          {linkOrders && p ? (
            <Link
              to={`/orders/${order.id}`}
              className="text-caption font-semibold text-ocean-700 underline decoration-ocean-300 underline-offset-2 hover:text-ocean-900"
            >
              {t('orders.openInOrders')}
            </Link>
          ) : null}
        </div>
      </div>
      <div className="grid gap-4 lg:grid-cols-[minmax(0,20rem)_minmax(0,1fr)]">
        <Facts items={facts} />
        {p ? (
          <div className="flex flex-col gap-3">
            {porting?.rejection ? (
              <div
                className={cx(
                  'rounded-lg border px-3 py-2.5 text-caption',
                  porting.correction === 'waiting'
                    ? 'border-danger-600/30 bg-danger-50 text-danger-700'
                    : 'border-ocean-200 bg-ocean-50 text-ocean-900',
                )}
              >
                <p className="font-semibold">
                  {t('orders.porting.rejected', { date: formatDateTime(porting.rejection.at) })}
                </p>
                <p className="mt-0.5">
                  {t('orders.reason', {
                    reason: porting.rejection.reason ?? t('orders.porting.noReason'),
                  })}
                </p>
                <p className="mt-1.5 font-medium">
                  {porting.correction === 'waiting'
                    ? t('orders.porting.waiting', { iccid: porting.simcardNumber ?? '–' })
                    : t('orders.porting.corrected', { iccid: porting.simcardNumber ?? '–' })}
                </p>
              </div>
            ) : porting?.simcardNumber ? (
              <p className="text-caption text-mist-700">
                {t('orders.porting.simcard', { iccid: porting.simcardNumber })}
              </p>
            ) : null}
            <div>
              <h4 className="mb-2 text-caption font-semibold text-mist-700">
                {t('orders.timeline')}
              </h4>
              <ol className="text-caption">
                {p.steps.map((step, i) => (
                  <StepItem key={`${step.step}-${step.at}-${i}`} step={step} t={t} />
                ))}
              </ol>
              {p.upcoming.length > 0 ? (
                <p className="mt-2 text-caption text-mist-600">
                  {t('orders.upcoming', {
                    steps: p.upcoming.map((s) => t(`orders.step.${s}`)).join(' → '),
                  })}
                </p>
              ) : null}
            </div>
          </div>
        ) : (
          <p className="text-caption text-mist-600">{t('orders.noSteps')}</p>
        )}
      </div>
    </article>
  );
}

export function OrdersTab({
  orders,
  locale,
  linkOrders,
}: {
  orders: StaffCustomerView['orders'];
  locale: Locale;
  /** The staff member may open the orders area (its actions: advance, retry, …). */
  linkOrders: boolean;
}) {
  const { t } = useTranslation('customers');
  return (
    <Block title={t('orders.title')}>
      {orders.length === 0 ? (
        <p className="text-body text-mist-600">{t('orders.empty')}</p>
      ) : (
        <div className="flex flex-col gap-3">
          {orders.map((order) => (
            <OrderCard key={order.id} order={order} locale={locale} linkOrders={linkOrders} />
          ))}
        </div>
      )}
    </Block>
  );
}

const PAYMENT_TONES: Record<StaffCustomerPayment['state'], BadgeTone> = {
  created: 'neutral',
  pending: 'warning',
  paid: 'success',
  failed: 'danger',
  cancelled: 'neutral',
};
const REFUND_TONES = { pending: 'warning', refunded: 'success', failed: 'danger' } as const;

export function PaymentsTab({
  payments,
  locale,
  linkPayments,
}: {
  payments: StaffCustomerView['payments'];
  locale: Locale;
  /** The staff member may open the payments area (support, admin). */
  linkPayments: boolean;
}) {
  const { t } = useTranslation('customers');
  const columns: DataColumn<StaffCustomerPayment>[] = [
    {
      id: 'created',
      header: () => t('payments.columns.created'),
      cell: ({ row }) =>
        linkPayments ? (
          <Link
            to={`/payments/${row.original.id}`}
            className="font-semibold whitespace-nowrap text-ocean-700 underline decoration-ocean-300 underline-offset-2 hover:text-ocean-900"
          >
            {formatDateTime(row.original.createdAt)}
          </Link>
        ) : (
          <span className="whitespace-nowrap">{formatDateTime(row.original.createdAt)}</span>
        ),
    },
    {
      id: 'kind',
      header: () => t('payments.columns.kind'),
      cell: ({ row }) => t(`orders.kind.${row.original.orderKind}`),
    },
    {
      id: 'amount',
      header: () => t('payments.columns.amount'),
      cell: ({ row }) => (
        <span className="whitespace-nowrap tabular-nums">
          {formatKr(row.original.amountOere, locale)}
        </span>
      ),
    },
    {
      id: 'method',
      header: () => t('payments.columns.method'),
      cell: ({ row }) => (
        <div>
          <div>{t(`payments.method.${row.original.method}`)}</div>
          {row.original.card ? (
            <div className="text-caption whitespace-nowrap text-mist-600">
              {row.original.card.last4 === null && row.original.card.brand
                ? row.original.card.brand
                : t('payments.card', {
                    brand: row.original.card.brand ?? t('payments.unknownBrand'),
                    last4: row.original.card.last4 ?? '····',
                  })}
            </div>
          ) : null}
        </div>
      ),
    },
    {
      id: 'state',
      header: () => t('payments.columns.state'),
      cell: ({ row }) => (
        <div className="flex flex-col items-start gap-1">
          <Badge tone={PAYMENT_TONES[row.original.state]}>
            {t(`payments.state.${row.original.state}`)}
          </Badge>
          {row.original.failureReason ? (
            <span className="text-caption text-mist-600">{row.original.failureReason}</span>
          ) : null}
        </div>
      ),
    },
    {
      id: 'refunds',
      header: () => t('payments.columns.refunds'),
      cell: ({ row }) =>
        row.original.refunds.length === 0 ? (
          <span className="text-mist-600">{t('payments.noRefunds')}</span>
        ) : (
          <ul className="flex flex-col gap-1.5">
            {row.original.refunds.map((refund) => (
              <li key={refund.id} className="flex flex-col items-start gap-0.5">
                <span className="flex flex-wrap items-center gap-2">
                  <span className="tabular-nums">{formatKr(refund.amountOere, locale)}</span>
                  <Badge tone={REFUND_TONES[refund.state]}>
                    {t(`payments.refundState.${refund.state}`)}
                  </Badge>
                </span>
                <span className="text-caption text-mist-600">
                  {refund.requestedBy
                    ? t('payments.refundBy', {
                        who: actorText(refund.requestedBy, t),
                        date: formatDateTime(refund.createdAt),
                      })
                    : t('payments.refundAutomatic', { date: formatDateTime(refund.createdAt) })}
                </span>
                {refund.reason ? (
                  <span className="text-caption break-words text-mist-700">
                    {t('orders.reason', { reason: refund.reason })}
                  </span>
                ) : null}
              </li>
            ))}
          </ul>
        ),
    },
  ];
  return (
    <Block title={t('payments.title')}>
      <DataTable
        columns={columns}
        data={payments}
        caption={t('payments.title')}
        getRowId={(row) => row.id}
        empty={t('payments.empty')}
      />
    </Block>
  );
}

export function ReceiptsTab({
  receipts,
  locale,
}: {
  receipts: StaffCustomerView['receipts'];
  locale: Locale;
}) {
  const { t } = useTranslation('customers');
  type Receipt = StaffCustomerView['receipts'][number];
  const columns: DataColumn<Receipt>[] = [
    {
      id: 'number',
      header: () => t('receipts.columns.number'),
      cell: ({ row }) => <span className="font-semibold tabular-nums">{row.original.number}</span>,
    },
    {
      id: 'issued',
      header: () => t('receipts.columns.issued'),
      cell: ({ row }) => formatDateTime(row.original.issuedAt),
    },
    {
      id: 'kind',
      header: () => t('receipts.columns.kind'),
      cell: ({ row }) => t(`orders.kind.${row.original.orderKind}`),
    },
    {
      id: 'amount',
      header: () => t('receipts.columns.amount'),
      cell: ({ row }) => (
        <span className="tabular-nums">{formatKr(row.original.grossOere, locale)}</span>
      ),
    },
  ];
  return (
    <Block title={t('receipts.title')}>
      <DataTable
        columns={columns}
        data={receipts}
        caption={t('receipts.title')}
        getRowId={(row) => row.id}
        empty={t('receipts.empty')}
      />
    </Block>
  );
}

export function MessagesTab({
  customerId,
  messages,
  notifications,
  mayAct,
}: {
  customerId: string;
  messages: StaffCustomerView['messages'];
  notifications: StaffCustomerView['notifications'];
  /** The staff member may resend (support, admin). */
  mayAct: boolean;
}) {
  const { t } = useTranslation('customers');
  const [resending, setResending] = useState<StaffCustomerMessage | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const resend = useResendMessage(customerId);

  const columns: DataColumn<StaffCustomerMessage>[] = [
    {
      id: 'sent',
      header: () => t('messages.columns.sent'),
      cell: ({ row }) => (
        <span className="whitespace-nowrap">{formatDateTime(row.original.createdAt)}</span>
      ),
    },
    {
      id: 'channel',
      header: () => t('messages.columns.channel'),
      cell: ({ row }) => (
        <div>
          <div>{t(`messages.channel.${row.original.channel}`)}</div>
          <div className="text-caption break-words text-mist-600">
            {formatRecipient(row.original.to)}
          </div>
        </div>
      ),
    },
    {
      id: 'message',
      header: () => t('messages.columns.message'),
      cell: ({ row }) => (
        <div className="max-w-xl">
          <div className="font-semibold">
            {row.original.subject ?? t(`messages.kind.${row.original.kind}`)}
          </div>
          {row.original.text ? (
            <details className="mt-1">
              <summary className="cursor-pointer text-caption font-semibold text-ocean-700">
                {t('messages.showText')}
              </summary>
              <p className="mt-1 text-caption break-words whitespace-pre-line text-mist-800">
                {row.original.text}
              </p>
            </details>
          ) : (
            <p className="text-caption text-mist-600">{t('messages.hidden')}</p>
          )}
        </div>
      ),
    },
    {
      id: 'delivery',
      header: () => t('messages.columns.delivery'),
      cell: ({ row }) => {
        const { state, error, at } = row.original.delivery;
        return (
          <div>
            <Badge tone={DELIVERY_TONES[state]}>{t(`messages.delivery.${state}`)}</Badge>
            {state === 'kept' ? null : (
              <div className="mt-1 text-caption whitespace-nowrap text-mist-600">
                {formatDateTime(at)}
              </div>
            )}
            {error ? (
              <p className="mt-1 max-w-xs text-caption break-words text-danger-700">
                {t(state === 'failed' ? 'messages.deliveryError' : 'messages.deliveryRetry', {
                  error,
                })}
              </p>
            ) : null}
          </div>
        );
      },
    },
    {
      id: 'resend',
      header: () => t('messages.columns.resend'),
      cell: ({ row }) =>
        row.original.resendable ? (
          mayAct ? (
            <Button
              variant="secondary"
              size="sm"
              icon={<Send aria-hidden="true" className="size-4" />}
              aria-label={t('messages.resendNamed', {
                subject: row.original.subject ?? t(`messages.kind.${row.original.kind}`),
              })}
              onClick={() => {
                resend.reset();
                setDone(null);
                setResending(row.original);
              }}
            >
              {t('messages.resend')}
            </Button>
          ) : (
            <span className="text-caption text-mist-600">{t('messages.supportOnly')}</span>
          )
        ) : (
          <span className="text-caption text-mist-600">
            {t(`messages.notResendable.${row.original.kind}`)}
          </span>
        ),
    },
  ];

  type Note = StaffCustomerView['notifications'][number];
  const noteColumns: DataColumn<Note>[] = [
    {
      id: 'sent',
      header: () => t('messages.columns.sent'),
      cell: ({ row }) => (
        <span className="whitespace-nowrap">{formatDateTime(row.original.createdAt)}</span>
      ),
    },
    {
      id: 'message',
      header: () => t('messages.columns.message'),
      cell: ({ row }) => (
        <div className="max-w-xl">
          <div className="font-semibold">{row.original.title}</div>
          <p className="text-caption break-words text-mist-800">{row.original.body}</p>
        </div>
      ),
    },
    {
      id: 'read',
      header: () => t('messages.columns.read'),
      cell: ({ row }) =>
        row.original.readAt ? (
          formatDateTime(row.original.readAt)
        ) : (
          <Badge tone="info">{t('messages.unread')}</Badge>
        ),
    },
  ];

  const notKept = !messages.kept.email || !messages.kept.sms;
  return (
    <div className="flex flex-col gap-8">
      <Block title={t('messages.title')}>
        {notKept ? (
          <Notice>
            {t(
              !messages.kept.email && !messages.kept.sms
                ? 'messages.keptNone'
                : !messages.kept.email
                  ? 'messages.keptSmsOnly'
                  : 'messages.keptEmailOnly',
            )}
          </Notice>
        ) : null}
        {done ? <Notice tone="success">{done}</Notice> : null}
        <DataTable
          columns={columns}
          data={messages.items}
          caption={t('messages.title')}
          getRowId={(row) => row.id}
          empty={t('messages.empty')}
        />
      </Block>
      <Block title={t('messages.notificationsTitle')}>
        <DataTable
          columns={noteColumns}
          data={notifications}
          caption={t('messages.notificationsTitle')}
          getRowId={(row) => row.id}
          empty={t('messages.notificationsEmpty')}
        />
      </Block>
      {resending ? (
        <ReasonDialog
          title={t('messages.resendTitle')}
          lead={t('messages.resendLead', {
            subject: resending.subject ?? t(`messages.kind.${resending.kind}`),
            to: formatRecipient(resending.to),
          })}
          texts={reasonTexts(t, t('messages.resend'), t('messages.resending'))}
          pending={resend.isPending}
          error={resend.error}
          onClose={() => setResending(null)}
          onConfirm={(reason) =>
            resend.mutate(
              { messageId: resending.id, reason },
              {
                onSuccess: (result) => {
                  setResending(null);
                  setDone(t('messages.resent', { to: formatRecipient(result.to) }));
                },
              },
            )
          }
        />
      ) : null}
    </div>
  );
}

export function SessionsTab({
  customerId,
  sessions,
  mayAct,
}: {
  customerId: string;
  sessions: StaffCustomerView['sessions'];
  mayAct: boolean;
}) {
  const { t } = useTranslation('customers');
  const [asking, setAsking] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const signOut = useSignOutEverywhere(customerId);
  const live = sessions.filter((s) => s.revokedAt === null).length;

  const columns: DataColumn<StaffCustomerSession>[] = [
    {
      id: 'device',
      header: () => t('sessions.columns.device'),
      cell: ({ row }) => {
        const s = row.original;
        const name = s.deviceName ?? s.model ?? t('sessions.unknownDevice');
        return (
          <div className="max-w-sm">
            <div className="font-semibold">{name}</div>
            <div className="text-caption text-mist-600">
              {[s.platform ? t(`sessions.platform.${s.platform}`) : null, s.model, s.country]
                .filter(Boolean)
                .join(' · ')}
            </div>
            {s.userAgent ? (
              <div className="text-caption break-words text-mist-500">{s.userAgent}</div>
            ) : null}
          </div>
        );
      },
    },
    {
      id: 'signedIn',
      header: () => t('sessions.columns.signedIn'),
      cell: ({ row }) => (
        <span className="whitespace-nowrap">{formatDateTime(row.original.createdAt)}</span>
      ),
    },
    {
      id: 'lastSeen',
      header: () => t('sessions.columns.lastSeen'),
      cell: ({ row }) => (
        <span className="whitespace-nowrap">{formatDateTime(row.original.lastSeenAt)}</span>
      ),
    },
    {
      id: 'state',
      header: () => t('sessions.columns.state'),
      cell: ({ row }) =>
        row.original.revokedAt ? (
          <div className="flex flex-col items-start gap-0.5">
            <Badge tone="neutral">{t('sessions.ended')}</Badge>
            <span className="text-caption text-mist-600">
              {formatDateTime(row.original.revokedAt)}
              {row.original.revokedReason
                ? ` · ${t(`sessions.revokedReason.${row.original.revokedReason}`)}`
                : ''}
            </span>
          </div>
        ) : (
          <Badge tone="success">{t('sessions.live')}</Badge>
        ),
    },
  ];

  return (
    <Block
      title={t('sessions.title')}
      actions={
        mayAct ? (
          <Button
            variant="danger"
            size="sm"
            icon={<MonitorX aria-hidden="true" className="size-4" />}
            disabled={live === 0}
            className="disabled:opacity-50"
            onClick={() => {
              signOut.reset();
              setDone(null);
              setAsking(true);
            }}
          >
            {t('sessions.signOutEverywhere')}
          </Button>
        ) : null
      }
    >
      <p className="text-caption text-mist-600">
        {live > 0 ? t('sessions.liveCount', { count: live }) : t('sessions.noneLive')}
      </p>
      {done ? <Notice tone="success">{done}</Notice> : null}
      <DataTable
        columns={columns}
        data={sessions}
        caption={t('sessions.title')}
        getRowId={(row) => row.id}
        empty={t('sessions.empty')}
      />
      {asking ? (
        <ReasonDialog
          title={t('sessions.confirmTitle')}
          lead={t('sessions.confirmLead', { count: live })}
          texts={reasonTexts(t, t('sessions.signOutEverywhere'), t('sessions.signingOut'))}
          tone="danger"
          pending={signOut.isPending}
          error={signOut.error}
          onClose={() => setAsking(false)}
          onConfirm={(reason) =>
            signOut.mutate(reason, {
              onSuccess: (result) => {
                setAsking(false);
                setDone(t('sessions.done', { count: result.ended }));
              },
            })
          }
        />
      ) : null}
    </Block>
  );
}

export function ActivityTab({
  activity,
  locale,
}: {
  activity: StaffCustomerView['activity'];
  locale: Locale;
}) {
  const { t } = useTranslation('customers');
  type Entry = StaffCustomerView['activity'][number];
  const columns: DataColumn<Entry>[] = [
    {
      id: 'when',
      header: () => t('activity.columns.when'),
      cell: ({ row }) => (
        <span className="whitespace-nowrap">{formatDateTime(row.original.createdAt)}</span>
      ),
    },
    {
      id: 'what',
      header: () => t('activity.columns.what'),
      cell: ({ row }) => row.original.text,
    },
    {
      id: 'number',
      header: () => t('activity.columns.number'),
      cell: ({ row }) =>
        row.original.msisdn ? (
          <span className="tabular-nums">{formatPhoneNumber(row.original.msisdn)}</span>
        ) : null,
    },
    {
      id: 'by',
      header: () => t('activity.columns.by'),
      cell: ({ row }) => row.original.actorName ?? t('activity.customer'),
    },
    {
      id: 'amount',
      header: () => t('activity.columns.amount'),
      cell: ({ row }) =>
        row.original.amountOere !== null ? (
          <span className="tabular-nums">{formatKr(row.original.amountOere, locale)}</span>
        ) : null,
    },
  ];
  return (
    <Block title={t('activity.title')}>
      <DataTable
        columns={columns}
        data={activity}
        caption={t('activity.title')}
        getRowId={(row) => row.id}
        empty={t('activity.empty')}
      />
    </Block>
  );
}
