import cors from '@fastify/cors';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';
import { AppError } from '../errors';

/** Paths the orchestrator probes; they must never be throttled. */
const UNLIMITED_PATHS = new Set(['/healthz', '/readyz']);

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

/**
 * Security headers, CORS and rate limiting: the external plugins that load before everything
 * else (CONVENTIONS "Server in layers"). The CSP is written for the Vite-built SPA and is
 * explained in docs/decisions/0013-content-security-policy.md.
 */
export async function registerSecurity(app: FastifyInstance, config: Config): Promise<void> {
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        baseUri: ["'self'"],
        // Vite emits only external module scripts; nothing inline is ever needed.
        scriptSrc: ["'self'"],
        scriptSrcAttr: ["'none'"],
        // Tailwind/Vite CSS is external ('self'); 'unsafe-inline' is for the <style> elements
        // that Radix's scroll lock and the toast library inject at runtime. Styles cannot run code.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: [(request) => connectSrc(request.headers.host)],
        manifestSrc: ["'self'"],
        workerSrc: ["'self'"],
        objectSrc: ["'none'"],
        frameSrc: ["'none'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
      },
    },
    // Matches frame-ancestors 'none' for browsers that only know X-Frame-Options.
    frameguard: { action: 'deny' },
    // Same-origin is all the SPA needs; keeps other sites from embedding our resources.
    crossOriginResourcePolicy: { policy: 'same-origin' },
    // The app links out to app stores and the partner app; send only the origin with them.
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
  });

  if (config.corsOrigins.length > 0) {
    await app.register(cors, {
      origin: config.corsOrigins,
      methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
      allowedHeaders: [
        'authorization',
        'content-type',
        'accept-language',
        'x-request-id',
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
      allowList: (request) => UNLIMITED_PATHS.has(request.url.split('?')[0] ?? ''),
      // Thrown as the request's error, so it leaves through the error handler as the envelope.
      errorResponseBuilder: () => new AppError('RATE_LIMITED'),
    });
  }
}
