import { useState } from 'react';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { formatMonth } from '@alda/contract/format/date';
import { formatPhoneNumber } from '@alda/contract/format/phone';
import { ITEMISED_USE_MONTHS } from '@alda/contract/rules/bills';
import type { BillUsageType } from '@alda/contract/schemas/bills';
import { EmptyState, QueryPending } from '@/shared/account/screen-states';
import { href, ROUTES } from '@/shared/config/paths';
import { useLocale } from '@/shared/i18n/use-locale';
import { useAppServices } from '@/shared/services/app-services';
import { Alert } from '@/shared/ui/alert';
import { BillIcon } from '@/shared/ui/bill-icon';
import { ErrorState } from '@/shared/ui/error-state';
import { ClockIcon } from '@/shared/ui/account-icons';
import { LoadMore } from '@/shared/ui/load-more';
import { ScreenBody, ScreenHeader } from '@/shared/ui/screen';
import { Skeleton } from '@/shared/ui/skeleton';
import { Switch } from '@/shared/ui/switch';
import { BillActions, BillOverview, BillPayment, BillSection } from './bill-detail';
import { BillRow } from './bill-row';
import { UsageDays, UsageTypeFilter } from './bill-usage';
import { billQueries } from './bills-api';

/*
 * The monthly bills (ADR 0098), one module so that the three routes share one chunk: the list, a
 * bill and a number's itemised use. Their parts live in the modules beside it.
 */

/** Placeholders of `count` cards `className` high, while a list loads. */
function ListSkeleton({ count, className }: { count: number; className: string }) {
  const { t } = useTranslation();
  return (
    <div className="flex flex-col gap-3" aria-busy="true" aria-label={t('app.loading')}>
      {Array.from({ length: count }, (_, i) => (
        <Skeleton key={i} className={className} />
      ))}
    </div>
  );
}

/**
 * /menu/rokningar: the customer's monthly bills, newest first — the month, the total with VAT,
 * the state (a word and an icon, never the colour alone) and when it was paid or is due. A family
 * member (`scope: 'member'`) sees only their own number's part, and is told so.
 */
export function BillsScreen() {
  const { t } = useTranslation();
  const [locale] = useLocale();
  const { http } = useAppServices();
  const query = useQuery(billQueries.list(http, locale));
  const bills = query.data?.items ?? [];

  const body = () => {
    if (query.data === undefined)
      return (
        <QueryPending
          query={query}
          failedMessage={t('bills.loadFailed')}
          loading={<ListSkeleton count={3} className="h-18 rounded-card" />}
        />
      );
    if (bills.length === 0)
      return (
        <EmptyState icon={<BillIcon />} title={t('bills.emptyTitle')} body={t('bills.emptyBody')} />
      );
    return (
      <>
        {bills.some((bill) => bill.scope === 'member') && (
          <Alert tone="info">{t('bills.memberNote')}</Alert>
        )}
        <ul
          aria-label={t('bills.title')}
          className="flex flex-col divide-y divide-mist-100 overflow-hidden rounded-card bg-white shadow-card"
        >
          {bills.map((bill) => (
            <li key={bill.id}>
              <BillRow bill={bill} />
            </li>
          ))}
        </ul>
      </>
    );
  };

  return (
    <main className="pb-footer min-h-dvh bg-mist-50">
      <ScreenHeader title={t('bills.title')} back={ROUTES.menu} />
      <ScreenBody>{body()}</ScreenBody>
    </main>
  );
}

/**
 * /menu/rokningar/:billId: one bill — its month, number, dates and state; a section per number
 * (its holder, items and subtotal, a link to its itemised use); the total without VAT, the VAT
 * and the total with it; how and when it was paid, or how to pay it by bank transfer. The payer
 * may download it as a PDF or have it e-mailed; a family member sees only their own part.
 */
