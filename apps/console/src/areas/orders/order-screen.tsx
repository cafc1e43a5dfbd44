import { useId, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useParams } from 'react-router';
import { ArrowLeft, CircleAlert, CircleCheck } from 'lucide-react';
import type { StaffOrderDetail } from '@alda/contract/schemas/staff-orders';
import type { StaffRole } from '@alda/contract/schemas/staff';
import { isApiError } from '@/shared/api';
import { cx } from '@/shared/cx';
import { useErrorText } from '@/shared/error-text';
import { useSession } from '@/shared/services';
import { Button } from '@/shared/ui/button';
import { LoadFailed } from '@/shared/ui/load-failed';
import { Notice } from '@/shared/ui/notice';
import { PageHeader } from '@/shared/ui/page-header';
import { UpdatedAt } from '@/shared/ui/updated-at';
import { CommandDialog } from './command-dialog';
import { actorOf, formatDateTime, formatIccid, formatPhoneNumber, kindKey } from './format';
import {
  COMMANDS,
  useOrder,
  useOrderCommand,
  usePortCorrection,
  type OrderCommand,
} from './orders-api';
import { PortCorrectionForm } from './port-correction-form';
import { OrderStateBadge } from './state-badge';

/** Who may give the provisioning commands (the API's `staffOnly('provisioning')`). */
export function mayCommand(role: StaffRole): boolean {
  return role === 'provisioning' || role === 'admin';
}

/** Who may enter a port correction for the customer (support and provisioning, and admin). */
export function mayCorrectPort(role: StaffRole): boolean {
  return role === 'support' || role === 'provisioning' || role === 'admin';
}

/**
 * `/console/orders/:id`: one order — its summary, for a port the other provider's rejection and
 * the customer's correction, the step timeline and the commands given on it; the provisioning
 * commands (provisioning) and the port correction (support, provisioning). Refreshed every 5 s,
 * so the order moves on screen as the worker or the customer moves it.
 */
export function OrderScreen() {
  const { id = '' } = useParams();
  const { t } = useTranslation('orders');
  const errorText = useErrorText();
  const role = useSession()?.staff.role ?? 'support';
  const order = useOrder(id);
  const correction = usePortCorrection(id);
  const location = useLocation();
  const queueSearch =
    typeof (location.state as { queueSearch?: unknown } | null)?.queueSearch === 'string'
      ? (location.state as { queueSearch: string }).queueSearch
      : '';

  const back = (
    <Link
      to={{ pathname: '..', search: queueSearch }}
      relative="path"
      className="mb-4 inline-flex items-center gap-1.5 text-caption font-semibold text-ocean-700 hover:text-ocean-900"
    >
      <ArrowLeft aria-hidden="true" className="size-4" />
      {t('order.back')}
    </Link>
  );

  if (order.isPending) {
    return (
      <>
        {back}
        <PageHeader title={t('order.loading')} />
      </>
    );
  }
  if (!order.data) {
    const notFound = isApiError(order.error, 'NOT_FOUND', 'VALIDATION_FAILED');
    return (
      <>
        {back}
        <PageHeader title={notFound ? t('order.notFound') : t('order.loadFailed')} />
        {notFound ? null : (
          <LoadFailed
            error={order.error}
            retry={t('order.retry')}
            onRetry={() => void order.refetch()}
          />
        )}
      </>
    );
  }

  const data = order.data;
  const kind = [t(`kind.${kindKey(data)}`), data.delivery ? t(`delivery.${data.delivery}`) : null]
    .filter(Boolean)
    .join(' · ');
  return (
    <>
      {back}
      <PageHeader
        title={
          data.msisdn
            ? t('order.title', { number: formatPhoneNumber(data.msisdn) })
            : t('order.titleNoNumber')
        }
        lead={kind}
        actions={
          <div className="flex flex-col items-end gap-1">
            <OrderStateBadge state={data.state} />
            <UpdatedAt at={order.dataUpdatedAt} className="text-caption text-mist-600" />
          </div>
        }
      />
      {order.isError ? (
        <Notice tone="danger" className="mb-4">
          {errorText(order.error)}
        </Notice>
      ) : null}
      <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_24rem]">
        <div className="flex min-w-0 flex-col gap-6">
          {data.porting ? <PortingSection order={data} /> : null}
          <Timeline order={data} />
          {data.networkOrders.length > 0 ? <NetworkOrders order={data} /> : null}
          <History order={data} />
        </div>
        <div className="flex min-w-0 flex-col gap-6">
          <Summary order={data} />
          {mayCommand(role) ? <Commands order={data} /> : null}
          {mayCorrectPort(role) && data.actions['port-correction'].allowed ? (
            <PortCorrectionForm save={correction} />
          ) : correction.isSuccess ? (
            <Notice tone="success">{t('correction.done')}</Notice>
          ) : null}
        </div>
      </div>
    </>
  );
}

