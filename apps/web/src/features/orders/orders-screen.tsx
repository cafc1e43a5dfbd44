import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { isProcessing, visibleOrders } from '@alda/contract/rules/orders';
import { findPlan } from '@alda/contract/rules/plans';
import type { Order } from '@alda/contract/schemas/orders';
import type { PlansResponse } from '@alda/contract/schemas/plans';
import { Price } from '@/shared/account/price';
import { ProcessingBadge } from '@/shared/account/processing-badge';
import { currentProvisioningStep } from '@/shared/account/provisioning';
import { EmptyState, QueryError } from '@/shared/account/screen-states';
import { useOrdersQuery, usePlansQuery } from '@/shared/api/account-queries';
import { formatPhoneNumber } from '@alda/contract/format/phone';
import { useFormatters } from '@/shared/format/use-formatters';
import { BagIcon } from '@/shared/ui/account-icons';
import { Badge } from '@/shared/ui/badge';
import { CheckIcon, ChevronRightIcon } from '@/shared/ui/icons';
import { ScreenBody, ScreenHeader } from '@/shared/ui/screen';
import { Skeleton } from '@/shared/ui/skeleton';
import { href, ROUTES } from '@/shared/config/paths';
import { orderTitle } from './order-title';

/**
 * /menu/bilegingar (orders, SPEC §1 "view orders"): the customer's orders, newest first, those
 * still processing on top and marked "in progress (can take days)" (SPEC §4), with the step an
 * order being set up has reached; each opens its order screen. Cancelled orders are hidden
 * (SPEC §3).
 */
export function OrdersScreen() {
  const { t } = useTranslation();
  const orders = useOrdersQuery();
  const plans = usePlansQuery();
  const visible = orders.data ? visibleOrders(orders.data) : [];
  const processing = visible.filter(isProcessing);
  const done = visible.filter((o) => !isProcessing(o));

  return (
    <main className="pb-footer min-h-dvh bg-mist-50">
      <ScreenHeader title={t('orders.title')} back={ROUTES.menu} />
      <ScreenBody>
        {orders.data === undefined ? (
          orders.isError ? (
            <QueryError
              error={orders.error}
              onRetry={() => void orders.refetch()}
              retrying={orders.isFetching}
            />
          ) : (
            <div aria-busy="true" aria-label={t('app.loading')} className="flex flex-col gap-3">
              <Skeleton className="h-28 rounded-card" />
              <Skeleton className="h-28 rounded-card" />
            </div>
          )
        ) : visible.length === 0 ? (
          <EmptyState
            icon={<BagIcon />}
            title={t('orders.emptyTitle')}
            body={t('orders.emptyBody')}
          />
        ) : (
          <>
            {processing.length > 0 && (
              <OrderGroup title={t('orders.processing')} orders={processing} plans={plans.data} />
            )}
            {done.length > 0 && (
              <OrderGroup title={t('orders.done')} orders={done} plans={plans.data} />
            )}
          </>
        )}
      </ScreenBody>
    </main>
  );
}

function OrderGroup({
  title,
  orders,
  plans,
}: {
  title: string;
  orders: Order[];
  plans: PlansResponse | undefined;
}) {
  return (
    <section className="flex flex-col gap-2">
      <h2 className="px-1 text-caption font-semibold tracking-wide text-mist-500 uppercase">
        {title}
      </h2>
      <ul className="flex flex-col gap-3">
        {orders.map((order) => (
          <li key={order.id}>
            <OrderCard
              order={order}
              planName={plans ? findPlan(plans, order.planId)?.name : undefined}
            />
          </li>
        ))}
      </ul>
    </section>
  );
}

function OrderCard({ order, planName }: { order: Order; planName?: string }) {
  const { t } = useTranslation();
  const f = useFormatters();
  const subject = [
    order.memberName,
    order.phoneNumber ? formatPhoneNumber(order.phoneNumber) : null,
    planName,
  ]
    .filter(Boolean)
    .join(' · ');
  const step = isProcessing(order) ? currentProvisioningStep(order) : null;
  return (
    <article
      aria-label={orderTitle(order, t)}
      className="rounded-card bg-white shadow-card transition-colors hover:bg-mist-50"
    >
      <Link to={href(ROUTES.order, { orderId: order.id })} className="flex flex-col gap-3 p-4">
        <div className="flex items-start justify-between gap-3">
          <div className="flex min-w-0 flex-col">
            <h3 className="text-body font-bold text-mist-900">{orderTitle(order, t)}</h3>
            {subject && <p className="text-caption text-mist-600">{subject}</p>}
          </div>
          {isProcessing(order) ? (
            <ProcessingBadge withHint={false} />
          ) : (
            <Badge tone="success" icon={<CheckIcon className="size-3.5" />}>
              {t('orders.complete')}
            </Badge>
          )}
        </div>
        {isProcessing(order) && (
          <p className="rounded-2xl bg-warning-50 px-3 py-2 text-caption text-warning-600">
            {step
              ? t('provisioning.nowAt', { step: t(`provisioning.step.${step}`) })
              : t('orders.takesDays')}
          </p>
        )}
        <div className="flex items-end justify-between gap-3 border-t border-mist-100 pt-3">
          <div className="flex flex-col gap-0.5 text-caption text-mist-500">
            <span>{t('orders.ordered', { date: f.date(order.createdAt) })}</span>
            {order.completedAt && (
              <span>{t('orders.completedAt', { date: f.date(order.completedAt) })}</span>
            )}
            {(order.paymentStatus === 'pending' || order.paymentStatus === 'failed') && (
              <span className={order.paymentStatus === 'failed' ? 'text-danger-600' : undefined}>
                {t(`orders.payment.${order.paymentStatus}`)}
              </span>
            )}
          </div>
          <span className="flex items-center gap-2">
            {order.price && <Price price={order.price} className="items-end text-right" />}
            <ChevronRightIcon className="size-5 shrink-0 text-mist-400" />
          </span>
        </div>
      </Link>
    </article>
  );
}
