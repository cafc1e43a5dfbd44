import { formatDateTime } from '@alda/contract/format/date';
import type { Locale } from '@alda/contract/locale';

/*
 * Times of the payments area: `DD.MM.YYYY HH:mm` in Tórshavn (the contract's formatter, as the
 * customer app and receipts show them), and the clock time of the last refresh with seconds.
 */

export { formatDateTime };

/** `14:05:09`, 24-hour, in Tórshavn. */
export function clockTime(at: number | Date, locale: Locale): string {
  return new Intl.DateTimeFormat(locale, {
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
    timeZone: 'Atlantic/Faroe',
  }).format(at);
}
