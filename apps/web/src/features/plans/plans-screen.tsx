import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { Plan } from '@alda/contract/schemas/plans';
import { Price } from '@/shared/account/price';
import { EmptyState, QueryError } from '@/shared/account/screen-states';
import { usePlansQuery, useSubscriptionsQuery } from '@/shared/api/account-queries';
import { useFormatters } from '@/shared/format/use-formatters';
import { LayersIcon } from '@/shared/ui/account-icons';
import { Badge } from '@/shared/ui/badge';
import { ButtonLink } from '@/shared/ui/button';
import { ChevronRightIcon } from '@/shared/ui/icons';
import { ScreenBody, ScreenHeader } from '@/shared/ui/screen';
import { Skeleton } from '@/shared/ui/skeleton';
import { href, QUERY, ROUTES } from '@/shared/config/paths';

/**
 * /menu/hald (plans, SPEC §1 "view orders and plans"): every plan type with its plans, data and
 * monthly price with and without VAT; the customer's own plan is marked.
 */
export function PlansScreen() {
  const { t } = useTranslation();
  const plans = usePlansQuery();
  const subscriptions = useSubscriptionsQuery();
  const currentPlanId = subscriptions.data?.currentAccount?.planId ?? null;

  return (
    <main className="pb-footer min-h-dvh bg-mist-50">
      <ScreenHeader title={t('plans.title')} back={ROUTES.menu}>
        <p className="px-safe pb-2 text-body text-mist-600">{t('plans.lead')}</p>
      </ScreenHeader>
      <ScreenBody>
        {plans.data === undefined ? (
          plans.isError ? (
            <QueryError
              error={plans.error}
              onRetry={() => void plans.refetch()}
              retrying={plans.isFetching}
            />
          ) : (
            <div aria-busy="true" aria-label={t('app.loading')} className="flex flex-col gap-3">
              <Skeleton className="h-6 w-40" />
              <Skeleton className="h-24 rounded-card" />
              <Skeleton className="h-24 rounded-card" />
            </div>
          )
        ) : plans.data.every((type) => type.dataPlanResponses.length === 0) ? (
          <EmptyState icon={<LayersIcon />} title={t('plans.emptyTitle')} />
        ) : (
          plans.data
            .filter((type) => type.dataPlanResponses.length > 0)
            .map((type) => (
              <section
                key={type.id}
                aria-labelledby={`plan-type-${type.id}`}
                className="flex flex-col gap-2"
              >
                <h2
                  id={`plan-type-${type.id}`}
                  className="px-1 text-caption font-semibold tracking-wide text-mist-500 uppercase"
                >
                  {type.name}
                </h2>
                <ul className="flex flex-col gap-3">
                  {type.dataPlanResponses.map((plan) => (
                    <li key={plan.planId}>
                      <PlanCard plan={plan} current={plan.planId === currentPlanId} />
                    </li>
                  ))}
                </ul>
              </section>
            ))
        )}
      </ScreenBody>
    </main>
  );
}

function PlanCard({ plan, current }: { plan: Plan; current: boolean }) {
  const { t } = useTranslation();
  const f = useFormatters();
  const price = plan.memberPrices[0]?.price;
  const nameId = `plan-name-${plan.planId}`;
  const orderable = plan.type === 'individual_plan' || plan.type === 'family_plan';
  return (
    <div className="flex flex-col overflow-hidden rounded-card bg-white shadow-card">
      <Link
        to={href(ROUTES.plan, { planId: plan.planId })}
        className="flex items-center gap-4 p-4 transition-colors hover:bg-mist-50"
        aria-current={current ? 'true' : undefined}
      >
        <div className="flex min-w-0 flex-1 flex-col gap-1">
          <div className="flex flex-wrap items-center gap-2">
            <span id={nameId} className="text-lead font-bold text-ocean-950">
              {plan.name}
            </span>
            {current && <Badge tone="success">{t('plans.yours')}</Badge>}
          </div>
          <span className="text-caption text-mist-600">
            {plan.type === 'family_plan'
              ? t('plans.familyFacts', { data: f.data(plan.dataMb), count: plan.maxMembers })
              : t('plan.dataPerMonth', { data: f.data(plan.dataMb) })}
          </span>
          {price !== undefined && <Price price={price} perMonth className="mt-1" />}
        </div>
        <ChevronRightIcon className="size-5 shrink-0 text-mist-400" />
      </Link>
      {orderable && (
        // Issue 11: straight into the sign-up with this plan chosen.
        <div className="border-t border-mist-100 px-4 py-3">
          <ButtonLink
            to={href(
              ROUTES.newSubscription,
              { planType: plan.type },
              { [QUERY.plan]: plan.planId },
            )}
            size="md"
            variant="accent"
            block
            aria-describedby={nameId}
          >
            {t('signup.orderPlan')}
          </ButtonLink>
        </div>
      )}
    </div>
  );
}
