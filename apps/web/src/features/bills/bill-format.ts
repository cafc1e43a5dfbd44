import { useTranslation } from 'react-i18next';
import { faroeDateTime } from '@alda/contract/format/date';
import type { BillPayment } from '@alda/contract/schemas/bills';

const MONTHS = [
  'jan',
  'feb',
  'mar',
  'apr',
  'may',
  'jun',
  'jul',
  'aug',
  'sep',
  'oct',
  'nov',
  'dec',
] as const;
const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;

const pad = (n: number) => String(n).padStart(2, '0');

/** A calendar day: `yyyy-mm-dd` (a due date) as it is, an instant on the Faroese calendar. */
function calendarDay(date: string): { year: number; month: number; day: number } {
  const plain = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (plain) return { year: Number(plain[1]), month: Number(plain[2]), day: Number(plain[3]) };
  return faroeDateTime(date);
}

/** The Faroese calendar day of an instant as `yyyy-mm-dd`: the key of a day of use. */
export function faroeDayKey(instant: string): string {
  const { year, month, day } = faroeDateTime(instant);
  return `${year}-${pad(month)}-${pad(day)}`;
}

/** `HH:mm` of an instant on the Faroese clock. */
export function faroeTime(instant: string): string {
  const { hour, minute } = faroeDateTime(instant);
  return `${pad(hour)}:${pad(minute)}`;
}

/** A call's length: `m:ss`, or `h:mm:ss` from an hour. */
export function formatDuration(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return h > 0 ? `${h}:${pad(m)}:${pad(s)}` : `${m}:${pad(s)}`;
}

/**
 * Dates the way people say them, in the current language: `short` '3. nov.' / '3 Nov' (a due
 * date, a payment), `day` 'mánadagur 3. nov.' / 'Monday 3 Nov' (a day of itemised use).
 */
export function useBillDates() {
  const { t } = useTranslation();
  const month = (m: number) => t(`bills.months.${MONTHS[m - 1] ?? 'jan'}`);
  return {
    short(date: string) {
      const d = calendarDay(date);
      return t('bills.date.short', { day: d.day, month: month(d.month) });
    },
    day(date: string) {
      const d = calendarDay(date);
      const weekday = WEEKDAYS[new Date(Date.UTC(d.year, d.month - 1, d.day)).getUTCDay()];
      return t('bills.date.day', {
        weekday: t(`bills.weekdays.${weekday ?? 'sun'}`),
        day: d.day,
        month: month(d.month),
      });
    },
  };
}

/**
 * How a bill was paid: 'Goldin 3. nov. við MobilePay' (`date` formats the day). `withCard`
 * names the card ('Visa •••• 4242') where the payment says which; otherwise 'við korti'.
 */
export function usePaymentText() {
  const { t } = useTranslation();
  return (payment: BillPayment, date: (instant: string) => string, withCard = false) => {
    const card =
      withCard && payment.method === 'card' && payment.cardLast4
        ? `${payment.cardBrand ?? ''}\u00a0••••\u00a0${payment.cardLast4}`.trim()
        : null;
    return t('bills.paidOn', {
      date: date(payment.paidAt),
      method: card ?? t(`bills.method.${payment.method}`),
    });
  };
}
