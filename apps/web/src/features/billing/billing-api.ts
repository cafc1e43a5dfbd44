import { queryOptions } from '@tanstack/react-query';
import { monthlyPriceResponse } from '@alda/contract/schemas/billing';
import { unwrap, type HttpClient } from '@/shared/api/http';

export const PAY_MONTH_PATH = '/billing/pay';

/** Keys of the billing queries; line descriptions come in the requested language. */
export const billingKeys = {
  all: ['billing'] as const,
  monthlyPrice: (locale: string) => [...billingKeys.all, 'monthly-price', locale] as const,
};

export const billingQueries = {
  /** GET /billing/monthly-price: this month's lines, totals and whether it is paid. */
  monthlyPrice: (http: HttpClient, locale: string) =>
    queryOptions({
      queryKey: billingKeys.monthlyPrice(locale),
      queryFn: async ({ signal }) =>
        unwrap(await http.get('/billing/monthly-price', monthlyPriceResponse, { signal })),
      // Paid a minute ago on the status screen: coming back shows the badge.
      staleTime: 0,
    }),
};
