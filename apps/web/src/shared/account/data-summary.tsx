import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { describeData } from '@alda/contract/format/data';
import { formatNumber } from '@alda/contract/format/number';
import type { Member } from '@alda/contract/schemas/subscriptions';
import { useLocale } from '@/shared/i18n/use-locale';
import { useFormatters } from '@/shared/format/use-formatters';
import { DataRing } from '@/shared/ui/data-ring';
import { domesticUsage } from './data-usage';
import { UpdatedAt } from './updated-at';

/**
 * The data of one number this month (SPEC §1 "view data use and remaining data"): a ring of what
 * is left of the domestic allowance, what was used, rollover and gifts, and when the balance was
 * last updated. `actions` sits beside "updated at" (home puts its refresh button there).
 */
export function DataSummary({
  member,
  actions,
  ringSize = 208,
}: {
  member: Member;
  actions?: ReactNode;
  ringSize?: number;
}) {
  const { t } = useTranslation();
  const f = useFormatters();
  const usage = domesticUsage(member);
  const valueText = usage.unlimited
    ? t('data.ring.unlimitedText')
    : t('data.ring.valueText', { left: f.data(usage.remaining), total: f.data(usage.total) });

  return (
    <div className="flex flex-col items-center gap-5">
      <DataRing
        fraction={usage.fraction}
        label={t('data.ring.label')}
        valueText={valueText}
        size={ringSize}
        tone={usage.low ? 'low' : 'normal'}
      >
        <span className="text-caption font-semibold tracking-wide text-mist-500 uppercase">
          {t('data.ring.left')}
        </span>
        {usage.unlimited ? (
          <span className="text-title font-bold text-ocean-950">{t('units.unlimited')}</span>
        ) : (
          <BigAmount mb={usage.remaining} />
        )}
        <span className="text-caption text-mist-500">
          {usage.unlimited
            ? t('data.ring.unlimitedHint')
            : t('data.ring.ofTotal', { total: f.data(usage.total) })}
        </span>
      </DataRing>

      <dl className="grid w-full grid-cols-2 gap-2">
        <Stat label={t('data.used')} value={f.data(usage.used)} />
        <Stat
          label={t('data.given')}
          value={t('data.givenOf', {
            given: f.data(member.givenData.current),
            max: f.data(member.givenData.max),
          })}
        />
        {member.rolloverMb > 0 && (
          <Stat
            label={t('data.rollover')}
            value={f.data(member.rolloverMb)}
            className="col-span-2"
          />
        )}
      </dl>

      {(member.dataUpdatedAt || actions) && (
        <div className="flex w-full items-center justify-between gap-3 border-t border-mist-100 pt-3">
          {member.dataUpdatedAt ? (
            <UpdatedAt instant={member.dataUpdatedAt} className="text-caption text-mist-500" />
          ) : (
            <span />
          )}
          {actions}
        </div>
      )}
    </div>
  );
}

/** '13,8 GB' with the number large and the unit small, on one line. */
function BigAmount({ mb }: { mb: number }) {
  const { t } = useTranslation();
  const [locale] = useLocale();
  const display = describeData(mb);
  const value = display.kind === 'unlimited' ? '' : formatNumber(display.value, locale);
  const unit = display.kind === 'unlimited' ? '' : t(`units.${display.kind}Unit`);
  return (
    <span className="flex items-baseline gap-1 whitespace-nowrap text-ocean-950">
      <span className="text-figure font-bold tracking-tight tabular-nums">{value}</span>
      <span className="text-lead font-bold">{unit}</span>
    </span>
  );
}

function Stat({ label, value, className }: { label: string; value: string; className?: string }) {
  return (
    <div className={`flex flex-col gap-0.5 rounded-2xl bg-mist-50 px-3 py-2.5 ${className ?? ''}`}>
      <dt className="text-caption text-mist-500">{label}</dt>
      <dd className="text-body font-semibold text-mist-900 tabular-nums">{value}</dd>
    </div>
  );
}
