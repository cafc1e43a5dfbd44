import { useId, type ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import type { BillUsageItem, BillUsageType } from '@alda/contract/schemas/bills';
import { useFormatters } from '@/shared/format/use-formatters';
import { cx } from '@/shared/ui/cx';
import { CallIcon, DataIcon, MessageIcon, type IconProps } from '@/shared/ui/icons';
import { faroeDayKey, faroeTime, formatDuration, useBillDates } from './bill-format';
import { OtherUseIcon } from './bill-icons';

const TYPE_ICON: Record<BillUsageType, ComponentType<IconProps>> = {
  voice: CallIcon,
  sms: MessageIcon,
  data: DataIcon,
  other: OtherUseIcon,
};

/** The types the list can be filtered by; null is all of them. */
const FILTERS = [null, 'voice', 'sms', 'data'] as const;

/** All, calls, SMS or data: a radio group of buttons, the chosen one filled. */
export function UsageTypeFilter({
  type,
  onChange,
}: {
  type: BillUsageType | null;
  onChange: (type: BillUsageType | null) => void;
}) {
  const { t } = useTranslation();
  const labelId = useId();
  return (
    <div className="flex flex-col gap-2">
      <span id={labelId} className="text-caption font-semibold text-mist-600">
        {t('bills.usage.filter')}
      </span>
      <div role="radiogroup" aria-labelledby={labelId} className="flex flex-wrap gap-2">
        {FILTERS.map((value) => {
          const chosen = value === type;
          return (
            <button
              key={value ?? 'all'}
              type="button"
              role="radio"
              aria-checked={chosen}
              onClick={() => onChange(value)}
              className={cx(
                'min-h-11 rounded-full px-4 text-body font-semibold ring-1 transition-colors ring-inset',
                chosen
                  ? 'bg-ocean-900 text-white ring-transparent'
                  : 'bg-white text-ocean-900 ring-mist-300 hover:bg-mist-50',
              )}
            >
              {value === null ? t('bills.usage.all') : t(`bills.usage.filterType.${value}`)}
            </button>
          );
        })}
      </div>
    </div>
  );
}

/** The uses grouped by their Faroese day, in the order the API sent them (oldest first). */
function byDay(items: readonly BillUsageItem[]): Array<[string, BillUsageItem[]]> {
  const days = new Map<string, BillUsageItem[]>();
  for (const item of items) {
    const key = faroeDayKey(item.occurredAt);
    days.set(key, [...(days.get(key) ?? []), item]);
  }
  return [...days];
}

/** A list per day, under the day's date ('mánadagur 3. nov.'). */
export function UsageDays({ items }: { items: readonly BillUsageItem[] }) {
  return (
    <div className="flex flex-col gap-5">
      {byDay(items).map(([day, uses]) => (
        <UsageDay key={day} day={day} uses={uses} />
      ))}
    </div>
  );
}

function UsageDay({ day, uses }: { day: string; uses: BillUsageItem[] }) {
  const dates = useBillDates();
  const titleId = useId();
  const title = dates.day(day);
  return (
    <section aria-labelledby={titleId} className="flex flex-col gap-2">
      <h3
        id={titleId}
        className="px-1 text-caption font-semibold text-mist-600 first-letter:uppercase"
      >
        {title}
      </h3>
      <ul
        aria-labelledby={titleId}
        className="flex flex-col divide-y divide-mist-100 overflow-hidden rounded-card bg-white shadow-card"
      >
        {uses.map((use, index) => (
          <li key={`${use.occurredAt}-${index}`}>
            <UsageRow use={use} />
          </li>
        ))}
      </ul>
    </section>
  );
}

/** One use: its time, type, the other party, its length or amount, and what it cost. */
function UsageRow({ use }: { use: BillUsageItem }) {
  const { t } = useTranslation();
  const f = useFormatters();
  const Icon = TYPE_ICON[use.type];
  const typeLabel = t(`bills.usage.type.${use.type}`);
  const amount =
    use.unit === 's'
      ? formatDuration(use.quantity)
      : use.unit === 'MB'
        ? f.data(use.quantity)
        : use.type === 'sms'
          ? t('bills.usage.sms', { count: use.quantity })
          : t('bills.usage.count', { count: use.quantity });
  const details = [amount, use.zone === 'domestic' ? null : t(`bills.usage.zone.${use.zone}`)]
    .filter((part): part is string => part !== null)
    .join(' · ');
  return (
    <div className="flex items-center gap-3 px-4 py-3">
      <time
        dateTime={use.occurredAt}
        className="w-12 shrink-0 text-caption text-mist-600 tabular-nums"
      >
        {faroeTime(use.occurredAt)}
      </time>
      <span className="flex size-9 shrink-0 items-center justify-center rounded-full bg-ocean-50 text-ocean-700">
        <Icon className="size-5" />
      </span>
      <span className="flex min-w-0 flex-1 flex-col gap-0.5">
        <span className="text-body font-medium break-all text-mist-900 tabular-nums">
          {use.otherParty === null ? (
            typeLabel
          ) : (
            <>
              <span className="sr-only">{`${typeLabel}: `}</span>
              {use.otherParty}
            </>
          )}
        </span>
        <span className="text-caption text-mist-500 tabular-nums">{details}</span>
      </span>
      <span
        className={cx(
          'shrink-0 text-body whitespace-nowrap tabular-nums',
          use.included ? 'text-mist-600' : 'font-semibold text-ocean-950',
        )}
      >
        {use.included ? t('bills.usage.included') : f.kr(use.chargeOere)}
      </span>
    </div>
  );
}
