import {
  context,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Context,
} from '@opentelemetry/api';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { urlWithoutCallbackSecret } from '../log-privacy';
import { tracer, tracingActive, untraced } from './tracing';

/** Probes and scrapes are polled by machines: a trace each would drown the customers' traffic. */
const NOT_TRACED = new Set(['/healthz', '/readyz', '/metrics']);

const kContext = Symbol('alda.trace.context');
type Traced = FastifyRequest & { [kContext]?: Context };

/**
 * A server span per request (issue 44 §2), named "METHOD /route/template" ("METHOD" alone when no
 * route matched), with http.request.method, http.route, url.scheme, url.path and
 * http.response.status_code: never a query value, body, header value or client address.
 *
 * The rest of the request runs inside the span's context, so the database queries, the outgoing
 * calls and the log lines of the request are its children and carry its trace id:
 * - everything after this hook is called from within `context.with`;
 * - the raw request and response are bound to the context, so what runs from their events does
 *   too: the body parser (data/end), and the response's finish, which runs the onResponse hooks
 *   and writes the "request completed" line (request-log.ts).
 *
 * The official @fastify/otel plugin was not used: it records url.path with the query string,
 * names every span "request", and wraps every hook and handler of every route in a span of its
 * own, a cost on each request for detail nobody asked for.
 *
 * Installed first (createServer), so that its hooks run before every other; nothing is
 * installed when tracing is off.
 */
export function installHttpTracing(app: FastifyInstance): void {
  if (!tracingActive()) return;
  // Callback-style hooks: an async hook would cost a promise per request, and `done` must be
  // called inside `context.with` for the rest of the chain to run in the span's context.
  app.addHook('onRequest', (request, reply, done) => {
    if (NOT_TRACED.has(request.url)) {
      // Not even the readiness check's query: one root span per probe every few seconds.
      untraced(done);
      return;
    }
    // The parent is the caller's `traceparent`, never whatever happened to be active here.
    const parent = propagation.extract(ROOT_CONTEXT, request.headers);
    const route = request.routeOptions.url;
    const span = tracer().startSpan(
      route === undefined ? request.method : `${request.method} ${route}`,
      {
        kind: SpanKind.SERVER,
        attributes: {
          'http.request.method': request.method,
          ...(route === undefined ? {} : { 'http.route': route }),
          'url.scheme': request.protocol,
          'url.path': pathWithoutParams(request),
        },
      },
      parent,
    );
    const spanContext = trace.setSpan(parent, span);
    (request as Traced)[kContext] = spanContext;
    context.bind(spanContext, request.raw);
    context.bind(spanContext, reply.raw);
    context.with(spanContext, done);
  });
  app.addHook('onResponse', (request, reply, done) => {
    const spanContext = (request as Traced)[kContext];
    const span = spanContext && trace.getSpan(spanContext);
    if (span) {
      const status = reply.statusCode;
      span.setAttribute('http.response.status_code', status);
      if (status >= 500) {
        span.setStatus({ code: SpanStatusCode.ERROR });
        span.setAttribute('error.type', String(status));
      }
      span.end();
    }
    done();
  });
}

/**
 * The request's path without the query, and with the values of the route's parameters replaced
 * by their names: `/api/staff/numbers/298123456/release` → `/api/staff/numbers/:msisdn/release`.
 * A path parameter may be a phone number or a customer's id; the wildcard of static files is
 * kept (`/assets/app.js`).
 */
function pathWithoutParams(request: FastifyRequest): string {
  const query = request.url.indexOf('?');
  // The TMF641 callback's secret segment never leaves in a span, matched route or not.
  const path = urlWithoutCallbackSecret(query < 0 ? request.url : request.url.slice(0, query));
  const params = request.params as Record<string, unknown> | null | undefined;
  if (!params || typeof params !== 'object') return path;
  const names = new Map<string, string>();
  for (const [name, value] of Object.entries(params)) {
    if (name !== '*' && typeof value === 'string' && value !== '') names.set(value, name);
  }
  if (names.size === 0) return path;
  return path
    .split('/')
    .map((segment) => {
      const name = names.get(decodeSegment(segment));
      return name === undefined ? segment : `:${name}`;
    })
    .join('/');
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
