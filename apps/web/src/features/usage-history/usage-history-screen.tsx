import { useMemo } from 'react';
import { Link, useLocation, useParams } from 'react-router';
import { formatMonth } from '@alda/contract/format/date';
import { formatPhoneNumber } from '@alda/contract/format/phone';
import type { UsageHistoryResponse } from '@alda/contract/schemas/usage';
import { EmptyState, QueryPending } from '@/shared/account/screen-states';
import { UpdatedAt } from '@/shared/account/updated-at';
import { href, ROUTES } from '@/shared/config/paths';
import { useFormatters } from '@/shared/format/use-formatters';
import { useTranslation } from 'react-i18next';
import { useLocale } from '@/shared/i18n/use-locale';
import { ChartIcon } from '@/shared/ui/account-icons';
import { Card } from '@/shared/ui/card';
import { ScreenBody, ScreenHeader } from '@/shared/ui/screen';
import { Skeleton } from '@/shared/ui/skeleton';
import { UsageChart, type UsageBar } from './usage-chart';
import { useUsageHistoryQuery } from './usage-history-api';

/** The number of days of a `yyyy-mm` month (calendar arithmetic, no time zone involved). */
export function daysInMonth(month: string): number {
  const [year = NaN, m = NaN] = month.split('-').map(Number);
  return new Date(Date.UTC(year, m, 0)).getUTCDate();
}

/** `yyyy-mm-dd` as the SPEC §9 date, DD.MM.YYYY. */
const dayLabel = (date: string) => date.split('-').reverse().join('.');

/**
 * nytsla/:id (ADR 0066): one number's data use — this month day by day with the plan's data
 * spread over the month's days, and the last six months with the plan's monthly data — from the
 * daily aggregates of the usage feed. Each chart has a table of the same figures behind it.
 * Its own user and the account owner may open it (the API answers 403/404 to anyone else).
 */
export function UsageHistoryScreen() {
  const { id = '' } = useParams();
  const location = useLocation();
  const { t } = useTranslation();
  const history = useUsageHistoryQuery(id);
  // Opened from home, a member or the manage screen: back goes there; opened from a link
  // (a usage alert), home.
  const back = location.key === 'default' ? ROUTES.home : true;

  return (
    <main className="pb-footer min-h-dvh bg-mist-50">
      <ScreenHeader title={t('usageHistory.title')} back={back} />
      <ScreenBody>
        {history.data === undefined ? (
          <QueryPending query={history} loading={<HistorySkeleton />} />
        ) : (
          <History history={history.data} />
        )}
      </ScreenBody>
    </main>
  );
}

