import { useTranslation } from 'react-i18next';
import { splitVat, type VatSplit } from '@alda/contract/format/money';
import { useFormatters } from '@/shared/format/use-formatters';
import { cx } from '@/shared/ui/cx';

/** A price as the API sends it (net + vat = gross) or a VAT-inclusive amount in øre. */
export type PriceInput = VatSplit | number;

const toSplit = (price: PriceInput): VatSplit =>
  typeof price === 'number' ? splitVat(price) : price;

/**
 * A price the SPEC §9 way: the total with VAT, and the total without VAT with the VAT between
 * them. `perMonth` adds "a month" to the total.
 */
export function Price({
  price,
  perMonth = false,
  size = 'md',
  className,
}: {
  price: PriceInput;
  perMonth?: boolean;
  size?: 'md' | 'lg';
  className?: string;
}) {
  const { t } = useTranslation();
  const f = useFormatters();
  const { net, vat, gross } = toSplit(price);
  if (gross === 0 && perMonth) {
    // A plan without a monthly fee (talutíð): '0,00 kr. um mánaðin, 0,00 kr. uttan MVG' says nothing.
    return (
      <span className={cx('text-body font-bold text-ocean-950', className)}>
        {t('price.noMonthlyFee')}
      </span>
    );
  }
  return (
    <div className={cx('flex flex-col', className)}>
      <span className="text-ocean-950">
        <span
          className={cx(
            'font-bold whitespace-nowrap tabular-nums',
            size === 'lg' ? 'text-title' : 'text-body',
          )}
        >
          {f.kr(gross)}
        </span>
        {perMonth && (
          <>
            {' '}
            <span className={cx('text-mist-600', size === 'lg' ? 'text-body' : 'text-caption')}>
              {t('price.aMonth')}
            </span>
          </>
        )}
      </span>
      <span className="text-caption text-mist-500 tabular-nums">
        {t('price.breakdown', { net: f.kr(net), vat: f.kr(vat) })}
      </span>
    </div>
  );
}