function Panel({
  title,
  children,
  tone = 'plain',
}: {
  title: string;
  children: ReactNode;
  tone?: 'plain' | 'alert';
}) {
  const headingId = useId();
  return (
    <section
      aria-labelledby={headingId}
      className={cx(
        'rounded-xl border bg-white p-5',
        tone === 'alert' ? 'border-danger-600/40' : 'border-mist-200',
      )}
    >
      <h2 id={headingId} className="mb-3 text-heading font-bold text-ocean-950">
        {title}
      </h2>
      {children}
    </section>
  );
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-0.5">
      <dt className="text-caption font-semibold text-mist-600">{label}</dt>
      <dd className="text-body break-words text-mist-900">{children}</dd>
    </div>
  );
}

function Summary({ order }: { order: StaffOrderDetail }) {
  const { t } = useTranslation('orders');
  return (
    <Panel title={t('order.summary')}>
      <dl className="flex flex-col gap-3">
        <Field label={t('order.fields.customer')}>
          <span className="flex flex-col">
            <span>{order.customer.name ?? t('queue.noCustomer')}</span>
            <Link
              to={`/customers/${order.customer.id}`}
              className="text-caption font-semibold text-ocean-700 underline decoration-ocean-300 underline-offset-2 hover:text-ocean-900"
            >
              {t('order.openCustomer')}
            </Link>
          </span>
        </Field>
        {order.customer.email ? (
          <Field label={t('order.fields.email')}>{order.customer.email}</Field>
        ) : null}
        {order.msisdn ? (
          <Field label={t('order.fields.number')}>
            <span className="tabular-nums">{formatPhoneNumber(order.msisdn)}</span>
            {order.line ? (
              <span className="text-mist-600"> · {t(`lineStatus.${order.line.status}`)}</span>
            ) : null}
          </Field>
        ) : null}
        <Field label={t('order.fields.waiting')}>{t(`waiting.${order.waitingFor}`)}</Field>
        <Field label={t('order.fields.nextStep')}>
          {order.nextStep ? t(`step.${order.nextStep}`) : t('order.nothingNext')}
        </Field>
        {order.nextAt ? (
          <Field label={t('order.fields.nextAt')}>
            <span className={cx('tabular-nums', order.late && 'font-semibold text-danger-700')}>
              {formatDateTime(order.nextAt)}
            </span>
            {order.late ? (
              <span className="mt-1 flex items-center gap-1.5 text-caption font-semibold text-danger-700">
                <CircleAlert aria-hidden="true" className="size-4 shrink-0" />
                {t('order.lateNote', { time: formatDateTime(order.nextAt) })}
              </span>
            ) : null}
          </Field>
        ) : null}
        <Field label={t('order.fields.created')}>{formatDateTime(order.createdAt)}</Field>
        <Field label={t('order.fields.orderId')}>
          <span className="font-mono text-caption">{order.id}</span>
        </Field>
      </dl>
    </Panel>
  );
}

