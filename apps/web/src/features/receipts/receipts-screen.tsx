import { useInfiniteQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useI18n } from '@/shared/i18n/use-i18n';
import type { Receipt } from '@alda/contract/schemas/receipts';
import { EmptyState } from '@/shared/account/screen-states';
import { LoadMore } from '@/shared/ui/load-more';
import { useFormatters } from '@/shared/format/use-formatters';
import { currentLocale } from '@/shared/i18n/i18n';
import { useAppServices } from '@/shared/services/app-services';
import { ErrorState } from '@/shared/ui/error-state';
import { ChevronRightIcon, ReceiptIcon } from '@/shared/ui/icons';
import { ScreenBody, ScreenHeader } from '@/shared/ui/screen';
import { Skeleton } from '@/shared/ui/skeleton';
import { useReceiptSummary } from './receipt-summary';
import { receiptQueries } from './receipts-api';
import { href, ROUTES } from '@/shared/config/paths';

/**
 * /menu/kvittanir (SPEC §2 receipts): the customer's receipts, newest first, a page at a time —
 * number, date (DD.MM.YYYY), what was bought and the total with VAT. A row opens the receipt,
 * where it can be downloaded as a PDF or e-mailed.
 */
export function ReceiptsScreen() {
  const { t } = useTranslation();
  const i18n = useI18n();
  const { http } = useAppServices();
  const query = useInfiniteQuery(receiptQueries.list(http, currentLocale(i18n)));
  const receipts = query.data?.pages.flatMap((page) => page.items) ?? [];

  const body = () => {
    if (query.isPending)
      return (
        <div className="flex flex-col gap-3" aria-busy="true" aria-label={t('app.loading')}>
          <Skeleton className="h-18 rounded-card" />
          <Skeleton className="h-18 rounded-card" />
          <Skeleton className="h-18 rounded-card" />
        </div>
      );
    if (query.isError && receipts.length === 0)
      return (
        <ErrorState
          message={t('receipts.loadFailed')}
          onRetry={() => void query.refetch()}
          retrying={query.isFetching}
        />
      );
    if (receipts.length === 0)
      return (
        <EmptyState
          icon={<ReceiptIcon />}
          title={t('receipts.emptyTitle')}
          body={t('receipts.emptyBody')}
        />
      );
    return (
      <>
        <ul
          aria-label={t('receipts.title')}
          className="flex flex-col divide-y divide-mist-100 overflow-hidden rounded-card bg-white shadow-card"
        >
          {receipts.map((receipt) => (
            <li key={receipt.id}>
              <ReceiptRow receipt={receipt} />
            </li>
          ))}
        </ul>
        <LoadMore
          query={query}
          label={t('receipts.more')}
          failedMessage={t('receipts.loadFailed')}
        />
      </>
    );
  };

  return (
    <main className="pb-footer min-h-dvh bg-mist-50">
      <ScreenHeader title={t('receipts.title')} back={ROUTES.menu} />
      <ScreenBody>{body()}</ScreenBody>
    </main>
  );
}

function ReceiptRow({ receipt }: { receipt: Receipt }) {
  const { t } = useTranslation();
  const f = useFormatters();
  const summary = useReceiptSummary();
  return (
    <Link
      to={href(ROUTES.receipt, { receiptId: receipt.id })}
      className="flex items-center gap-3 px-4 py-3 transition-colors hover:bg-mist-50 active:bg-mist-100"
    >
      <span className="flex min-w-0 flex-1 flex-col gap-0.5">
        <span className="flex flex-wrap items-baseline justify-between gap-x-3">
          <span className="min-w-0 text-body font-medium text-mist-900">{summary(receipt)}</span>
          <span className="text-body font-bold whitespace-nowrap text-ocean-950 tabular-nums">
            {f.kr(receipt.total.gross)}
          </span>
        </span>
        <span className="flex flex-wrap items-baseline justify-between gap-x-3 text-caption text-mist-500">
          <span className="min-w-0">
            {t('receipts.numberAndDate', {
              number: receipt.number,
              date: f.date(receipt.issuedAt),
            })}
          </span>
          <span className="whitespace-nowrap">{t('receipts.withVat')}</span>
        </span>
      </span>
      <ChevronRightIcon className="size-5 shrink-0 text-mist-400" />
    </Link>
  );
}
