import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod/mini';
import { errorEnvelope } from '@alda/contract/envelope';

const DESCRIPTIONS: Record<number, string> = {
  400: 'VALIDATION_FAILED (with `field`) or BAD_REQUEST',
  401: 'UNAUTHORIZED or INVALID_CREDENTIALS',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'A conflict with the current state; the code names it (see the route description)',
  410: 'PIN_EXPIRED',
  413: 'PAYLOAD_TOO_LARGE',
  422: 'A business rule refuses the request; the code names it (see the route description)',
  429: 'RATE_LIMITED, or TOO_MANY_ATTEMPTS / PIN_RESEND_TOO_SOON with `retryAfter` (seconds) and a Retry-After header',
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
    responses[status] = errorEnvelope.check(z.describe(DESCRIPTIONS[status] ?? 'Error'));
  }
  return responses as Record<S | 429 | 500, typeof errorEnvelope>;
}

/** What sessions and security limits need to know about the caller. */
export function clientMeta(request: FastifyRequest): { userAgent: string | null; ip: string } {
  return { userAgent: request.headers['user-agent']?.slice(0, 300) ?? null, ip: request.ip };
}

/** Codes an edge sends for "no country": unknown (`XX`, `ZZ`) and groups of countries. */
const NOT_A_COUNTRY = new Set(['XX', 'ZZ', 'EU', 'EZ', 'UN', 'QO']);
const REGIONS = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });

/**
 * The country of the client's IP address as the edge in front (CDN, load balancer) names it in
 * `header` (CLIENT_COUNTRY_HEADER; ADR 0059): an ISO 3166-1 alpha-2 code, upper case. Null when
 * no header is configured or sent, or its value is not a country — `XX` (unknown), `T1` (Tor),
 * groups like `EU`, codes nobody has, anything else.
 */
export function clientCountry(request: FastifyRequest, header: string | undefined): string | null {
  if (!header) return null;
  const value = request.headers[header];
  if (typeof value !== 'string') return null;
  const code = value.trim().toUpperCase();
  if (!/^[A-Z]{2}$/.test(code) || NOT_A_COUNTRY.has(code)) return null;
  return REGIONS.of(code) === undefined ? null : code;
}

/**
 * Sends a JSON body that was already serialized with the route's response schema (an answer
 * kept in memory, ADR 0057), as a string or its UTF-8 bytes. Fastify sends either with a JSON
 * content type as it is; the typed `send` of the zod provider only knows objects, hence the one
 * cast here.
 */
export function sendSerialized(reply: FastifyReply, body: string | Buffer): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(body);
}

/** Where the OpenAPI browser lives: a page for people, not a JSON answer (plugins/openapi.ts). */
export const API_DOCS_PREFIX = '/api/docs';

/**
 * The partner APIs beside /api (ADR 0076): OAuth client credentials and CAMARA; and the TM Forum
 * Open APIs the operator's systems speak (`/tmf-api/…`, issue 43).
 */
const PARTNER_API_PREFIXES = ['/oauth/', '/camara/', '/tmf-api/'];

/**
 * A request for an API (`/api`, `/api/…`, `/api?…`, and the partners' `/oauth/…`, `/camara/…`
 * and `/tmf-api/…`), as opposed to the app and the probes: JSON answers with the API's CSP,
 * counted by the rate limit, never the SPA's fallback page.
 */
export function isApiPath(url: string): boolean {
  return (
    url === '/api' ||
    url.startsWith('/api/') ||
    url.startsWith('/api?') ||
    PARTNER_API_PREFIXES.some((prefix) => url.startsWith(prefix))
  );
}