function PortingSection({ order }: { order: StaffOrderDetail }) {
  const { t } = useTranslation('orders');
  const porting = order.porting;
  if (!porting) return null;
  const correction = porting.correction;
  const who = (by: string | null) => {
    const actor = actorOf(by ?? '');
    return actor.key === 'staff' || actor.key === 'operator' ? actor.name : '';
  };
  return (
    <Panel title={t('porting.title')} tone={correction?.state === 'waiting' ? 'alert' : 'plain'}>
      <dl className="mb-4 grid gap-3 sm:grid-cols-2">
        <Field label={t('porting.simcard')}>
          <span className="font-mono text-caption">
            {porting.simcardNumber ? formatIccid(porting.simcardNumber) : '–'}
          </span>
        </Field>
        <Field label={t('porting.portDate')}>
          {porting.portDate ? formatDateTime(porting.portDate) : t('porting.notSet')}
        </Field>
      </dl>
      {porting.rejection ? (
        <div className="flex flex-col gap-3">
          <div className="rounded-lg border border-danger-600/30 bg-danger-50 px-4 py-3 text-danger-700">
            <h3 className="flex items-center gap-2 text-body font-bold">
              <CircleAlert aria-hidden="true" className="size-4 shrink-0" />
              {t('porting.rejectedTitle', { time: formatDateTime(porting.rejection.at) })}
            </h3>
            <p className="mt-2 text-caption font-semibold">{t('porting.providerReason')}</p>
            <p className="text-body">{porting.rejection.reason ?? t('porting.noReason')}</p>
            {porting.rejection.code ? (
              <p className="mt-1 font-mono text-caption">
                {t('porting.code', { code: porting.rejection.code })}
              </p>
            ) : null}
          </div>
          {correction ? (
            <div
              className={cx(
                'rounded-lg border px-4 py-3',
                correction.state === 'waiting'
                  ? 'border-warning-600/30 bg-warning-50 text-warning-600'
                  : correction.state === 'entered'
                    ? 'border-success-600/30 bg-success-50 text-success-600'
                    : 'border-mist-300 bg-mist-50 text-mist-700',
              )}
            >
              <h3 className="flex items-center gap-2 text-body font-bold">
                {correction.state === 'entered' ? (
                  <CircleCheck aria-hidden="true" className="size-4 shrink-0" />
                ) : (
                  <CircleAlert aria-hidden="true" className="size-4 shrink-0" />
                )}
                {t('porting.correctionTitle')}
              </h3>
              <p className="mt-2 text-body text-mist-900">
                {correction.state === 'waiting'
                  ? t('porting.waiting')
                  : correction.state === 'stopped'
                    ? t('porting.stopped')
                    : correction.state === 'asked-again'
                      ? t('porting.askedAgain', {
                          iccid: formatIccid(correction.simcardNumber ?? ''),
                        })
                      : correction.by === 'customer' || correction.by === null
                        ? t('porting.enteredByCustomer', {
                            iccid: formatIccid(correction.simcardNumber ?? ''),
                          })
                        : t('porting.enteredByStaff', {
                            who: who(correction.by),
                            iccid: formatIccid(correction.simcardNumber ?? ''),
                          })}
              </p>
              {correction.at ? (
                <p className="mt-1 text-caption text-mist-700">
                  {t('porting.enteredAt', { time: formatDateTime(correction.at) })}
                </p>
              ) : null}
              {correction.state === 'entered' && order.lastStep === 'port_rejected' ? (
                <p className="mt-1 text-caption text-mist-700">{t('porting.nextAttempt')}</p>
              ) : null}
            </div>
          ) : null}
        </div>
      ) : null}
    </Panel>
  );
}

/** Who did a step or gave a command, in words. */
function useActorText(): (actor: string) => string {
  const { t } = useTranslation('orders');
  return (actor) => {
    const who = actorOf(actor);
    if (who.key === 'staff') return who.name;
    if (who.key === 'operator') return t('actor.operator', { name: who.name });
    return t(`actor.${who.key}`);
  };
}

