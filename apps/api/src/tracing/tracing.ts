import {
  context,
  createContextKey,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Span,
  type Tracer,
} from '@opentelemetry/api';

/*
 * OpenTelemetry traces (issue 44 §2). The app only ever talks to `@opentelemetry/api`, which is a
 * no-op until an SDK registers itself. `startTracing` (main.ts, before the app is built; tests
 * call it themselves) loads the SDK with a dynamic import, and only when an OTLP endpoint is
 * configured: an installation without a collector loads nothing and installs no hook.
 */

/** The tracer of every span the app makes itself (HTTP server, database, job rounds). */
export const TRACER_NAME = 'alda-api';

let active = false;
let dropped = 0;
const droppedListeners = new Set<(count: number) => void>();

/** True once `startTracing` has registered an SDK (and until its `shutdown`). */
export function tracingActive(): boolean {
  return active;
}

/**
 * Spans that never reached the collector since the process started: exports that failed (down,
 * refused, timed out) and spans dropped because the export queue was full. Read by the metric
 * `alda_otel_spans_dropped_total`; 0 while tracing is off.
 */
export function droppedSpans(): number {
  return dropped;
}

/** Counts `count` spans as dropped (the SDK part calls this). */
export function recordDroppedSpans(count: number): void {
  if (count <= 0) return;
  dropped += count;
  for (const listener of droppedListeners) listener(count);
}

export function tracer(): Tracer {
  return trace.getTracer(TRACER_NAME);
}

/**
 * Tracing is on when an OTLP endpoint is set (`OTEL_EXPORTER_OTLP_ENDPOINT`, or the traces-only
 * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`), unless `OTEL_SDK_DISABLED=true` or
 * `OTEL_TRACES_EXPORTER=none` (the standard switches) say otherwise.
 */
export function tracingConfigured(env: Record<string, string | undefined>): boolean {
  const set = (name: string) => (env[name] ?? '').trim() !== '';
  if ((env.OTEL_SDK_DISABLED ?? '').trim().toLowerCase() === 'true') return false;
  if ((env.OTEL_TRACES_EXPORTER ?? '').trim().toLowerCase() === 'none') return false;
  return set('OTEL_EXPORTER_OTLP_ENDPOINT') || set('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT');
}

export interface Tracing {
  /** Exports what is queued now (tests; the dropped count is up to date afterwards). */
  forceFlush(): Promise<void>;
  /** Exports what is left and unregisters the SDK (at exit; tests start another one after). */
  shutdown(): Promise<void>;
}

export interface TracingOptions {
  /** Called with the number of spans each time some are dropped (see `droppedSpans`). */
  onSpansDropped?: (count: number) => void;
}

/**
 * Registers the OpenTelemetry SDK for this process when `tracingConfigured(process.env)`;
 * otherwise does nothing and resolves to undefined. Once per process (main.ts before
 * `buildApp`); the SDK reads the standard OTEL_* variables from the process environment itself.
 */
export async function startTracing(options: TracingOptions = {}): Promise<Tracing | undefined> {
  if (active || !tracingConfigured(process.env)) return undefined;
  // Loaded here and only here: its packages are imported dynamically in turn (sdk.ts), so the
  // bundle (npm packages external) does not load them at start when tracing is off.
  const { registerSdk } = await import('./sdk');
  const sdk = await registerSdk({ onDropped: recordDroppedSpans });
  const listener = options.onSpansDropped;
  if (listener) droppedListeners.add(listener);
  active = true;
  return {
    forceFlush: () => sdk.forceFlush(),
    async shutdown() {
      active = false;
      if (listener) droppedListeners.delete(listener);
      await sdk.shutdown();
    },
  };
}

const UNTRACED = createContextKey('alda-api untraced');

/**
 * Runs `fn` without query spans (db.ts): health probes polled every few seconds, and the
 * embedded database's migrations at start (hundreds of statements) would bury the traces worth
 * reading. On PostgreSQL the migrations run on a client of their own, which is not traced.
 */
export function untraced<T>(fn: () => T): T {
  if (!active) return fn();
  return context.with(context.active().setValue(UNTRACED, true), fn);
}

/** True inside `untraced`. */
export function isUntraced(): boolean {
  return context.active().getValue(UNTRACED) === true;
}

/**
 * `trace_id` and `span_id` of the active span, for pino's `mixin` (installed only while tracing).
 * A new object every time: pino merges the line's own fields into it.
 */
export function traceLogFields(): { trace_id?: string; span_id?: string } {
  const span = trace.getSpan(context.active());
  if (span === undefined) return {};
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}

/**
 * One job round (jobs/rounds.ts) as the root span of its own trace, "job <name>": the round's
 * queries and calls are its children, its log lines carry its trace id.
 */
export function traceRound<T>(job: string, run: () => Promise<T>): Promise<T> {
  if (!active) return run();
  return tracer().startActiveSpan(
    `job ${job}`,
    { kind: SpanKind.INTERNAL, attributes: { 'alda.job.name': job } },
    // A round is never part of whatever happened to be active when the timer was set.
    ROOT_CONTEXT,
    (span) => endWith(span, run),
  );
}

/**
 * A low-cardinality class of the error, never its message (a driver's message may quote data):
 * the SQLSTATE or Node error code when there is one (`23505`, `ECONNREFUSED`), else its name.
 */
export function errorType(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && /^[A-Z0-9_]{1,40}$/.test(code)) return code;
  return error instanceof Error ? error.name : 'Error';
}

/** Runs `run`, then ends `span`: with an ERROR status when it throws (no message: no data). */
export async function endWith<T>(span: Span, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    span.setStatus({ code: SpanStatusCode.ERROR });
    span.setAttribute('error.type', errorType(error));
    throw error;
  } finally {
    span.end();
  }
}
