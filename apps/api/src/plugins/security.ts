import cors from '@fastify/cors';
import helmet from 'helmet';
import type { IncomingMessage, ServerResponse } from 'node:http';
import rateLimit, { type RateLimitOptions } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config';
import { AppError } from '../errors';
import { createHash } from 'node:crypto';
import { ENTRY_SCRIPT, FIRST_PAINT_SCRIPT } from '@alda/contract/first-paint';
import { API_DOCS_PREFIX, isApiPath } from '../http';

/** Paths the orchestrator probes; they must never be throttled. */
const UNLIMITED_PATHS = new Set(['/healthz', '/readyz']);

/**
 * Reads of the built web app (its files and the SPA's page navigations, issue 13) do not count
 * against the API's limit: one page load fetches dozens of files, and a phone behind a carrier's
 * shared address must not use up its neighbours' API budget. They cost no database work. What
 * still counts: everything under /api (unknown /api paths included), the test provider's card
 * page, and any other method than GET or HEAD. Both the URL and the pattern of the route it
 * matched are checked: the router decodes the path, so `/%61pi/…` reaches an /api route too.
 */
const COUNTED_PREFIXES = ['/api', '/test-provider', '/oauth', '/camara', '/tmf-api'];

function isCounted(path: string | undefined): boolean {
  return path !== undefined && COUNTED_PREFIXES.some((prefix) => path.startsWith(prefix));
}

function isUnlimited(request: FastifyRequest): boolean {
  const { method, url } = request;
  if (method === 'GET' || method === 'HEAD') {
    return !isCounted(url) && !isCounted(request.routeOptions.url);
  }
  return UNLIMITED_PATHS.has(url.split('?')[0] ?? '');
}

/** The answer over a limit, thrown as the request's error: the error handler's 429 with Retry-After. */
const rateLimitedError = () => new AppError('RATE_LIMITED');

/**
 * A route's own limit instead of the people's per-address one, as the route's `config`: up to
 * `perMinute` requests a minute on the route, per address unless `keyGenerator` says per what,
 * in the instance's memory; over it 429 `RATE_LIMITED` with `Retry-After`, counted under
 * `policy` (`alda_rate_limit_refusals_total`). Counted also when the people's limit is off
 * (`RATE_LIMIT_MAX=0`): the limiter is then registered in the route's own plugin (`app`, which
 * must be encapsulated). `perMinute` 0 leaves the route without a limit.
 */
export async function routeRateLimit(
  app: FastifyInstance,
  {
    perMinute,
    policy,
    keyGenerator,
  }: {
    perMinute: number;
    policy: string;
    keyGenerator?: (request: FastifyRequest) => string;
  },
): Promise<{ rateLimit: RateLimitOptions | false }> {
  if (perMinute === 0) return { rateLimit: false };
  if (!app.hasDecorator('rateLimit'))
    await app.register(rateLimit, { global: false, errorResponseBuilder: rateLimitedError });
  return {
    rateLimit: {
      max: perMinute,
      timeWindow: 60_000,
      ...(keyGenerator ? { keyGenerator } : {}),
      onExceeded: () => app.metrics.rateLimited(policy),
    },
  };
}

/** Host header characters we are willing to echo into the CSP (host, port, IPv6 brackets). */
const SAFE_HOST = /^[a-z0-9.\-:[\]]{1,255}$/i;

/**
 * connect-src: the API itself plus WebSockets to the same host, for the payment hub
 * (/api/hubs/payment). `'self'` covers ws/wss only in newer browsers, so name them explicitly.
 */
function connectSrc(host: string | undefined): string {
  if (!host || !SAFE_HOST.test(host)) return "'self'";
  return `'self' ws://${host} wss://${host}`;
}

/** CSP source of an inline script of index.html: `'sha256-…'` of its exact text. */
const hashOf = (script: string) =>
  `'sha256-${createHash('sha256').update(script).digest('base64')}'`;