function Timeline({ order }: { order: StaffOrderDetail }) {
  const { t } = useTranslation('orders');
  const actorText = useActorText();
  return (
    <Panel title={t('timeline.title')}>
      {order.steps.length === 0 ? (
        <p className="text-body text-mist-600">{t('timeline.none')}</p>
      ) : (
        <ol className="flex flex-col">
          {order.steps.map((step, i) => {
            const bad = step.step === 'port_rejected' || step.step === 'failed';
            return (
              <li
                key={`${step.step}-${step.at}-${i}`}
                className="relative border-l-2 border-mist-200 pb-4 pl-5 last:pb-0"
              >
                <span
                  aria-hidden="true"
                  className={cx(
                    'absolute top-1 -left-[7px] size-3 rounded-full ring-2 ring-white',
                    bad ? 'bg-danger-600' : 'bg-ocean-600',
                  )}
                />
                <p
                  className={cx(
                    'text-body font-semibold',
                    bad ? 'text-danger-700' : 'text-ocean-950',
                  )}
                >
                  {t(`step.${step.step}`)}
                </p>
                <p className="text-caption text-mist-600">
                  <time dateTime={step.at}>{formatDateTime(step.at)}</time>
                  {' · '}
                  {t('timeline.by', { actor: actorText(step.actor) })}
                </p>
                {step.codeText ? (
                  <p className="mt-1 text-caption text-mist-800">
                    {t('timeline.codeText', { text: step.codeText })}
                  </p>
                ) : null}
                {step.operatorReason ? (
                  <p className="mt-1 text-caption break-words text-mist-800">
                    {/* A step the network failed carries the network's own words (ADR 0082). */}
                    {step.actor === 'network'
                      ? t('timeline.networkReason', { text: step.operatorReason })
                      : t('timeline.operatorReason', { text: step.operatorReason })}
                  </p>
                ) : null}
              </li>
            );
          })}
        </ol>
      )}
      {order.upcoming.length > 0 ? (
        <div className="mt-4 border-t border-mist-100 pt-3">
          <h3 className="text-caption font-semibold text-mist-600">{t('timeline.upcoming')}</h3>
          <ol className="mt-1 flex flex-wrap gap-x-2 gap-y-1 text-caption text-mist-600">
            {order.upcoming.map((step, i) => (
              <li key={step} className="flex items-center gap-2">
                {i > 0 ? <span aria-hidden="true">→</span> : null}
                {t(`step.${step}`)}
              </li>
            ))}
          </ol>
        </div>
      ) : null}
    </Panel>
  );
}

const NETWORK_CALLS = ['activate', 'prepareEsim', 'issueSim', 'requestPort'] as const;
type NetworkCall = (typeof NETWORK_CALLS)[number];
const networkCall = (call: string): NetworkCall | null =>
  (NETWORK_CALLS as readonly string[]).includes(call) ? (call as NetworkCall) : null;
/** The network's states where the order has ended badly (TMF641 ServiceOrderStateType). */
const NETWORK_FAILED = new Set(['failed', 'partial', 'rejected', 'cancelled']);

/**
 * The service orders the TMF641 adapter placed at the operator's OSS for this order (ADR 0082):
 * each call of a step, with the state the OSS reports — `held` or `pending` there say why a step
 * takes long — and, when it failed, the OSS's reason.
 */
function NetworkOrders({ order }: { order: StaffOrderDetail }) {
  const { t } = useTranslation('orders');
  return (
    <Panel title={t('network.title')}>
      <p className="mb-3 text-caption text-mist-600">{t('network.lead')}</p>
      <ul className="flex flex-col divide-y divide-mist-100">
        {order.networkOrders.map((n) => {
          const call = networkCall(n.call);
          const bad = NETWORK_FAILED.has(n.state);
          return (
            <li key={n.externalId} className="py-2.5 first:pt-0 last:pb-0">
              <p className="flex flex-wrap items-baseline gap-x-3 text-body">
                <span className="font-semibold text-ocean-950">
                  {call ? t(`network.call.${call}`) : n.call}
                </span>
                <span
                  className={cx(
                    'font-mono text-caption',
                    bad ? 'font-semibold text-danger-700' : 'text-mist-800',
                  )}
                >
                  {n.state}
                </span>
              </p>
              <p className="text-caption text-mist-600">
                {t('network.meta', {
                  id: n.id,
                  time: formatDateTime(n.updatedAt),
                })}
              </p>
              {n.reason || n.errorCode ? (
                <p className="mt-1 text-caption break-words text-danger-700">
                  {t('network.reason', {
                    text: [n.errorCode, n.reason].filter(Boolean).join(': '),
                  })}
                </p>
              ) : null}
            </li>
          );
        })}
      </ul>
    </Panel>
  );
}

