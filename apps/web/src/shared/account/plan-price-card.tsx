import { useTranslation } from 'react-i18next';
import type { PriceBreakdown } from '@alda/contract/schemas/common';
import type { Plan, PlanType } from '@alda/contract/schemas/plans';
import { useFormatters } from '@/shared/format/use-formatters';
import { Badge } from '@/shared/ui/badge';
import { Card } from '@/shared/ui/card';
import { PlanHeading } from './plan-heading';
import { Price } from './price';

/**
 * The plan of a number and what it costs a month, with and without VAT (SPEC §9), plus the
 * EU package's state.
 */
export function PlanPriceCard({
  plan,
  type,
  monthlyPrice,
  euPackage,
}: {
  plan: Plan | null;
  type: PlanType;
  monthlyPrice: PriceBreakdown | null;
  euPackage: boolean;
}) {
  const { t } = useTranslation();
  const f = useFormatters();
  return (
    <Card className="flex flex-col gap-4" role="region" aria-labelledby="plan-price-title">
      <PlanHeading
        titleId="plan-price-title"
        typeLabel={t(`planTypes.${type}`)}
        plan={plan}
        dataLine={plan && t('plan.dataPerMonth', { data: f.data(plan.dataMb) })}
      />
      {monthlyPrice && (
        <div className="flex flex-col gap-1 rounded-2xl bg-mist-50 px-4 py-3">
          <span className="text-caption font-semibold text-mist-600">{t('price.monthly')}</span>
          <Price price={monthlyPrice} perMonth size="lg" />
        </div>
      )}
      {plan?.euPackage && (
        <div className="flex items-center justify-between gap-3">
          <span className="text-body text-mist-700">
            {t('plan.euPackage', { data: f.data(plan.euPackage.dataMb) })}
          </span>
          {euPackage ? (
            <Badge tone="success">{t('roaming.on')}</Badge>
          ) : (
            <Badge>{t('roaming.off')}</Badge>
          )}
        </div>
      )}
    </Card>
  );
}
