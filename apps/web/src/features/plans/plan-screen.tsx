import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { memberPriceAt } from '@alda/contract/rules/family';
import { ROAMING } from '@alda/contract/constants';
import { DetailList, DetailRow } from '@/shared/account/detail-list';
import { Price } from '@/shared/account/price';
import { DetailSkeleton, QueryError } from '@/shared/account/screen-states';
import { usePlanQuery, useSubscriptionsQuery } from '@/shared/api/account-queries';
import { useFormatters } from '@/shared/format/use-formatters';
import { Badge } from '@/shared/ui/badge';
import { ButtonLink } from '@/shared/ui/button';
import { Card } from '@/shared/ui/card';
import { ScreenBody, ScreenHeader } from '@/shared/ui/screen';
import { href, QUERY, ROUTES } from '@/shared/config/paths';

/**
 * /menu/hald/:planId: one plan (GET /plans/{id}) — data, price with and without VAT, for a family
 * plan the price of each member by position (SPEC §4), the EU package and the commitment.
 */
export function PlanScreen() {
  const { planId = '' } = useParams();
  const { t } = useTranslation();
  const f = useFormatters();
  const plan = usePlanQuery(planId);
  const subscriptions = useSubscriptionsQuery();
  const current = subscriptions.data?.currentAccount?.planId === planId;

  return (
    <main className="pb-footer min-h-dvh bg-mist-50">
      <ScreenHeader title={plan.data?.name ?? t('plans.title')} back={ROUTES.plans} />
      <ScreenBody>
        {plan.data === undefined ? (
          plan.isError ? (
            <QueryError
              error={plan.error}
              onRetry={() => void plan.refetch()}
              retrying={plan.isFetching}
            />
          ) : (
            <DetailSkeleton />
          )
        ) : (
          <>
            <Card className="flex flex-col gap-3">
              <div className="flex flex-wrap items-center gap-2">
                <span className="text-caption font-semibold text-mist-500">
                  {plan.data.planTypeName}
                </span>
                {current && <Badge tone="success">{t('plans.yours')}</Badge>}
              </div>
              <p className="text-display font-bold text-ocean-950">{f.data(plan.data.dataMb)}</p>
              <p className="text-body text-mist-600">{t('plan.dataEveryMonth')}</p>
              <Price price={memberPriceAt(plan.data.memberPrices, 0)} perMonth size="lg" />
            </Card>

            {plan.data.type === 'family_plan' && (
              <DetailList title={t('plans.memberPrices')}>
                {Array.from({ length: plan.data.maxMembers }, (_, index) => (
                  <DetailRow key={index} label={t('plans.memberN', { n: index + 1 })}>
                    {t('price.perMonth', {
                      price: f.kr(memberPriceAt(plan.data.memberPrices, index)),
                    })}
                  </DetailRow>
                ))}
              </DetailList>
            )}

            <DetailList title={t('plans.details')}>
              {plan.data.type === 'family_plan' && (
                <DetailRow label={t('plans.maxMembers')}>{plan.data.maxMembers}</DetailRow>
              )}
              <DetailRow label={t('plan.commitment')}>
                {plan.data.commitmentMonths > 0
                  ? t('plan.months', { count: plan.data.commitmentMonths })
                  : t('plan.noCommitment')}
              </DetailRow>
              {plan.data.euPackage && (
                <DetailRow label={t('plans.euPackage')}>
                  {t('price.perMonth', { price: f.kr(plan.data.euPackage.price) })}
                </DetailRow>
              )}
            </DetailList>

            {plan.data.euPackage && (
              <p className="px-1 text-caption text-mist-500">
                {t('plans.euNote', {
                  hours: ROAMING.callHours,
                  data: f.data(plan.data.euPackage.dataMb),
                })}
              </p>
            )}

            {(plan.data.type === 'individual_plan' || plan.data.type === 'family_plan') && (
              // Issue 11: order this plan (the sign-up opens with it chosen).
              <ButtonLink
                to={href(
                  ROUTES.newSubscription,
                  { planType: plan.data.type },
                  { [QUERY.plan]: plan.data.planId },
                )}
                variant="accent"
                block
              >
                {t('signup.orderThisPlan')}
              </ButtonLink>
            )}
          </>
        )}
      </ScreenBody>
    </main>
  );
}
