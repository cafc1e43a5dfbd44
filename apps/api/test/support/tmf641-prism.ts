import { fileURLToPath } from 'node:url';
import {
  startPrismRouter,
  type PrismRouter,
  type RecordedRequest,
  type Violation,
} from './prism-router';

/*
 * The OSS in tests (issue 43): Stoplight Prism serves TM Forum's TMF641 Service Ordering v4.1.0
 * document (test/contracts/tmf641, README.md there) behind the small router of prism-router.ts.
 *
 *   /tmf-api/serviceOrdering/v4/…  → the document. Its paths are /serviceOrder, /hub, … under
 *                                    `basePath: /tmf-api/serviceOrdering/v4`, which Prism does not
 *                                    apply, so the base path is taken off before Prism.
 *
 * `url` ends in the base path: it is the adapter's TMF641_URL. Every request is recorded in
 * `requests`; everything the document refuses (no `serviceOrderItem`, an item without `id` or
 * `action`, an action outside add|modify|delete|noChange, a `POST /hub` without `callback`, a
 * media type other than JSON, a path the document does not have, …) in `violations`. The
 * document declares no security scheme, so Prism does not look at `Authorization`. Query
 * parameters the document does not list (`externalId` on `GET /serviceOrder`) are allowed.
 *
 * Mock mode (default): the answers are the document's own generated examples — `201` with a
 * ServiceOrder whose `id` is `"string"` and whose `state` is `acknowledged`, whatever was sent —
 * and they break the document's own schema in places (README), which `responseViolations` lists.
 * Proxy mode (`upstream`, e.g. the demo TMF641 server of a listening test app): Prism validates
 * each request the same way and forwards it, so an adapter can run a whole sign-up against a
 * server that completes orders, with every request checked; `responseViolations` then lists
 * where the server's answers break the document.
 */

export const TMF641_BASE_PATH = '/tmf-api/serviceOrdering/v4';

const document = fileURLToPath(
  new URL('../contracts/tmf641/TMF641-ServiceOrdering-v4.1.0.swagger.json', import.meta.url),
);

export type Tmf641Violation = Violation<'tmf641'>;
export type Tmf641Request = RecordedRequest<'tmf641'>;

export interface Tmf641Prism extends PrismRouter<'tmf641'> {
  /** The base URL of the service ordering API (…/tmf-api/serviceOrdering/v4): TMF641_URL. */
  url: string;
  /** The router itself, without the base path (requests outside it are violations NO_ROUTE). */
  origin: string;
}

export interface Tmf641PrismOptions {
  /**
   * Forward every request (after validation) to this TMF641 base URL instead of answering from
   * the document's examples, e.g. `http://127.0.0.1:<port>/tmf-api/serviceOrdering/v4`.
   */
  upstream?: string;
  /** Pass `--errors` to Prism (proxy mode: an invalid request is refused, not forwarded). */
  errors?: boolean;
  /** How long to wait for Prism to answer (default 60 s). */
  startTimeoutMs?: number;
  /** The router's port on 127.0.0.1 (default: one the kernel picks). */
  port?: number;
}

/** Starts Prism on the TMF641 document and the router; resolves once Prism answers. */
export async function startTmf641Prism(options: Tmf641PrismOptions = {}): Promise<Tmf641Prism> {
  const router = await startPrismRouter({
    label: 'TMF641',
    documents: { tmf641: { file: document, prefix: `${TMF641_BASE_PATH}/`, stripPrefix: true } },
    apis: ['tmf641'],
    ...(options.upstream === undefined ? {} : { upstream: { tmf641: options.upstream } }),
    errors: options.errors,
    startTimeoutMs: options.startTimeoutMs,
    port: options.port,
  });
  return Object.assign(router, { origin: router.url, url: router.url + TMF641_BASE_PATH });
}
