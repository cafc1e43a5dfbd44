import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { formatMonth } from '@alda/contract/format/date';
import type { BillSummary } from '@alda/contract/schemas/bills';
import { href, ROUTES } from '@/shared/config/paths';
import { useFormatters } from '@/shared/format/use-formatters';
import { useLocale } from '@/shared/i18n/use-locale';
import { ChevronRightIcon } from '@/shared/ui/icons';
import { useBillDates, usePaymentText } from './bill-format';
import { BillStateBadge } from './bill-state';

/**
 * A bill in the list: the month and the total with VAT, its state, and 'Goldin 3. nov. við
 * MobilePay' once paid, else 'Gjaldsdagur 14. des.'.
 */
export function BillRow({ bill }: { bill: BillSummary }) {
  const { t } = useTranslation();
  const f = useFormatters();
  const [locale] = useLocale();
  const dates = useBillDates();
  const paidText = usePaymentText();
  const when =
    bill.state === 'paid' && bill.payment
      ? paidText(bill.payment, dates.short)
      : t('bills.due', { date: dates.short(bill.dueDate) });
  return (
    <Link
      to={href(ROUTES.bill, { billId: bill.id })}
      className="flex items-center gap-3 px-4 py-3 transition-colors hover:bg-mist-50 active:bg-mist-100"
    >
      <span className="flex min-w-0 flex-1 flex-col gap-1">
        <span className="flex flex-wrap items-baseline justify-between gap-x-3">
          <span className="min-w-0 text-body font-medium text-mist-900 first-letter:uppercase">
            {formatMonth(bill.period, locale)}
          </span>
          <span className="text-body font-bold whitespace-nowrap text-ocean-950 tabular-nums">
            {f.kr(bill.total.gross)}
          </span>
        </span>
        <span className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1">
          <BillStateBadge state={bill.state} />
          <span className="text-caption text-mist-500">{when}</span>
        </span>
      </span>
      <ChevronRightIcon className="size-5 shrink-0 text-mist-400" />
    </Link>
  );
}
