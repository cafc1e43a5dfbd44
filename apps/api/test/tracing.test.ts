import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createTcpServer, type Server as TcpServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { trace } from '@opentelemetry/api';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { seedDemoData } from '../src/seed/seed';
import {
  droppedSpans,
  startTracing,
  tracingActive,
  tracingConfigured,
  type Tracing,
} from '../src/tracing/tracing';
import {
  createTestApp,
  LogCapture,
  testClock,
  usingPostgres,
  waitFor,
  type TestApp,
} from './helper';

/*
 * Issue 44 §2 and §5: OpenTelemetry traces. A tiny OTLP/HTTP receiver (JSON, as the exporter
 * sends it) stands in for the collector; the SDK is registered for this process (this file runs
 * in a worker of its own) as main.ts does, before the app is built.
 */

interface ExportedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
  status: { code?: number };
  resource: Record<string, unknown>;
}

type OtlpValue = {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
};
type OtlpAttribute = { key: string; value: OtlpValue };
interface OtlpRequest {
  resourceSpans?: {
    resource?: { attributes?: OtlpAttribute[] };
    scopeSpans?: {
      spans?: (Omit<ExportedSpan, 'attributes' | 'resource'> & { attributes?: OtlpAttribute[] })[];
    }[];
  }[];
}

const valueOf = (value: OtlpValue): unknown =>
  value.stringValue ??
  (value.intValue === undefined ? undefined : Number(value.intValue)) ??
  value.boolValue ??
  value.doubleValue;

const attributesOf = (list: OtlpAttribute[] = []) =>
  Object.fromEntries(list.map((a) => [a.key, valueOf(a.value)]));

const readBody = (request: IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => resolve(body));
    request.on('error', reject);
  });

