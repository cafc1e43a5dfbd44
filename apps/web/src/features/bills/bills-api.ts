import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import {
  billPdfLinkResponse,
  billResponse,
  billsResponse,
  billUsageResponse,
  emailBillResponse,
  type BillUsageType,
  type EmailBillResponse,
} from '@alda/contract/schemas/bills';
import { unwrap, type HttpClient, type Result } from '@/shared/api/http';
import { pdfLinkUrl } from '@/shared/documents/download-pdf';

/** Uses per page of a number's itemised list ("show more" fetches the next). */
export const BILL_USAGE_PAGE_SIZE = 50;

const billPath = (id: string) => `/bills/${encodeURIComponent(id)}`;

/** What the itemised list shows: one type of use or all, the other party's number in full. */
export interface UsageFilter {
  type: BillUsageType | null;
  fullNumbers: boolean;
}

/** Keys of the bill queries. Item descriptions come in the requested language, hence the locale. */
export const billKeys = {
  all: ['bills'] as const,
  list: (locale: string) => [...billKeys.all, 'list', locale] as const,
  detail: (id: string, locale: string) => [...billKeys.all, 'detail', id, locale] as const,
  usage: (id: string, phoneNumber: string, filter: UsageFilter) =>
    [
      ...billKeys.all,
      'usage',
      id,
      phoneNumber,
      filter.type ?? 'all',
      filter.fullNumbers ? 'full' : 'masked',
    ] as const,
};

export const billQueries = {
  /** GET /bills: newest first, all of them (one a month). */
  list: (http: HttpClient, locale: string) =>
    queryOptions({
      queryKey: billKeys.list(locale),
      queryFn: async ({ signal }) => unwrap(await http.get('/bills', billsResponse, { signal })),
      // A bill paid a minute ago should show as paid when the customer opens the list.
      staleTime: 0,
    }),
  /** GET /bills/{id}. */
  detail: (http: HttpClient, id: string, locale: string) =>
    queryOptions({
      queryKey: billKeys.detail(id, locale),
      queryFn: async ({ signal }) => unwrap(await http.get(billPath(id), billResponse, { signal })),
    }),
  /**
   * GET /bills/{id}/usage?phoneNumber&type&fullNumbers&page&perPage: one number's use in the
   * bill's month, oldest first, a page at a time (pages count from 1).
   */
  usage: (http: HttpClient, id: string, phoneNumber: string, filter: UsageFilter) =>
    infiniteQueryOptions({
      queryKey: billKeys.usage(id, phoneNumber, filter),
      initialPageParam: 1,
      queryFn: async ({ pageParam, signal }) =>
        unwrap(
          await http.get(`${billPath(id)}/usage`, billUsageResponse, {
            query: {
              phoneNumber,
              type: filter.type ?? undefined,
              fullNumbers: filter.fullNumbers ? 'true' : undefined,
              page: pageParam,
              perPage: BILL_USAGE_PAGE_SIZE,
            },
            signal,
          }),
        ),
      getNextPageParam: (last) =>
        last.page * last.perPage < last.total ? last.page + 1 : undefined,
    }),
};

/** GET /bills/{id}/pdf with the bearer token, as a Blob (the payer only: a member gets 403). */
export const downloadBillPdf = (http: HttpClient, id: string): Promise<Result<Blob>> =>
  http.getBlob(`${billPath(id)}/pdf`, { headers: { Accept: 'application/pdf' } });

/** POST /bills/{id}/pdf-link: a short-lived address of the PDF for the native shell (ADR 0054). */
export const billPdfUrl = (http: HttpClient, id: string): Promise<Result<string>> =>
  pdfLinkUrl(http, `${billPath(id)}/pdf-link`, billPdfLinkResponse);

/** POST /bills/{id}/email: the PDF to the customer's e-mail address. */
export const emailBill = (http: HttpClient, id: string): Promise<Result<EmailBillResponse>> =>
  http.post(`${billPath(id)}/email`, undefined, emailBillResponse);
