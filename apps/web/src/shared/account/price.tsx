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
  return (
    <div className={cx('flex flex-col', className)}>
      <span
        className={cx(
          'font-bold text-ocean-950 tabular-nums',
          size === 'lg' ? 'text-title' : 'text-body',
        )}
      >
        {perMonth ? t('price.perMonth', { price: f.kr(gross) }) : f.kr(gross)}
      </span>
      <span className="text-caption text-mist-500 tabular-nums">
        {t('price.breakdown', { net: f.kr(net), vat: f.kr(vat) })}
      </span>
    </div>
  );
}
