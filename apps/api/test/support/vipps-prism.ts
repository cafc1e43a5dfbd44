import { fileURLToPath } from 'node:url';
import {
  startPrismRouter,
  type PreferRule,
  type PrismRouter,
  type RecordedRequest as AnyRecordedRequest,
  type Violation as AnyViolation,
} from './prism-router';

/*
 * Vipps MobilePay as a provider in tests: Stoplight Prism (`prism mock`) serves the provider's
 * published OpenAPI documents (test/contracts/vipps-mobilepay, README.md there), one process per
 * document, behind one small HTTP server (prism-router.ts) that routes by path prefix the way
 * api.vipps.no does:
 *
 *   /epayment/…     → ePayment API v1 document            (paths start with /epayment/v1/…)
 *   /recurring/…    → Recurring API document (v2 and v3)  (paths start with /recurring/v3/…)
 *   /accesstoken/…  → Access token API document           (POST /accesstoken/get)
 *   /webhooks/…     → Webhooks API document; its server URL is https://api.vipps.no/webhooks and
 *                     its paths are /v1/webhooks…, so `/webhooks` is taken off before Prism
 *
 * Point the adapter's base URL at `url`. Every request is recorded in `requests`, and every way it
 * breaks the documents in `violations`: the `sl-violations` entries Prism adds for the request
 * (missing required header, wrong body type, failed pattern, …), the errors Prism answers with on
 * its own (401 UNAUTHORIZED for a missing `Authorization` where the document declares a security
 * scheme, 422 UNPROCESSABLE_ENTITY, 404 NO_PATH_MATCHED_ERROR, 405, 415, …) and any path outside
 * the four prefixes (404 from here). A contract test ends with `expect(prism.violations).toEqual([])`.
 *
 * Prism's own mistakes about the provider are kept apart in `responseViolations`: where a
 * document's example does not match its own schema (the Access token API's `expires_in` is typed
 * string with a numeric example, …), Prism lists it in `sl-violations` under `response`. That is
 * no fault of the request, so it is not in `violations`; see the README for the known ones.
 *
 * Answers are the documents' static examples (no `-d`): the same request gets the same answer.
 * A test can ask Prism for another documented answer with `prefer()` (Prism's `Prefer` header:
 * `code=404`, `example=QrImageUrl`, …) without the adapter knowing.
 */

export type VippsApi = 'epayment' | 'recurring' | 'accesstoken' | 'webhooks';

export type Violation = AnyViolation<VippsApi>;
export type RecordedRequest = AnyRecordedRequest<VippsApi>;
export type { PreferRule };
export type VippsPrism = PrismRouter<VippsApi>;

export interface VippsPrismOptions {
  /**
   * Pass `--errors` to Prism. In mock mode that flag changes only what Prism does with its own
   * answers: one that breaks its document's schema becomes a 500 VIOLATIONS instead of being
   * sent (with the break listed in `sl-violations`). Invalid requests are answered with a 4xx
   * either way. Off by default, since some published examples break their own schemas (README).
   */
  errors?: boolean;
  /**
   * The documents to serve (default: all four). Each Prism takes about a second of CPU to start,
   * so a file that needs only ePayment and the token can say so; a request for an API not
   * started is answered 404 and recorded as a violation (code NOT_STARTED).
   */
  apis?: VippsApi[];
  /** How long to wait for every Prism to answer (default 60 s). */
  startTimeoutMs?: number;
  /** The router's port on 127.0.0.1 (default: one the kernel picks). */
  port?: number;
}

const contractsDir = fileURLToPath(new URL('../contracts/vipps-mobilepay/', import.meta.url));

/** The documents and the path prefix of each (see the README beside them). */
export const VIPPS_DOCUMENTS: Record<
  VippsApi,
  { file: string; prefix: string; stripPrefix: boolean }
> = {
  epayment: { file: 'epayment.v1.yml', prefix: '/epayment/', stripPrefix: false },
  recurring: { file: 'recurring.openapi.yaml', prefix: '/recurring/', stripPrefix: false },
  accesstoken: { file: 'access-token.swagger.yaml', prefix: '/accesstoken/', stripPrefix: false },
  webhooks: { file: 'webhooks.swagger.yaml', prefix: '/webhooks/', stripPrefix: true },
};

/** Starts the Prism processes and the router; resolves once every Prism answers. */
export function startVippsPrism(options: VippsPrismOptions = {}): Promise<VippsPrism> {
  const documents = Object.fromEntries(
    Object.entries(VIPPS_DOCUMENTS).map(([api, doc]) => [
      api,
      { ...doc, file: contractsDir + doc.file },
    ]),
  ) as typeof VIPPS_DOCUMENTS;
  return startPrismRouter({
    label: 'Vipps MobilePay',
    documents,
    apis: options.apis ?? (Object.keys(VIPPS_DOCUMENTS) as VippsApi[]),
    errors: options.errors,
    startTimeoutMs: options.startTimeoutMs,
    port: options.port,
  });
}
