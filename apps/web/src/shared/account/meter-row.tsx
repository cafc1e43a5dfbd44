import { useTranslation } from 'react-i18next';
import { useFormatters } from '@/shared/format/use-formatters';
import { UsageBar } from '@/shared/ui/usage-bar';
import type { Usage } from './data-usage';

/**
 * One allowance as a labelled bar: what is left on the label's line, the allowance under the
 * bar, so long figures ('23,83 GB') never push the label onto two lines.
 */
export function MeterRow({
  label,
  usage,
  tone = 'fjord',
}: {
  label: string;
  usage: Usage;
  tone?: 'fjord' | 'ocean' | 'puffin';
}) {
  const { t } = useTranslation();
  const f = useFormatters();
  const valueText = usage.unlimited
    ? t('units.unlimited')
    : t('data.leftOf', { left: f.data(usage.remaining), total: f.data(usage.total) });
  return (
    <div className="flex flex-col gap-2">
      <div className="flex flex-wrap items-baseline justify-between gap-x-3">
        <span className="text-body text-mist-600">{label}</span>
        <span className="text-body font-bold whitespace-nowrap text-mist-900 tabular-nums">
          {usage.unlimited
            ? t('units.unlimited')
            : t('data.leftShort', { left: f.data(usage.remaining) })}
        </span>
      </div>
      <UsageBar fraction={usage.fraction} tone={tone} label={label} valueText={valueText} />
      {!usage.unlimited && (
        <span className="self-end text-caption text-mist-500 tabular-nums">
          {t('data.ring.ofTotal', { total: f.data(usage.total) })}
        </span>
      )}
    </div>
  );
}