/** The collector: OTLP/HTTP JSON on /v1/traces, every span kept flat. */
async function startCollector() {
  const spans: ExportedSpan[] = [];
  const server = createServer((request, response) => {
    void readBody(request).then((body) => {
      if (request.url === '/v1/traces') {
        const parsed = JSON.parse(body) as OtlpRequest;
        for (const rs of parsed.resourceSpans ?? []) {
          const resource = attributesOf(rs.resource?.attributes);
          for (const ss of rs.scopeSpans ?? []) {
            for (const span of ss.spans ?? []) {
              spans.push({
                ...span,
                parentSpanId: span.parentSpanId ?? '',
                attributes: attributesOf(span.attributes),
                resource,
              });
            }
          }
        }
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  const url = await listen(server);
  return { url, spans, close: () => closeServer(server) };
}

/** The HTTP SMS gateway (SMS_ADAPTER=http): records the `traceparent` of each message. */
async function startSmsGateway() {
  const traceparents: string[] = [];
  const server = createServer((request, response) => {
    void readBody(request).then(() => {
      traceparents.push(String(request.headers.traceparent ?? ''));
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  const url = await listen(server);
  return { url: `${url}/messages`, traceparents, close: () => closeServer(server) };
}

function listen(server: Server | TcpServer): Promise<string> {
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    });
  });
}

const closeServer = (server: Server | TcpServer) =>
  new Promise<void>((resolve) => server.close(() => resolve()));

/** The number as a value of its own, not digits inside another (log-privacy.test.ts). */
const PHONE = '214455';
const PHONE_AS_VALUE = new RegExp(`(?<![\\d.])${PHONE}(?!\\d)`);

describe('issue 44 §2: OpenTelemetry traces', () => {
  let collector: Awaited<ReturnType<typeof startCollector>>;
  let sms: Awaited<ReturnType<typeof startSmsGateway>>;
  let tracing: Tracing | undefined;
  let t: TestApp;
  const logs = new LogCapture();
  /** The spans of the sign-in code request made in beforeAll. */
  let server: ExportedSpan;
  let spans: ExportedSpan[];

  beforeAll(async () => {
    // Off until an endpoint is set: nothing registered, nothing loaded.
    expect(await startTracing()).toBeUndefined();
    expect(tracingActive()).toBe(false);

    collector = await startCollector();
    sms = await startSmsGateway();
    vi.stubEnv('OTEL_EXPORTER_OTLP_ENDPOINT', collector.url);
    vi.stubEnv('OTEL_SERVICE_NAME', 'alda-api-test');
    tracing = await startTracing();
    expect(tracingActive()).toBe(true);

    t = await createTestApp(
      {
        LOG_LEVEL: 'info',
        DEMO_MODE: 'true',
        SMS_ADAPTER: 'http',
        SMS_GATEWAY_URL: sms.url,
        SMS_GATEWAY_TOKEN: 'gateway-token',
      },
      { logStream: logs },
    );
    await seedDemoData(t.app.db);
    await t.app.ready();

    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/request-pin?source=tracing-test',
      headers: { 'x-request-id': 'trace-me-1' },
      payload: { phoneNumber: PHONE },
    });
    expect(res.statusCode).toBe(200);
    await tracing?.forceFlush();
    server = await waitFor(async () =>
      collector.spans.find((s) => s.name === 'POST /api/auth/request-pin'),
    );
    spans = collector.spans.filter((s) => s.traceId === server.traceId);
  });

  afterAll(async () => {
    await t?.close();
    await tracing?.shutdown();
    vi.unstubAllEnvs();
    await collector?.close();
    await sms?.close();
  });

  it('issue 44 §2: is off unless an OTLP endpoint is set (the standard switches respected)', () => {
    expect(tracingConfigured({})).toBe(false);
    expect(tracingConfigured({ OTEL_EXPORTER_OTLP_ENDPOINT: ' ' })).toBe(false);
    expect(tracingConfigured({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' })).toBe(true);
    expect(tracingConfigured({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://c:4318/t' })).toBe(true);
    expect(
      tracingConfigured({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318',
        OTEL_SDK_DISABLED: 'true',
      }),
    ).toBe(false);
    expect(
      tracingConfigured({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318',
        OTEL_TRACES_EXPORTER: 'none',
      }),
    ).toBe(false);
  });

  it('issue 44 §2: a server span per request, named by the route template, with its status', () => {
    expect(server.kind).toBe(2); // SERVER
    expect(server.parentSpanId).toBe('');
    expect(server.attributes).toEqual({
      'http.request.method': 'POST',
      'http.route': '/api/auth/request-pin',
      'url.scheme': 'http',
      // The path only: the query's values never reach an attribute.
      'url.path': '/api/auth/request-pin',
      'http.response.status_code': 200,
    });
    expect(server.resource).toMatchObject({
      'service.name': 'alda-api-test',
      'service.version': expect.any(String),
    });
  });

  it('issue 44 §2: the database queries of the request are its children, SQL without values', () => {
    const queries = spans.filter((s) => s.attributes['db.system.name'] === 'postgresql');
    expect(queries.length).toBeGreaterThan(0);
    for (const query of queries) {
      expect(query.parentSpanId).toBe(server.spanId);
      expect(query.kind).toBe(3); // CLIENT
      expect(query.attributes['db.query.text']).toEqual(expect.any(String));
      expect(query.attributes['db.operation.name']).toMatch(/^[A-Z]+$/);
    }
    // Parameters stay placeholders: the number looked up is in no query text.
    const texts = queries.map((q) => String(q.attributes['db.query.text']));
    expect(texts.some((text) => text.includes('$1'))).toBe(true);
    expect(texts.filter((text) => PHONE_AS_VALUE.test(text))).toEqual([]);
  });

  it('issue 44 §2: queries inside a transaction are children of the active span too', async () => {
    const outer = trace.getTracer('tracing-test');
    const traceId = await outer.startActiveSpan('outer', async (span) => {
      await t.app.db.transaction(async (tx) => {
        await tx.execute(sql`select count(*) from users where email = ${'nobody@alda.test'}`);
      });
      span.end();
      return span.spanContext().traceId;
    });
    await tracing?.forceFlush();
    const parent = await waitFor(async () =>
      collector.spans.find((s) => s.traceId === traceId && s.name === 'outer'),
    );
    const queries = collector.spans.filter((s) => s.parentSpanId === parent.spanId);
    const select = queries.find((q) => q.attributes['db.operation.name'] === 'SELECT');
    expect(select?.attributes).toMatchObject({
      'db.system.name': 'postgresql',
      'db.query.text': 'select count(*) from users where email = $1',
    });
    expect(select?.name).toBe('SELECT');
    // node-postgres sends BEGIN and COMMIT on the transaction's client (PGlite's are internal).
    if (usingPostgres) {
      expect(queries.map((q) => q.name)).toEqual(['BEGIN', 'SELECT', 'COMMIT']);
    } else {
      expect(queries.map((q) => q.name)).toEqual(['SELECT']);
    }
  });

  it('issue 44 §2: the SMS gateway call is a client span and carries the traceparent', () => {
    const call = spans.find((s) => s.kind === 3 && s.attributes['http.request.method'] === 'POST');
    expect(call).toBeDefined();
    expect(call?.parentSpanId).not.toBe('');
    expect(call?.attributes).toMatchObject({
      'url.full': sms.url,
      'http.response.status_code': 200,
    });
    expect(sms.traceparents).toHaveLength(1);
    const [, traceId, parentId] = (sms.traceparents[0] ?? '').split('-');
    expect(traceId).toBe(server.traceId);
    expect(parentId).toBe(call?.spanId);
  });

  it('issue 44 §2: no attribute of the trace holds the phone number', () => {
    for (const span of spans) {
      for (const [key, value] of Object.entries(span.attributes)) {
        expect(PHONE_AS_VALUE.test(String(value)), `${span.name} ${key}=${String(value)}`).toBe(
          false,
        );
      }
    }
  });

  it('issue 44 §2: every log line of the request carries its trace id, the completion line too', () => {
    const lines = logs.lines.filter((line) => line.reqId === 'trace-me-1');
    expect(lines.map((line) => line.msg)).toContain('request completed');
    for (const line of lines) {
      expect(line.trace_id).toBe(server.traceId);
      expect(line.span_id).toMatch(/^[0-9a-f]{16}$/);
    }
  });

  it('issue 44 §2: over a real socket too: body parsed, queries and log lines in the span', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const status = await new Promise<number>((resolve, reject) => {
      const body = JSON.stringify({ phoneNumber: '219999' });
      const request = httpRequest(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/api/auth/request-pin',
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
            'x-request-id': 'trace-me-2',
          },
        },
        (response) => {
          response.resume();
          response.on('end', () => resolve(response.statusCode ?? 0));
        },
      );
      request.on('error', reject);
      request.end(body);
    });
    // No such number: looked up in the database, answered 404.
    expect(status).toBe(404);
    await tracing?.forceFlush();
    const lines = logs.lines.filter((line) => line.reqId === 'trace-me-2');
    expect(lines.map((line) => line.msg)).toContain('request completed');
    const traceId = lines[0]?.trace_id;
    const span = await waitFor(async () =>
      collector.spans.find((s) => s.traceId === traceId && s.kind === 2),
    );
    expect(span).toMatchObject({ name: 'POST /api/auth/request-pin', parentSpanId: '' });
    expect(span.attributes['http.response.status_code']).toBe(404);
    for (const line of lines) expect(line.trace_id).toBe(span.traceId);
    const queries = collector.spans.filter((s) => s.parentSpanId === span.spanId);
    expect(queries.length).toBeGreaterThan(0);
    expect(queries.every((q) => q.attributes['db.system.name'] === 'postgresql')).toBe(true);
  });

  it('issue 44 §2: a caller’s traceparent makes the request part of the caller’s trace', async () => {
    const traceId = '0af7651916cd43dd8448eb211c80319c';
    const parentId = 'b7ad6b7169203331';
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/orders/7b0c3f0e-7a43-4f57-9d0e-3f3a4a3f2b11',
      headers: { traceparent: `00-${traceId}-${parentId}-01` },
    });
    expect(res.statusCode).toBe(401);
    await tracing?.forceFlush();
    const span = await waitFor(async () =>
      collector.spans.find((s) => s.traceId === traceId && s.kind === 2),
    );
    expect(span).toMatchObject({ name: 'GET /api/orders/:id', parentSpanId: parentId });
  });

  it('issue 44 §2: path parameters and unmatched paths: no value of a parameter in url.path', async () => {
    const id = '7b0c3f0e-7a43-4f57-9d0e-3f3a4a3f2b11';
    const matched = await t.app.inject({ method: 'GET', url: `/api/orders/${id}` });
    expect(matched.statusCode).toBe(401);
    const unmatched = await t.app.inject({ method: 'GET', url: '/api/no-such-thing?x=1' });
    expect(unmatched.statusCode).toBe(404);
    await tracing?.forceFlush();
    const order = await waitFor(async () =>
      collector.spans.find((s) => s.name === 'GET /api/orders/:id'),
    );
    expect(order.attributes).toMatchObject({
      'http.route': '/api/orders/:id',
      'url.path': '/api/orders/:id',
      'http.response.status_code': 401,
    });
    const notFound = await waitFor(async () =>
      collector.spans.find((s) => s.attributes['url.path'] === '/api/no-such-thing'),
    );
    expect(notFound.name).toBe('GET');
    expect(notFound.attributes['http.route']).toBeUndefined();
    expect(notFound.attributes['http.response.status_code']).toBe(404);

    // A TMF641 callback's secret segment under a path no route takes never leaves in a span.
    const secret = 'ab'.repeat(32);
    const callback = await t.app.inject({
      method: 'POST',
      url: `/tmf-api/listener/serviceOrdering/v4/${secret}/listener/serviceOrderMilestoneEvent`,
      payload: {},
    });
    expect(callback.statusCode).toBe(404);
    await tracing?.forceFlush();
    const masked = await waitFor(async () =>
      collector.spans.find((s) =>
        String(s.attributes['url.path'] ?? '').startsWith('/tmf-api/listener/serviceOrdering/v4/'),
      ),
    );
    expect(String(masked.attributes['url.path'])).toMatch(/\/v4\/\[secret [0-9a-f]{8}\]\/listener/);
    expect(JSON.stringify(collector.spans)).not.toContain(secret);
  });

  it('issue 44 §2: health probes make no spans, not even for the readiness query', async () => {
    const before = collector.spans.length;
    for (const url of ['/healthz', '/readyz']) {
      expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(200);
    }
    await tracing?.forceFlush();
    const after = collector.spans.slice(before);
    expect(after.filter((s) => s.kind === 2 || s.name === 'SELECT')).toEqual([]);
  });

  it('issue 44 §2: a job round is a span of its own with its queries as children', async () => {
    // The number-unlock job runs a round as soon as the app is ready (beforeAll).
    const round = await waitFor(async () => {
      await tracing?.forceFlush();
      return collector.spans.find((s) => s.name === 'job number_unlocks');
    });
    expect(round.parentSpanId).toBe('');
    expect(round.attributes).toEqual({ 'alda.job.name': 'number_unlocks' });
    const queries = collector.spans.filter((s) => s.parentSpanId === round.spanId);
    expect(queries.length).toBeGreaterThan(0);
    expect(queries.every((q) => q.attributes['db.system.name'] === 'postgresql')).toBe(true);
  });
});

describe('issue 44 §5: an OTLP endpoint that is down never slows or fails a request', () => {
  /** Generous: a request here takes milliseconds; an export waiting on the collector, a minute. */
  const FAST_MS = 5_000;

  const clock = testClock();

  /** Sign-in code requests an hour apart on the app's clock (no resend limit in the way), timed. */
  async function requests(t: TestApp, count: number) {
    const times: number[] = [];
    for (let i = 0; i < count; i += 1) {
      clock.advance(3600);
      const started = performance.now();
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/request-pin',
        remoteAddress: `10.44.5.${i + 1}`,
        payload: { phoneNumber: PHONE },
      });
      times.push(performance.now() - started);
      expect(res.statusCode).toBe(200);
    }
    return times;
  }

  afterAll(() => {
    vi.unstubAllEnvs();
  });

  it('issue 44 §5: a collector that refuses connections: requests answer, the spans are counted as dropped', async () => {
    // A port that was just free: nothing listens there.
    const probe = createTcpServer();
    const url = await listen(probe);
    await closeServer(probe);
    vi.stubEnv('OTEL_EXPORTER_OTLP_ENDPOINT', url);
    // The exporter gives up within this (retries included), so the flush below is quick.
    vi.stubEnv('OTEL_EXPORTER_OTLP_TIMEOUT', '300');
    const tracing = await startTracing();
    const t = await createTestApp({ DEMO_MODE: 'true' }, { now: clock.now });
    try {
      await seedDemoData(t.app.db, clock.now());
      const before = droppedSpans();
      const times = await requests(t, 3);
      expect(Math.max(...times)).toBeLessThan(FAST_MS);
      await tracing?.forceFlush();
      // Every span of the three requests (a server span and its queries each) was lost.
      expect(droppedSpans() - before).toBeGreaterThanOrEqual(3);
    } finally {
      await t.close();
      await tracing?.shutdown();
    }
  });

  it('issue 44 §5: a collector that accepts and never answers: requests answer, a full queue drops and counts', async () => {
    // Holds every export without answering, until told to refuse them (400: not retried).
    const held: ServerResponse[] = [];
    let answering = false;
    const silent = createServer((request, response) => {
      void readBody(request).then(() => {
        if (answering) response.writeHead(400).end();
        else held.push(response);
      });
    });
    const url = await listen(silent);
    vi.stubEnv('OTEL_EXPORTER_OTLP_ENDPOINT', url);
    // The export would wait a minute for an answer: requests must not notice.
    vi.stubEnv('OTEL_EXPORTER_OTLP_TIMEOUT', '60000');
    vi.stubEnv('OTEL_BSP_MAX_QUEUE_SIZE', '4');
    vi.stubEnv('OTEL_BSP_MAX_EXPORT_BATCH_SIZE', '2');
    const tracing = await startTracing();
    const t = await createTestApp({ DEMO_MODE: 'true' }, { now: clock.now });
    try {
      await seedDemoData(t.app.db, clock.now());
      const before = droppedSpans();
      const times = await requests(t, 3);
      expect(Math.max(...times)).toBeLessThan(FAST_MS);
      // The first batch waits on the collector; the queue (4) was full long before these
      // requests' spans had all ended: the rest were dropped, and counted, at once.
      await waitFor(async () => (held.length > 0 ? true : undefined));
      const queueFull = droppedSpans() - before;
      expect(queueFull).toBeGreaterThan(0);
      // The collector refuses what it held and what comes next: those spans are lost, counted.
      answering = true;
      for (const response of held.splice(0)) response.writeHead(400).end();
      await tracing?.forceFlush();
      expect(droppedSpans() - before).toBeGreaterThan(queueFull);
    } finally {
      answering = true;
      for (const response of held.splice(0)) response.writeHead(400).end();
      await t.close();
      await tracing?.shutdown();
      await closeServer(silent);
    }
  });
});