const CSP_DIRECTIVES = {
  defaultSrc: ["'self'"],
  baseUri: ["'self'"],
  // Vite emits external module scripts; the two inline scripts of index.html by their hashes: the
  // one that picks the prerendered login screen or the splash before the first paint (ADR 0072),
  // and the one that adds the app's scripts after a guest's first paint (issue 45).
  scriptSrc: ["'self'", hashOf(FIRST_PAINT_SCRIPT), hashOf(ENTRY_SCRIPT)],
  scriptSrcAttr: ["'none'"],
  // Tailwind/Vite CSS is external ('self'); 'unsafe-inline' is for the <style> elements
  // that Radix's scroll lock and the toast library inject at runtime. Styles cannot run code.
  styleSrc: ["'self'", "'unsafe-inline'"],
  // blob: for the support conversations' images (issue 46): fetched with the token, shown
  // through an object URL the page itself made; no other origin's images.
  imgSrc: ["'self'", 'data:', 'blob:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: [(request: IncomingMessage) => connectSrc(request.headers.host)],
  manifestSrc: ["'self'"],
  workerSrc: ["'self'"],
  objectSrc: ["'none'"],
  frameSrc: ["'none'"],
  frameAncestors: ["'none'"],
  formAction: ["'self'"],
};

/** The headers a helmet middleware sets for a request with this Host (run once, off the wire). */
function headersOf(
  middleware: ReturnType<typeof helmet>,
  host: string | undefined,
): [string, string][] {
  const headers: [string, string][] = [];
  const response = {
    setHeader: (name: string, value: string | number) => headers.push([name, String(value)]),
    removeHeader: () => {},
  } as unknown as ServerResponse;
  middleware({ headers: { host } } as IncomingMessage, response, () => {});
  return headers;
}

/**
 * Helmet's headers that an API answer keeps (issue 13): the rest (opener and agent-cluster
 * isolation, DNS prefetch, download and cross-domain policies, the legacy XSS filter) only mean
 * something for a document, and every poll paid for their bytes.
 */
const API_HEADERS = new Set([
  'strict-transport-security',
  'x-content-type-options',
  'x-frame-options',
  'referrer-policy',
  'cross-origin-resource-policy',
]);

/** The CSP of a JSON answer: nothing may load from it, nothing may frame it. */
const API_CSP = "default-src 'none'; frame-ancestors 'none'";

/** JSON answers of the API and the probes; the OpenAPI browser under /api/docs is a page. */
function isApiAnswer(url: string): boolean {
  if (isApiPath(url)) return !url.startsWith(API_DOCS_PREFIX);
  return url === '/healthz' || url === '/readyz';
}

/** Where Vite puts the content-hashed bundles (plugins/web-app.ts serves them). */
const HASHED_ASSETS_PREFIX = '/assets/';
/** The staff console's hashed bundles (plugins/console-app.ts); its pages get the same CSP. */
const CONSOLE_ASSETS_PREFIX = '/console/assets/';

/** Distinct Host headers whose CSP is kept; a flood of made-up hosts is computed, not kept. */
const CSP_HOSTS_KEPT = 64;

/**
 * Helmet's headers (docs/decisions/0013-content-security-policy.md), computed once instead of on
 * every request (issue 13: helmet re-parsed the CSP directives per request, ~10 % of a bare
 * request's time). Only connect-src depends on the request (its Host), so the CSP is kept per
 * host.
 */
function installSecurityHeaders(app: FastifyInstance): void {
  const fixed = headersOf(
    helmet({
      contentSecurityPolicy: false,
      // Matches frame-ancestors 'none' for browsers that only know X-Frame-Options.
      frameguard: { action: 'deny' },
      // Same-origin is all the SPA needs; keeps other sites from embedding our resources.
      crossOriginResourcePolicy: { policy: 'same-origin' },
      // The app links out to app stores and the partner app; send only the origin with them.
      referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    }),
    undefined,
  );
  const csp = helmet({
    contentSecurityPolicy: { useDefaults: false, directives: CSP_DIRECTIVES },
    crossOriginEmbedderPolicy: false,
    crossOriginOpenerPolicy: false,
    crossOriginResourcePolicy: false,
    originAgentCluster: false,
    referrerPolicy: false,
    strictTransportSecurity: false,
    xContentTypeOptions: false,
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xFrameOptions: false,
    xPermittedCrossDomainPolicies: false,
    xPoweredBy: false,
    xXssProtection: false,
  });
  const cspByHost = new Map<string, string>();
  const cspFor = (host: string | undefined): string => {
    const key = host ?? '';
    const known = cspByHost.get(key);
    if (known !== undefined) return known;
    const value = headersOf(csp, host).find(([name]) => name === 'Content-Security-Policy')?.[1];
    if (value === undefined) throw new Error('helmet set no Content-Security-Policy');
    if (cspByHost.size < CSP_HOSTS_KEPT) cspByHost.set(key, value);
    return value;
  };
  const forApi = fixed.filter(([name]) => API_HEADERS.has(name.toLowerCase()));
  app.addHook('onRequest', (request, reply, done) => {
    const { url } = request;
    if (isApiAnswer(url)) {
      // JSON for a program, never a page: the headers that still matter for it (OWASP REST
      // Security), and a CSP that lets nothing load or frame it.
      for (const [name, value] of forApi) reply.header(name, value);
      reply.header('content-security-policy', API_CSP);
    } else {
      for (const [name, value] of fixed) reply.header(name, value);
      // A CSP governs documents; the app's hashed scripts, styles and images are never one, and
      // a page load fetches dozens of them (half a kilobyte of header each on HTTP/1.1).
      if (!url.startsWith(HASHED_ASSETS_PREFIX) && !url.startsWith(CONSOLE_ASSETS_PREFIX)) {
        reply.header('content-security-policy', cspFor(request.headers.host));
      }
    }
    done();
  });
}

/**
 * Security headers, CORS and rate limiting: the external plugins that load before everything
 * else (CONVENTIONS "Server in layers"). The CSP is written for the Vite-built SPA and is
 * explained in docs/decisions/0013-content-security-policy.md.
 */
export async function registerSecurity(app: FastifyInstance, config: Config): Promise<void> {
  installSecurityHeaders(app);

  if (config.corsOrigins.length > 0) {
    await app.register(cors, {
      origin: config.corsOrigins,
      methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
      allowedHeaders: [
        'authorization',
        'content-type',
        'accept-language',
        'x-request-id',
        // The native shell says which platform it is on (MobilePay's app switch, ADR 0081).
        'x-alda-platform',
        'idempotency-key',
        // Sent by the official SignalR client with the payment hub's negotiate.
        'x-requested-with',
        'x-signalr-user-agent',
      ],
      exposedHeaders: ['x-request-id', 'retry-after'],
      maxAge: 600,
    });
  }

  if (config.rateLimitMax > 0) {
    await app.register(rateLimit, {
      global: true,
      max: config.rateLimitMax,
      timeWindow: 60_000,
      allowList: isUnlimited,
      // Thrown as the request's error, so it leaves through the error handler as the envelope.
      errorResponseBuilder: rateLimitedError,
      onExceeded: () => app.metrics.rateLimited('global'),
    });
  }
}
