import { useTranslation } from 'react-i18next';
import type { Agreement } from '@alda/contract/schemas/agreements';
import type { PaymentMethod } from '@alda/contract/schemas/orders';
import { useAgreementQuery } from '@/shared/api/account-queries';
import { cx } from '@/shared/ui/cx';

/** The card on file when the customer has an active payment agreement, else null. */
export function useCardOnFile(): Agreement | null {
  const query = useAgreementQuery();
  return query.data?.status === 'active' ? query.data : null;
}

/** 'Visa •••• 4242' for a registered card. */
export function cardLabel(agreement: Agreement, fallback: string): string {
  if (!agreement.cardLast4) return agreement.cardBrand ?? fallback;
  return `${agreement.cardBrand ?? ''} •••• ${agreement.cardLast4}`.trim();
}

/**
 * How to pay a purchase: a card on the provider's hosted page, or the card on file when the
 * customer has an active payment agreement (then charged at once, without leaving the app). Shown
 * only when there is a choice.
 */
export function PaymentMethodPicker({
  value,
  onChange,
  agreement,
}: {
  value: PaymentMethod;
  onChange: (method: PaymentMethod) => void;
  agreement: Agreement | null;
}) {
  const { t } = useTranslation();
  if (!agreement) return null;
  const options: { method: PaymentMethod; label: string; hint: string }[] = [
    {
      method: 'agreement',
      label: t('payment.method.agreement'),
      hint: t('payment.method.agreementHint', {
        card: cardLabel(agreement, t('payment.method.cardFallback')),
      }),
    },
    { method: 'card', label: t('payment.method.card'), hint: t('payment.method.cardHint') },
  ];
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-2 text-body font-semibold text-ocean-950">
        {t('payment.method.legend')}
      </legend>
      <div
        role="radiogroup"
        aria-label={t('payment.method.legend')}
        className="flex flex-col gap-2"
      >
        {options.map((option) => (
          <button
            key={option.method}
            type="button"
            role="radio"
            aria-checked={value === option.method}
            onClick={() => onChange(option.method)}
            className={cx(
              'flex flex-col items-start rounded-2xl px-4 py-3 text-left shadow-card ring-2 transition-colors',
              value === option.method
                ? 'bg-ocean-50 ring-ocean-700'
                : 'bg-white ring-transparent hover:bg-mist-50',
            )}
          >
            <span className="text-body font-semibold text-ocean-950">{option.label}</span>
            <span className="text-caption text-mist-600">{option.hint}</span>
          </button>
        ))}
      </div>
    </fieldset>
  );
}