function History({ history }: { history: UsageHistoryResponse }) {
  const { t } = useTranslation();
  const f = useFormatters();
  const [locale] = useLocale();
  const monthName = formatMonth(history.month, locale);
  const showEu =
    history.euAllowanceMb !== null ||
    history.months.some((m) => m.euMb > 0) ||
    history.days.some((d) => d.euMb > 0);
  const thisMonth = history.months.at(-1) ?? { domesticMb: 0, euMb: 0 };
  const nothing = history.months.every((m) => m.domesticMb + m.euMb === 0);

  const days = useMemo(() => {
    const length = daysInMonth(history.month);
    // Every day of the month has its place; days still to come have no bar.
    const bars: UsageBar[] = Array.from({ length }, (_, i) => {
      const day = history.days[i];
      return {
        key: day?.date ?? `${history.month}-${i + 1}`,
        axisLabel: String(i + 1),
        label: day ? dayLabel(day.date) : '',
        domesticMb: day ? day.domesticMb : null,
        euMb: day ? day.euMb : null,
      };
    });
    const ticks = bars.flatMap((_, i) => (i === 0 || (i + 1) % 5 === 0 ? [i] : []));
    return { bars, ticks, length };
  }, [history.days, history.month]);

  const months = useMemo(() => {
    const bars: UsageBar[] = history.months.map((m) => {
      const name = formatMonth(m.month, locale);
      return {
        key: m.month,
        axisLabel: name.slice(0, 3),
        label: name,
        domesticMb: m.domesticMb,
        euMb: m.euMb,
      };
    });
    return { bars, ticks: bars.map((_, i) => i) };
  }, [history.months, locale]);

  const allowance = history.allowanceMb;
  const dayBudget = useMemo(
    () =>
      allowance === null
        ? null
        : {
            mb: allowance / days.length,
            label: t('usageHistory.legend.dayBudget', {
              amount: f.data(Math.round(allowance / days.length)),
            }),
          },
    [allowance, days.length, f, t],
  );
  const monthBudget = useMemo(
    () =>
      allowance === null
        ? null
        : {
            mb: allowance,
            label: t('usageHistory.legend.monthBudget', { amount: f.data(allowance) }),
          },
    [allowance, f, t],
  );

  return (
    <>
      <div className="flex flex-col gap-1">
        <p className="text-lead font-semibold text-ocean-950 tabular-nums">
          {formatPhoneNumber(history.phoneNumber)}
        </p>
        {history.updatedAt && (
          <UpdatedAt instant={history.updatedAt} className="text-caption text-mist-500" />
        )}
      </div>
      {nothing ? (
        <EmptyState
          icon={<ChartIcon />}
          title={t('usageHistory.empty.title')}
          body={t('usageHistory.empty.body')}
        />
      ) : (
        <>
          <Card role="region" aria-labelledby="usage-days-title" className="flex flex-col gap-3">
            <div className="flex flex-col gap-1">
              <h2 id="usage-days-title" className="text-lead font-bold text-ocean-950">
                {t('usageHistory.days.title', { month: monthName })}
              </h2>
              <p className="text-body text-mist-700 tabular-nums">
                {allowance === null
                  ? t('usageHistory.days.used', { used: f.data(thisMonth.domesticMb) })
                  : t('usageHistory.days.usedOf', {
                      used: f.data(thisMonth.domesticMb),
                      total: f.data(allowance),
                    })}
              </p>
              {showEu && (
                <p className="text-body text-mist-700 tabular-nums">
                  {history.euAllowanceMb === null
                    ? t('usageHistory.days.euUsed', { used: f.data(thisMonth.euMb) })
                    : t('usageHistory.days.euUsedOf', {
                        used: f.data(thisMonth.euMb),
                        total: f.data(history.euAllowanceMb),
                      })}
                </p>
              )}
            </div>
            <RoamingCharges history={history} />
            <UsageChart
              bars={days.bars}
              ticks={days.ticks}
              caption={t('usageHistory.table.daysCaption', { month: monthName })}
              rowHeader={t('usageHistory.table.day')}
              budget={dayBudget}
              showEu={showEu}
            />
          </Card>
          <Card role="region" aria-labelledby="usage-months-title" className="flex flex-col gap-3">
            <h2 id="usage-months-title" className="text-lead font-bold text-ocean-950">
              {t('usageHistory.months.title')}
            </h2>
            <UsageChart
              bars={months.bars}
              ticks={months.ticks}
              caption={t('usageHistory.table.monthsCaption')}
              rowHeader={t('usageHistory.table.month')}
              budget={monthBudget}
              showEu={showEu}
            />
            <MonthCharges history={history} />
          </Card>
          {allowance !== null && (
            <p className="px-1 text-caption text-mist-600">{t('usageHistory.planNote')}</p>
          )}
        </>
      )}
    </>
  );
}

/**
 * This month's roaming charges against the cap (issue 33 §2, ADR 0078), linked to the cap screen;
 * shown once something is charged or data abroad is stopped.
 */
function RoamingCharges({ history }: { history: UsageHistoryResponse }) {
  const { id = '' } = useParams();
  const { t } = useTranslation();
  const f = useFormatters();
  const roaming = history.roaming;
  if (!roaming || (roaming.chargedOere === 0 && !roaming.stopped)) return null;
  const kr = (oere: number) => f.kr(oere, { decimals: 'auto' });
  return (
    <p className="flex flex-col gap-1 text-body text-mist-700 tabular-nums">
      <Link
        to={href(ROUTES.roamingCap, { lineId: id })}
        className="font-semibold text-fjord-700 underline"
      >
        {roaming.capOere === null
          ? t('roamingCap.historyMonth', { charged: kr(roaming.chargedOere) })
          : t('roaming.capCharged', { charged: kr(roaming.chargedOere), cap: kr(roaming.capOere) })}
      </Link>
      {roaming.stopped && <span className="text-puffin-600">{t('roamingCap.stopped')}</span>}
    </p>
  );
}

/** The months with roaming charges (ADR 0078), under the months' chart. */
function MonthCharges({ history }: { history: UsageHistoryResponse }) {
  const { t } = useTranslation();
  const f = useFormatters();
  const [locale] = useLocale();
  const charged = history.months.filter((m) => (m.roamingChargedOere ?? 0) > 0);
  if (charged.length === 0) return null;
  return (
    <ul className="flex flex-col gap-1 text-caption text-mist-700 tabular-nums">
      {charged.map((m) => (
        <li key={m.month}>
          {formatMonth(m.month, locale)}:{' '}
          {t('roamingCap.historyMonth', {
            charged: f.kr(m.roamingChargedOere ?? 0, { decimals: 'auto' }),
          })}
        </li>
      ))}
    </ul>
  );
}

/** Loading: the number and two chart cards of placeholders. */
function HistorySkeleton() {
  const { t } = useTranslation();
  return (
    <div aria-busy="true" aria-label={t('app.loading')} className="flex flex-col gap-5">
      <Skeleton className="h-6 w-1/3" />
      <Skeleton className="h-80 rounded-card" />
      <Skeleton className="h-72 rounded-card" />
    </div>
  );
}
