import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { describeData } from '@alda/contract/format/data';
import { formatDate, formatDateTime } from '@alda/contract/format/date';
import { formatKr, type KrFormatOptions } from '@alda/contract/format/money';
import { formatNumber } from '@alda/contract/format/number';
import { useLocale } from '@/shared/i18n/use-locale';

export interface Formatters {
  /** A data amount the SPEC §9 way (1024 MB per GB, unlimited at ≥ 1,024,000 MB), translated. */
  data(mb: number): string;
  /** Money in øre as 'kr.' in the current locale ('149,00 kr.' / '149.00 kr.'). */
  kr(oere: number, options?: KrFormatOptions): string;
  /** SPEC §9 date, DD.MM.YYYY, on the Faroese calendar. */
  date(instant: string | Date): string;
  /** DD.MM.YYYY HH:mm on the Faroese clock. */
  dateTime(instant: string | Date): string;
}

/**
 * The contract's formatters (format/data, format/money, format/date) bound to the current
 * language, so screens print amounts exactly as the server's receipts and e-mails do.
 */
export function useFormatters(): Formatters {
  const { t } = useTranslation();
  const [locale] = useLocale();
  return useMemo(
    () => ({
      data(mb) {
        const display = describeData(mb);
        if (display.kind === 'unlimited') return t('units.unlimited');
        return t(`units.${display.kind}`, { value: formatNumber(display.value, locale) });
      },
      kr: (oere, options) => formatKr(oere, locale, options),
      date: (instant) => formatDate(instant),
      dateTime: (instant) => formatDateTime(instant),
    }),
    [locale, t],
  );
}
