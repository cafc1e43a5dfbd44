import { useTranslation } from 'react-i18next';
import type { PriceBreakdown } from '@alda/contract/schemas/common';
import type { Plan, PlanType } from '@alda/contract/schemas/plans';
import { useFormatters } from '@/shared/format/use-formatters';
import { LayersIcon } from '@/shared/ui/account-icons';
import { Badge } from '@/shared/ui/badge';
import { Card } from '@/shared/ui/card';
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
      <div className="flex items-start gap-3">
        <span className="flex size-11 shrink-0 items-center justify-center rounded-full bg-ocean-50 text-ocean-700">
          <LayersIcon />
        </span>
        <div className="flex min-w-0 flex-1 flex-col">
          <h2 id="plan-price-title" className="text-caption font-semibold text-mist-500">
            {t(`planTypes.${type}`)}
          </h2>
          <p className="text-heading font-bold text-ocean-950">
            {plan ? plan.name : t('plan.none')}
          </p>
          {plan && (
            <p className="text-caption text-mist-600">
              {t('plan.dataPerMonth', { data: f.data(plan.dataMb) })}
            </p>
          )}
        </div>
      </div>
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
