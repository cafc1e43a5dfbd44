import { timingSafeEqual, createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config';
import { AppError } from '../errors';
import type { Metrics } from './metrics';

/** Probes and scrapes are polled by machines; counting them would drown the customers' traffic. */
const NOT_MEASURED = new Set(['/healthz', '/readyz', '/metrics']);

const kMeasured = Symbol('alda.metrics.measured');
type Measured = FastifyRequest & { [kMeasured]?: boolean };

/** Where metrics are served (issue 44 §1): a listener of its own, the main port with a token. */
export function metricsExposed(config: Config): boolean {
  return config.metricsPort !== undefined || config.metricsToken !== undefined;
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/** `Authorization: Bearer <METRICS_TOKEN>`, compared in constant time. */
function hasToken(request: FastifyRequest, token: string): boolean {
  const header = request.headers.authorization;
  if (typeof header !== 'string' || !header.startsWith('Bearer ')) return false;
  return timingSafeEqual(digest(header.slice('Bearer '.length)), digest(token));
}

async function sendScrape(metrics: Metrics, reply: FastifyReply) {
  const { contentType, body } = await metrics.scrape();
  return reply.header('cache-control', 'no-store').type(contentType).send(body);
}

/**
 * The HTTP measurements and the places Prometheus scrapes. Nothing is measured per request unless
 * metrics are served somewhere (METRICS_PORT or METRICS_TOKEN): an installation that does not
 * scrape pays nothing on its hot path.
 */
export function registerMetrics(app: FastifyInstance, config: Config, metrics: Metrics): void {
  if (!metricsExposed(config)) return;

  // Callback-style hooks: every request passes here (an async hook costs a promise each).
  app.addHook('onRequest', (request, _reply, done) => {
    if (!NOT_MEASURED.has(request.url)) {
      (request as Measured)[kMeasured] = true;
      metrics.http.started();
    }
    done();
  });
  app.addHook('onResponse', (request, reply, done) => {
    const measured = request as Measured;
    if (measured[kMeasured]) {
      measured[kMeasured] = false;
      metrics.http.finished(
        request.routeOptions.url ?? 'unmatched',
        request.method,
        reply.statusCode,
        reply.elapsedTime / 1000,
      );
    }
    done();
  });
  // A client that goes away before the answer: no longer in flight (and no duration to tell).
  app.addHook('onRequestAbort', (request, done) => {
    const measured = request as Measured;
    if (measured[kMeasured]) {
      measured[kMeasured] = false;
      metrics.http.aborted();
    }
    done();
  });

  const token = config.metricsToken;
  if (token !== undefined) {
    app.get(
      '/metrics',
      { config: { rateLimit: false }, schema: { hide: true } },
      async (request, reply) => {
        if (!hasToken(request, token)) {
          reply.header('www-authenticate', 'Bearer realm="metrics"');
          throw new AppError('UNAUTHORIZED', { detail: 'metrics token missing or wrong' });
        }
        return sendScrape(metrics, reply);
      },
    );
  }

  const port = config.metricsPort;
  if (port !== undefined) {
    let server: Server | null = null;
    // With the main listener: tests that only `inject` never open the port.
    app.addHook('onListen', async () => {
      server = createServer((req, res) => {
        const path = (req.url ?? '').split('?')[0];
        if (req.method !== 'GET' || path !== '/metrics') {
          res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found\n');
          return;
        }
        metrics.scrape().then(
          ({ contentType, body }) => {
            res.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' });
            res.end(body);
          },
          (error: unknown) => {
            app.log.warn({ err: error }, 'metrics scrape failed');
            res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('error\n');
          },
        );
      });
      const listening = server;
      await new Promise<void>((resolve, reject) => {
        listening.once('error', reject);
        listening.listen(port, config.metricsHost, () => {
          listening.off('error', reject);
          resolve();
        });
      });
      app.log.info({ port, host: config.metricsHost }, 'metrics listener ready');
    });
    app.addHook('onClose', async () => {
      const open = server;
      server = null;
      if (!open) return;
      open.closeAllConnections();
      await new Promise<void>((resolve) => open.close(() => resolve()));
    });
  }
}
