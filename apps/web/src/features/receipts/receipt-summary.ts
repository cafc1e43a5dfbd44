import { useTranslation } from 'react-i18next';
import type { Receipt } from '@alda/contract/schemas/receipts';

/** What a receipt was for, in one line: its first line, and how many more there are. */
export function useReceiptSummary(): (receipt: Receipt) => string {
  const { t } = useTranslation();
  return (receipt) => {
    const [first, ...rest] = receipt.lines;
    if (!first) return t('receipts.purchase');
    return rest.length > 0
      ? t('receipts.andMore', { what: first.description, count: rest.length })
      : first.description;
  };
}
