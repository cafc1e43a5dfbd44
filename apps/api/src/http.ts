import { errorEnvelope } from '@alda/contract/envelope';

const DESCRIPTIONS: Record<number, string> = {
  400: 'VALIDATION_FAILED (with `field`) or BAD_REQUEST',
  401: 'UNAUTHORIZED or INVALID_CREDENTIALS',
  404: 'NOT_FOUND',
  413: 'PAYLOAD_TOO_LARGE',
  429: 'RATE_LIMITED',
  500: 'INTERNAL',
  503: 'SERVICE_UNAVAILABLE',
};

/**
 * Error answers of a route for its OpenAPI document (and the serializer): the contract's error
 * envelope under each status the route can return. 429 and 500 apply to every route.
 */
export function errorResponses<S extends number>(...statuses: S[]) {
  const responses: Partial<Record<S | 429 | 500, typeof errorEnvelope>> = {};
  for (const status of [...statuses, 429 as const, 500 as const]) {
    responses[status] = errorEnvelope.describe(DESCRIPTIONS[status] ?? 'Error');
  }
  return responses as Record<S | 429 | 500, typeof errorEnvelope>;
}
