import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Agreement } from '@alda/contract/schemas/agreements';
import type { PaymentMethod, PaymentMethodsResponse } from '@alda/contract/schemas/orders';
import { useAgreementQuery } from '@/shared/api/account-queries';
import { cx } from '@/shared/ui/cx';
import { Skeleton } from '@/shared/ui/skeleton';
import { MOBILEPAY, usePaymentMethods, walletOfAgreement, type Wallet } from './payment-methods';

/** The card on file when the customer has an active payment agreement, else null. */
export function useCardOnFile(): Agreement | null {
  const query = useAgreementQuery();
  return query.data?.status === 'active' ? query.data : null;
}

/** 'Visa •••• 4242' for a registered card; the brand alone without digits ('MobilePay'). */
export function cardLabel(agreement: Agreement, fallback: string): string {
  if (!agreement.cardLast4) return agreement.cardBrand ?? fallback;
  return `${agreement.cardBrand ?? ''} •••• ${agreement.cardLast4}`.trim();
}

/**
 * `text` with every "MobilePay" in it drawn as MobilePay's mark: the name as one word in white on
 * their brand blue (#5A78FF), as their app buttons show it (there is no logo file here, and a
 * made-up logo is not allowed). White on that blue is 3.8:1, so the mark is large bold text
 * (≥ 14 pt bold, WCAG's 3:1); their blue as text on our light surfaces would be 3.4:1. The text
 * stays the accessible name as it is.
 */
export function withMobilePayMark(text: string): ReactNode {
  const parts = text.split(MOBILEPAY);
  if (parts.length === 1) return text;
  return parts.flatMap((part, index) =>
    index === 0
      ? [part]
      : [
          <span
            key={index}
            className="mx-0.5 inline-block rounded-md bg-[#5A78FF] px-1.5 py-0.5 text-[19px] leading-none font-bold tracking-tight text-white"
          >
            {MOBILEPAY}
          </span>,
          part,
        ],
  );
}

/** How a purchase is paid (`payWith`), and what with in the end (the payment's words). */
export interface SettledChoice {
  payWith: PaymentMethod;
  paidWith: Wallet;
}

/** The payment method of a purchase screen: what {@link PaymentMethodPicker} shows and sets. */
export interface PaymentChoice {
  /** The active agreement on file (whether or not this payment may be charged to it). */
  agreement: Agreement | null;
  /**
   * The ways to pay this payment: the agreement on file first (when the provider takes it for
   * this payment), then the provider's checkout methods in its order; null while they are on
   * their way.
   */
  options: readonly PaymentMethod[] | null;
  /** The chosen method, by default the provider's first; null while the options are unknown. */
  payWith: PaymentMethod | null;
  choose: (method: PaymentMethod) => void;
  /** True while a press waits for the provider's methods ({@link PaymentChoice.settle}). */
  waiting: boolean;
  /** The method to pay with, once known (a press before the methods came waits for them). */
  settle: () => Promise<SettledChoice>;
}

/**
 * The payment method state of a purchase screen: the agreement on file (`useCardOnFile`) and the
 * provider's methods (`GET /payments/methods`), the customer's choice among them, and the default
 * (the provider's first method; the agreement on file only when chosen). `monthly`: the
 * monthly payment, which every provider charges to the agreement; other purchases only where the
 * provider says so (`agreementForPurchases`). Methods that cannot be read leave the card page.
 */
export function usePaymentChoice(payment: 'purchase' | 'monthly' = 'purchase'): PaymentChoice {
  const agreement = useCardOnFile();
  const provider = usePaymentMethods();
  const [chosen, setChosen] = useState<PaymentMethod | null>(null);
  const [waiting, setWaiting] = useState(false);

  const optionsOf = (answer: PaymentMethodsResponse): PaymentMethod[] => {
    const onFile = agreement && (payment === 'monthly' || answer.agreementForPurchases);
    return [...(onFile ? (['agreement'] as const) : []), ...answer.methods];
  };
  // The provider's first way to pay until the customer chooses (as before there was a choice of
  // providers: a tap on the agreement on file is a choice, never the default).
  const pick = (options: readonly PaymentMethod[]): PaymentMethod =>
    chosen && options.includes(chosen)
      ? chosen
      : (options.find((option) => option !== 'agreement') ?? options[0] ?? 'card');
  const settled = (payWith: PaymentMethod): SettledChoice => ({
    payWith,
    paidWith:
      payWith === 'agreement' ? (agreement ? walletOfAgreement(agreement) : 'card') : payWith,
  });
  const options = provider.known ? optionsOf(provider.known) : null;
  const payWith = options ? pick(options) : null;

  return {
    agreement,
    options,
    payWith,
    choose: setChosen,
    waiting,
    settle: async () => {
      if (payWith) return settled(payWith);
      setWaiting(true);
      try {
        return settled(pick(optionsOf(await provider.settle())));
      } finally {
        setWaiting(false);
      }
    },
  };
}

/**
 * How to pay a purchase ({@link usePaymentChoice}): the agreement on file when the customer has
 * an active one that may pay this (charged at once, without leaving the app), then the provider's
 * methods in its order — MobilePay (where the provider offers it), a card on its hosted page.
 * Shown only when there is a choice; while the provider's methods are on their way it keeps their
 * place when there is an agreement on file.
 */
export function PaymentMethodPicker({ choice }: { choice: PaymentChoice }) {
  const { t } = useTranslation();
  const { agreement, options, payWith, choose } = choice;
  // On their way: with an agreement on file there is a choice whatever the provider says (the
  // agreement and the card page, or MobilePay and the card page), so its place is kept; without
  // one the provider's answer decides whether there is a choice at all.
  const loading = options === null;
  if (loading ? !agreement : options.length < 2) return null;

  const describe = (method: PaymentMethod): { label: ReactNode; hint: string } => {
    switch (method) {
      case 'agreement': {
        const card = agreement ? cardLabel(agreement, t('payment.method.cardFallback')) : '';
        const mobilePay = agreement !== null && walletOfAgreement(agreement) === 'mobilepay';
        return {
          label: mobilePay ? t('payment.method.agreementMobilePay') : t('payment.method.agreement'),
          hint: t('payment.method.agreementHint', { card }),
        };
      }
      case 'mobilepay':
        return {
          label: withMobilePayMark(t('payment.method.mobilepay')),
          hint: t('payment.method.mobilepayHint'),
        };
      case 'card':
        return { label: t('payment.method.card'), hint: t('payment.method.cardHint') };
    }
  };

  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-2 text-body font-semibold text-ocean-950">
        {t('payment.method.legend')}
      </legend>
      <div
        role="radiogroup"
        aria-label={t('payment.method.legend')}
        aria-busy={loading || undefined}
        className="flex flex-col gap-2"
      >
        {(options ?? []).map((method) => {
          const { label, hint } = describe(method);
          return (
            <button
              key={method}
              type="button"
              role="radio"
              aria-checked={payWith === method}
              onClick={() => choose(method)}
              className={cx(
                'flex flex-col items-start rounded-2xl px-4 py-3 text-left shadow-card ring-2 transition-colors',
                payWith === method
                  ? 'bg-ocean-50 ring-ocean-700'
                  : 'bg-white ring-transparent hover:bg-mist-50',
              )}
            >
              <span className="text-body font-semibold text-ocean-950">{label}</span>
              <span className="text-caption text-mist-600">{hint}</span>
            </button>
          );
        })}
        {loading && (
          <>
            <Skeleton className="h-16 rounded-2xl" />
            <Skeleton className="h-16 rounded-2xl" />
          </>
        )}
      </div>
    </fieldset>
  );
}
