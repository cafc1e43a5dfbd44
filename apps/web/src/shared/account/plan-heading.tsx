import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Plan } from '@alda/contract/schemas/plans';
import { LayersIcon } from '@/shared/ui/account-icons';

/**
 * The head of a plan card: icon, the plan type as a small title (the card's accessible name),
 * the plan's name (or "no plan"), a data line and an optional badge on the right.
 */
export function PlanHeading({
  titleId,
  typeLabel,
  plan,
  dataLine,
  badge,
}: {
  titleId: string;
  typeLabel: string;
  plan: Plan | null;
  dataLine: string | null;
  badge?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <div className="flex items-start gap-3">
      <span className="flex size-11 shrink-0 items-center justify-center rounded-full bg-ocean-50 text-ocean-700">
        <LayersIcon />
      </span>
      <div className="flex min-w-0 flex-1 flex-col">
        <h2 id={titleId} className="text-caption font-semibold text-mist-500">
          {typeLabel}
        </h2>
        <p className="text-heading font-bold text-ocean-950">{plan ? plan.name : t('plan.none')}</p>
        {plan && dataLine && <p className="text-caption text-mist-600">{dataLine}</p>}
      </div>
      {badge}
    </div>
  );
}
