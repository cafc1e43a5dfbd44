import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  paymentMethodsResponse,
  type CheckoutMethod,
  type PaymentMethodsResponse,
} from '@alda/contract/schemas/orders';
import { PAYMENT_METHODS_PATH } from '@alda/contract/start-up';
import { unwrap, type HttpClient } from '@/shared/api/http';
import { useAppServices } from '@/shared/services/app-services';

/** The brand of a MobilePay agreement (`Agreement.cardBrand`), and MobilePay's own name. */
export const MOBILEPAY = 'MobilePay';

/**
 * When `GET /payments/methods` cannot be read: the card page, which every provider has, so a
 * purchase stays possible, and the agreement on file as before (a provider that does not take it
 * for a purchase refuses it with PAYMENT_METHOD_UNAVAILABLE, and the card is still there). Never
 * used while the answer is on its way: screens wait for it then.
 */
export const CARD_ONLY: PaymentMethodsResponse = {
  provider: 'test',
  methods: ['card'],
  agreementVia: 'card',
  agreementForPurchases: true,
};

export const paymentMethodsKey = ['payment-methods'] as const;

/**
 * GET /payments/methods: what the payment provider offers (ADR 0081). It does not change while
 * the app runs, so it is read once a session (it is public: the answer is the same for everyone).
 */
export const paymentMethodsQuery = (http: HttpClient) =>
  queryOptions({
    queryKey: paymentMethodsKey,
    queryFn: async ({ signal }) =>
      unwrap(await http.get(PAYMENT_METHODS_PATH, paymentMethodsResponse, { signal })),
    staleTime: Infinity,
    gcTime: Infinity,
  });

/**
 * The provider's payment methods: `known` is null while the answer is on its way and
 * {@link CARD_ONLY} when it could not be read; `settle()` waits for it (a press that came first).
 */
export function usePaymentMethods(): {
  known: PaymentMethodsResponse | null;
  settle: () => Promise<PaymentMethodsResponse>;
} {
  const { http } = useAppServices();
  const queryClient = useQueryClient();
  const query = useQuery(paymentMethodsQuery(http));
  const known = query.data ?? (query.isError ? CARD_ONLY : null);
  const settle = async () =>
    known ?? queryClient.fetchQuery(paymentMethodsQuery(http)).catch(() => CARD_ONLY);
  return { known, settle };
}

/**
 * What the customer pays with in the end — a card (the card page, or a card on file) or
 * MobilePay (the wallet, or a MobilePay agreement): the payment screens' words follow it.
 */
export type Wallet = CheckoutMethod;

/**
 * The wallet of a payment agreement: MobilePay's agreements carry the brand 'MobilePay'; one
 * without a brand yet (pending) is of the provider's kind (`agreementVia`).
 */
export function walletOfAgreement(
  agreement: { cardBrand: string | null },
  agreementVia: CheckoutMethod = 'card',
): Wallet {
  if (agreement.cardBrand === null) return agreementVia;
  return agreement.cardBrand === MOBILEPAY ? 'mobilepay' : 'card';
}
