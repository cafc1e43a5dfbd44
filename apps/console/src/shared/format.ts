import type { Locale } from '@alda/contract/locale';

/*
 * The console's own formatters. Dates, times, money and phone numbers are shown as the customer
 * app and the receipts show them: import those from the contract (`@alda/contract/format/*`).
 */

/**
 * `14:05:09`, 24-hour, on the Tórshavn clock: when a screen's data was last brought up to date
 * (`<UpdatedAt>`, shared/ui/updated-at.tsx).
 */
export function clockTime(at: number | Date, locale: Locale): string {
  return new Intl.DateTimeFormat(locale, {
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
    timeZone: 'Atlantic/Faroe',
  }).format(at);
}
