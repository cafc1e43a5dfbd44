import type { ReactNode } from 'react';
import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { isProcessing, visibleOrders } from '@alda/contract/rules/orders';
import { findPlan } from '@alda/contract/rules/plans';
import type { Order } from '@alda/contract/schemas/orders';
import { findNumber } from '@/shared/account/family';
import { MemberHeader } from '@/shared/account/member-header';
import { Price } from '@/shared/account/price';
import { ProcessingBadge } from '@/shared/account/processing-badge';
import { DetailSkeleton, EmptyState, QueryError } from '@/shared/account/screen-states';
import { useOrdersQuery, usePlansQuery, useSubscriptionsQuery } from '@/shared/api/account-queries';
import { formatPhoneNumber } from '@alda/contract/format/phone';
import { useFormatters } from '@/shared/format/use-formatters';
import { ClockIcon, FamilyIcon } from '@/shared/ui/account-icons';
import { ButtonLink } from '@/shared/ui/button';
import { Card } from '@/shared/ui/card';
import { cx } from '@/shared/ui/cx';
import { CheckIcon } from '@/shared/ui/icons';
import { ScreenBody, ScreenHeader } from '@/shared/ui/screen';
import { href, ROUTES } from '@/shared/config/paths';

/**
 * familju-limur/vidgerd/:phoneNumber (home-familymember-phone, owner only, SPEC §2): a family
 * member still being added. SPEC §4: processing can take days, so the screen says where the
 * order stands rather than showing data the number does not have yet.
 */
export function ProcessingMemberScreen() {
  const { phoneNumber = '' } = useParams();
  const { t } = useTranslation();
  const orders = useOrdersQuery();
  const subscriptions = useSubscriptionsQuery();
  const plans = usePlansQuery();

  const order = orders.data
    ? visibleOrders(orders.data).find((o) => o.phoneNumber === phoneNumber && isProcessing(o))
    : undefined;
  // Set up meanwhile: the number is now a member with its own screen.
  const done = subscriptions.data ? findNumber(subscriptions.data, phoneNumber) : null;

  return (
    <main className="pb-footer min-h-dvh bg-mist-50">
      <ScreenHeader title={t('family.processing.title')} back={ROUTES.home} />
      <ScreenBody>
        {orders.data === undefined ? (
          orders.isError ? (
            <QueryError
              error={orders.error}
              onRetry={() => void orders.refetch()}
              retrying={orders.isFetching}
            />
          ) : (
            <DetailSkeleton />
          )
        ) : order ? (
          <ProcessingOrder
            order={order}
            planName={plans.data ? findPlan(plans.data, order.planId)?.name : undefined}
          />
        ) : done && done.member.status !== 'processing' ? (
          <EmptyState
            icon={<CheckIcon />}
            title={t('family.processing.doneTitle')}
            body={t('family.processing.doneBody', {
              number: formatPhoneNumber(phoneNumber),
            })}
            action={
              <ButtonLink to={href(ROUTES.familyMember, { id: done.member.id })} size="md">
                {t('family.processing.open')}
              </ButtonLink>
            }
          />
        ) : (
          <EmptyState
            icon={<FamilyIcon />}
            title={t('family.processing.notFoundTitle')}
            body={t('family.processing.notFoundBody', {
              number: formatPhoneNumber(phoneNumber),
            })}
          />
        )}
      </ScreenBody>
    </main>
  );
}

function ProcessingOrder({ order, planName }: { order: Order; planName?: string }) {
  const { t } = useTranslation();
  const f = useFormatters();
  const [firstname = '', ...rest] = (order.memberName ?? '').split(' ');
  return (
    <>
      <MemberHeader
        firstname={firstname || t('family.processing.newMember')}
        lastname={rest.join(' ')}
        phoneNumber={order.phoneNumber}
        badges={<ProcessingBadge />}
      />
      <Card className="flex flex-col gap-4" role="region" aria-labelledby="order-steps-title">
        <h2 id="order-steps-title" className="text-lead font-bold text-ocean-950">
          {t('family.processing.stepsTitle')}
        </h2>
        <ol className="flex flex-col">
          <Step state="done" title={t('family.processing.ordered')}>
            {f.date(order.createdAt)}
          </Step>
          <Step state="current" title={t('family.processing.inProgress')}>
            {t('family.processing.inProgressBody')}
          </Step>
          <Step state="todo" title={t('family.processing.ready')} last>
            {t('family.processing.readyBody')}
          </Step>
        </ol>
      </Card>
      <Card className="flex flex-col gap-3">
        <div className="flex items-center justify-between gap-3">
          <span className="text-body text-mist-600">{t('family.processing.kind')}</span>
          <span className="text-body font-semibold text-mist-900">
            {t(`orders.kind.${order.kind}`)}
          </span>
        </div>
        {planName && (
          <div className="flex items-center justify-between gap-3">
            <span className="text-body text-mist-600">{t('family.processing.plan')}</span>
            <span className="text-body font-semibold text-mist-900">{planName}</span>
          </div>
        )}
        {order.price && (
          <div className="flex items-end justify-between gap-3 border-t border-mist-100 pt-3">
            <span className="text-body text-mist-600">{t('price.label')}</span>
            <Price price={order.price} className="items-end text-right" />
          </div>
        )}
      </Card>
    </>
  );
}

function Step({
  state,
  title,
  last = false,
  children,
}: {
  state: 'done' | 'current' | 'todo';
  title: string;
  last?: boolean;
  children: ReactNode;
}) {
  return (
    <li className="flex gap-3" aria-current={state === 'current' ? 'step' : undefined}>
      <div className="flex flex-col items-center">
        <span
          className={cx(
            'flex size-8 shrink-0 items-center justify-center rounded-full',
            state === 'done' && 'bg-success-600 text-white',
            state === 'current' && 'bg-warning-50 text-warning-600 ring-2 ring-warning-600',
            state === 'todo' && 'bg-mist-100 text-mist-400',
          )}
        >
          {state === 'done' ? (
            <CheckIcon className="size-4" />
          ) : state === 'current' ? (
            <ClockIcon className="size-4" />
          ) : (
            <span className="size-2 rounded-full bg-current" />
          )}
        </span>
        {!last && <span className="my-1 w-0.5 flex-1 bg-mist-200" />}
      </div>
      <div className={cx('flex flex-col gap-0.5', !last && 'pb-5')}>
        <span
          className={cx(
            'text-body font-semibold',
            state === 'todo' ? 'text-mist-500' : 'text-mist-900',
          )}
        >
          {title}
        </span>
        <span className="text-caption text-mist-600">{children}</span>
      </div>
    </li>
  );
}
