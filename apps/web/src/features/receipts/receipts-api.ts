import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import {
  emailReceiptResponse,
  receiptPdfLinkResponse,
  receiptResponse,
  receiptsResponse,
  type EmailReceiptResponse,
} from '@alda/contract/schemas/receipts';
import { unwrap, type HttpClient, type Result } from '@/shared/api/http';
import { pdfLinkUrl } from '@/shared/documents/download-pdf';

/** Receipts per page of the list ("show more" fetches the next). */
export const RECEIPTS_PAGE_SIZE = 20;

const receiptPath = (id: string) => `/receipts/${encodeURIComponent(id)}`;

/** Keys of the receipt queries. Descriptions come in the requested language, hence the locale. */
export const receiptKeys = {
  all: ['receipts'] as const,
  list: (locale: string) => [...receiptKeys.all, 'list', locale] as const,
  detail: (id: string, locale: string) => [...receiptKeys.all, 'detail', id, locale] as const,
};

export const receiptQueries = {
  /** GET /receipts?page&perPage, newest first, a page at a time. */
  list: (http: HttpClient, locale: string) =>
    infiniteQueryOptions({
      queryKey: receiptKeys.list(locale),
      initialPageParam: 0,
      queryFn: async ({ pageParam, signal }) =>
        unwrap(
          await http.get('/receipts', receiptsResponse, {
            query: { page: pageParam, perPage: RECEIPTS_PAGE_SIZE },
            signal,
          }),
        ),
      getNextPageParam: (last) =>
        (last.page + 1) * last.perPage < last.total ? last.page + 1 : undefined,
      // A payment made a minute ago should be on the list when the customer opens it.
      staleTime: 0,
    }),
  /** GET /receipts/{id}. */
  detail: (http: HttpClient, id: string, locale: string) =>
    queryOptions({
      queryKey: receiptKeys.detail(id, locale),
      queryFn: async ({ signal }) =>
        unwrap(await http.get(receiptPath(id), receiptResponse, { signal })),
    }),
};

/** GET /receipts/{id}/pdf with the bearer token, as a Blob. */
export const downloadReceiptPdf = (http: HttpClient, id: string): Promise<Result<Blob>> =>
  http.getBlob(`${receiptPath(id)}/pdf`, { headers: { Accept: 'application/pdf' } });

/**
 * POST /receipts/{id}/pdf-link: a 5-minute pre-signed address of the PDF, absolute under the API
 * base, for the native shell's in-app browser, which has no access token (ADR 0054).
 */
export const receiptPdfUrl = (http: HttpClient, id: string): Promise<Result<string>> =>
  pdfLinkUrl(http, `${receiptPath(id)}/pdf-link`, receiptPdfLinkResponse);

/** POST /receipts/{id}/email: the PDF to the customer's e-mail address. */
export const emailReceipt = (http: HttpClient, id: string): Promise<Result<EmailReceiptResponse>> =>
  http.post(`${receiptPath(id)}/email`, undefined, emailReceiptResponse);
