import { formatDate, formatDateTime } from '@alda/contract/format/date';
import { formatKr } from '@alda/contract/format/money';
import { formatPhoneNumber } from '@alda/contract/format/phone';

/*
 * How the customers area shows times, money and numbers: as the customer app and the receipts do
 * (the contract's formatters: `DD.MM.YYYY HH:mm` in Tórshavn, '39,00 kr.', '55 78 12').
 */

export { formatDate, formatDateTime, formatKr, formatPhoneNumber };

/** A number as sent to an SMS gateway (`298557812`) shown as people write it: +298 55 78 12. */
export function formatRecipient(to: string): string {
  return /^298\d{6}$/.test(to) ? `+298 ${formatPhoneNumber(to.slice(3))}` : to;
}