export function BillScreen() {
  const { billId = '' } = useParams();
  const { t } = useTranslation();
  const [locale] = useLocale();
  const { http } = useAppServices();
  const query = useQuery(billQueries.detail(http, billId, locale));
  const bill = query.data;

  const body = () => {
    if (bill === undefined)
      return <QueryPending query={query} failedMessage={t('bills.loadOneFailed')} />;
    return (
      <>
        {bill.scope === 'member' && <Alert tone="info">{t('bills.memberNoteOne')}</Alert>}
        <BillOverview bill={bill} />
        {bill.sections.map((section) => (
          <BillSection key={section.phoneNumber} bill={bill} section={section} />
        ))}
        <BillPayment bill={bill} />
        {bill.scope === 'payer' && <BillActions bill={bill} />}
      </>
    );
  };

  return (
    <main className="pb-footer min-h-dvh bg-mist-50">
      <ScreenHeader
        title={
          bill
            ? t('bills.billTitle', { month: formatMonth(bill.period, locale) })
            : t('bills.title')
        }
        back={ROUTES.bills}
      />
      <ScreenBody>{body()}</ScreenBody>
    </main>
  );
}

/**
 * /menu/rokningar/:billId/nummar/:phoneNumber: a number's use in the bill's month, day by day —
 * each call, SMS and data session with its time, the other party (masked by the API unless full
 * numbers are asked for on one's own number), its length or amount, and whether it was included
 * or what it cost. Filtered by type, a page at a time; a month older than what is kept says so.
 */
export function BillUsageScreen() {
  const { billId = '', phoneNumber = '' } = useParams();
  const { t } = useTranslation();
  const [locale] = useLocale();
  const { http } = useAppServices();
  const [type, setType] = useState<BillUsageType | null>(null);
  const [fullNumbers, setFullNumbers] = useState(false);
  const bill = useQuery(billQueries.detail(http, billId, locale));
  const section = bill.data?.sections.find((s) => s.phoneNumber === phoneNumber);
  // Full numbers only on the caller's own number: the API would mask them anyway.
  const own = section?.own === true;
  const usage = useInfiniteQuery(
    billQueries.usage(http, billId, phoneNumber, { type, fullNumbers: own && fullNumbers }),
  );
  const pages = usage.data?.pages ?? [];
  const expired = pages[0]?.expired === true;
  const items = pages.flatMap((page) => page.items);
  const month = bill.data ? formatMonth(bill.data.period, locale) : null;
  const number = formatPhoneNumber(phoneNumber);

  const list = () => {
    if (usage.data === undefined)
      return (
        <QueryPending
          query={usage}
          failedMessage={t('bills.usage.loadFailed')}
          loading={<ListSkeleton count={4} className="h-16 rounded-card" />}
        />
      );
    if (items.length === 0)
      return (
        <EmptyState
          icon={<ClockIcon />}
          title={expired ? t('bills.usage.expiredTitle') : t('bills.usage.emptyTitle')}
          body={
            expired
              ? t('bills.usage.expiredBody', { count: ITEMISED_USE_MONTHS, month: month ?? '' })
              : type === null
                ? t('bills.usage.emptyBodyAll', { month: month ?? '' })
                : t('bills.usage.emptyBody', { month: month ?? '' })
          }
        />
      );
    return (
      <>
        <UsageDays items={items} />
        <LoadMore
          query={usage}
          label={t('bills.usage.more')}
          failedMessage={t('bills.usage.loadFailed')}
        />
      </>
    );
  };

  return (
    <main className="pb-footer min-h-dvh bg-mist-50">
      <ScreenHeader title={t('bills.usage.title')} back={href(ROUTES.bill, { billId })} />
      <ScreenBody>
        <div className="flex flex-col gap-0.5">
          <h2 className="text-lead font-semibold text-ocean-950 tabular-nums">
            {month ? t('bills.usage.heading', { number, month }) : number}
          </h2>
          {section?.holder && <p className="text-caption text-mist-600">{section.holder}</p>}
        </div>
        {bill.isError && bill.data === undefined && (
          <ErrorState
            message={t('bills.loadOneFailed')}
            onRetry={() => void bill.refetch()}
            retrying={bill.isFetching}
          />
        )}
        {!expired && (
          <div className="flex flex-col gap-4">
            <UsageTypeFilter type={type} onChange={setType} />
            {own && (
              <Switch
                label={t('bills.usage.fullNumbers')}
                description={t('bills.usage.fullNumbersHint')}
                checked={fullNumbers}
                onChange={(event) => setFullNumbers(event.target.checked)}
                className="rounded-card bg-white p-4 shadow-card"
              />
            )}
          </div>
        )}
        {list()}
      </ScreenBody>
    </main>
  );
}
