import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { formatPhoneNumber } from '@alda/contract/format/phone';
import { isProcessing } from '@alda/contract/rules/orders';
import { findPlan } from '@alda/contract/rules/plans';
import { orderResponse } from '@alda/contract/schemas/orders';
import { Price } from '@/shared/account/price';
import { ProcessingBadge } from '@/shared/account/processing-badge';
import { QueryPending } from '@/shared/account/screen-states';
import { accountKeys } from '@/shared/api/account-data';
import { usePlansQuery } from '@/shared/api/account-queries';
import { unwrap } from '@/shared/api/http';
import { ROUTES } from '@/shared/config/paths';
import { useFormatters } from '@/shared/format/use-formatters';
import { useAppServices } from '@/shared/services/app-services';
import { WriteToUsLink } from '@/shared/support/write-to-us-link';
import { Badge } from '@/shared/ui/badge';
import { Card } from '@/shared/ui/card';
import { CheckIcon } from '@/shared/ui/icons';
import { ScreenBody, ScreenHeader } from '@/shared/ui/screen';
import { ProvisioningView } from './provisioning-timeline';
import { refreshDelay } from './refresh';
import { orderTitle } from './order-title';

export const orderKeys = {
  detail: (orderId: string) => [...accountKeys.all, 'order', orderId] as const,
};

/**
 * /menu/bilegingar/:orderId: one order. An order that sets up a line shows its provisioning —
 * what happens next and when, the customer's own step when it waits for them, and the steps with
 * their dates (SPEC §4 "Subscription processing can take days", ADR 0055).
 */
export function OrderScreen() {
  const { orderId = '' } = useParams();
  const { t } = useTranslation();
  const f = useFormatters();
  const { http } = useAppServices();
  const queryClient = useQueryClient();
  const plans = usePlansQuery();
  const order = useQuery({
    queryKey: orderKeys.detail(orderId),
    queryFn: async ({ signal }) =>
      unwrap(await http.get(`/orders/${encodeURIComponent(orderId)}`, orderResponse, { signal })),
    refetchInterval: (query) => {
      const data = query.state.data;
      return data && isProcessing(data) ? refreshDelay(data) : false;
    },
  });

  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: accountKeys.all });
  };

  const body = () => {
    if (order.data === undefined) return <QueryPending query={order} />;
    const o = order.data;
    const planName = plans.data ? findPlan(plans.data, o.planId)?.name : undefined;
    const subject = [
      o.memberName,
      o.phoneNumber ? formatPhoneNumber(o.phoneNumber) : null,
      planName,
    ]
      .filter(Boolean)
      .join(' · ');
    return (
      <>
        <Card className="flex flex-col gap-3">
          <div className="flex items-start justify-between gap-3">
            <div className="flex min-w-0 flex-col">
              <h2 className="text-lead font-bold text-ocean-950">{orderTitle(o, t)}</h2>
              {subject && <p className="text-caption text-mist-600">{subject}</p>}
            </div>
            {isProcessing(o) ? (
              <ProcessingBadge withHint={false} />
            ) : (
              <Badge tone="success" icon={<CheckIcon className="size-3.5" />}>
                {t('orders.complete')}
              </Badge>
            )}
          </div>
          <div className="flex items-end justify-between gap-3 border-t border-mist-100 pt-3">
            <div className="flex flex-col gap-0.5 text-caption text-mist-500">
              <span>{t('orders.ordered', { date: f.date(o.createdAt) })}</span>
              {o.completedAt && (
                <span>{t('orders.completedAt', { date: f.date(o.completedAt) })}</span>
              )}
            </div>
            {o.price && <Price price={o.price} className="items-end text-right" />}
          </div>
        </Card>
        {o.provisioning ? (
          <ProvisioningView order={o} provisioning={o.provisioning} onChanged={refresh} />
        ) : (
          isProcessing(o) && (
            <p className="rounded-2xl bg-warning-50 px-3 py-2 text-caption text-warning-600">
              {t('orders.takesDays')}
            </p>
          )
        )}
        <WriteToUsLink item={{ type: 'order', id: o.id, reference: o.phoneNumber }} />
      </>
    );
  };

  return (
    <main className="pb-footer min-h-dvh bg-mist-50">
      <ScreenHeader title={t('provisioning.orderTitle')} back={ROUTES.orders} />
      <ScreenBody>{body()}</ScreenBody>
    </main>
  );
}
