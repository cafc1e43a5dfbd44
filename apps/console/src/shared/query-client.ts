import { QueryClient } from '@tanstack/react-query';
import { isApiError } from './api';

/**
 * How often a live screen (the orders queue, an order, a customer, the lists) asks again: every
 * 5 s, with If-None-Match, so an unchanged answer is a 304 without a body (ADR 0075 "Live
 * updates: polling with ETags").
 */
export const LIVE_REFRESH_MS = 5_000;

/**
 * The console's query cache. A refused call (4xx) is not tried again: the answer would be the
 * same. A network failure or a 5xx is tried once more.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: (failures, error) =>
          failures < 1 && !(isApiError(error) && error.status >= 400 && error.status < 500),
        staleTime: 10_000,
      },
      mutations: { retry: false },
    },
  });
}