const HISTORY_ACTIONS = ['advance', 'complete', 'fail', 'retry', 'port-correction'] as const;
type HistoryAction = (typeof HISTORY_ACTIONS)[number];
/** `order.retry` (console) and `retry` (command line) are the same command. */
function historyAction(action: string): HistoryAction | null {
  const verb = action.startsWith('order.') ? action.slice('order.'.length) : action;
  return (HISTORY_ACTIONS as readonly string[]).includes(verb) ? (verb as HistoryAction) : null;
}

function History({ order }: { order: StaffOrderDetail }) {
  const { t } = useTranslation('orders');
  const actorText = useActorText();
  return (
    <Panel title={t('history.title')}>
      {order.history.length === 0 ? (
        <p className="text-body text-mist-600">{t('history.none')}</p>
      ) : (
        <ul className="flex flex-col divide-y divide-mist-100">
          {order.history.map((entry) => {
            const action = historyAction(entry.action);
            return (
              <li key={entry.id} className="py-2.5 first:pt-0 last:pb-0">
                <p className="text-body font-semibold text-ocean-950">
                  {action ? t(`history.action.${action}`) : entry.action}
                </p>
                <p className="text-caption text-mist-600">
                  <time dateTime={entry.at}>{formatDateTime(entry.at)}</time>
                  {' · '}
                  {actorText(entry.actor)}
                </p>
                {entry.reason ? (
                  <p className="mt-1 text-caption text-mist-800">
                    {t('history.reason', { reason: entry.reason })}
                  </p>
                ) : null}
              </li>
            );
          })}
        </ul>
      )}
    </Panel>
  );
}

/** The four provisioning commands, each allowed or greyed with why, each through its dialog. */
export function Commands({ order }: { order: StaffOrderDetail }) {
  const { t } = useTranslation('orders');
  const [open, setOpen] = useState<OrderCommand | null>(null);
  const [done, setDone] = useState<{ command: OrderCommand; step: string | null } | null>(null);
  const run = useOrderCommand(order.id);
  const idBase = useId();

  return (
    <Panel title={t('actions.title')}>
      <p className="mb-4 text-caption text-mist-600">{t('actions.lead')}</p>
      <ul className="flex flex-col gap-3">
        {COMMANDS.map((command) => {
          const state = order.actions[command];
          const whyId = `${idBase}-${command}-why`;
          return (
            <li key={command} className="flex flex-col gap-1">
              <Button
                // A command the state does not allow looks greyed (its reason is under it).
                variant={command === 'advance' && state.allowed ? 'primary' : 'secondary'}
                disabled={!state.allowed}
                pending={run.isPending && run.variables.command === command}
                aria-describedby={state.refusal ? whyId : undefined}
                onClick={() => {
                  run.reset();
                  setDone(null);
                  setOpen(command);
                }}
                className={cx(
                  'w-full justify-start',
                  command === 'fail' && state.allowed && 'text-danger-700',
                )}
              >
                {t(`actions.${command}`)}
              </Button>
              {state.refusal ? (
                <p id={whyId} className="text-caption text-mist-600">
                  {t(`actions.refusal.${state.refusal}`)}
                </p>
              ) : null}
            </li>
          );
        })}
      </ul>
      {done ? (
        <Notice tone="success" className="mt-4">
          {done.command === 'advance'
            ? t('actions.done.advance', { step: done.step ?? '' })
            : t(`actions.done.${done.command}`)}
        </Notice>
      ) : null}
      {open ? (
        <CommandDialog
          command={open}
          order={order}
          pending={run.isPending}
          error={run.error}
          onClose={() => setOpen(null)}
          onConfirm={(reason) =>
            run.mutate(
              { command: open, reason },
              {
                onSuccess: (next) => {
                  setOpen(null);
                  setDone({
                    command: open,
                    step: next.lastStep ? t(`step.${next.lastStep}`) : null,
                  });
                },
              },
            )
          }
        />
      ) : null}
    </Panel>
  );
}
