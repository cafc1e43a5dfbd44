import {
  context,
  createNoopMeter,
  propagation,
  trace,
  type Counter,
  type Meter,
  type MeterProvider,
  type MetricOptions,
} from '@opentelemetry/api';
import type { ExportResult } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace';
import { APP_VERSION } from '@alda/contract/constants';
import { urlWithoutQueryValues } from '../log-privacy';

/*
 * The OpenTelemetry SDK, loaded only when tracing is configured (tracing.ts). Every package is
 * imported dynamically: the production bundle keeps npm packages external and would otherwise
 * hoist their imports to its top, loading them at every start.
 *
 * What it sets up, from the standard OTEL_* variables of the process environment:
 * - a tracer provider with the async-hooks context manager and the W3C trace-context propagator;
 *   the sampler from OTEL_TRACES_SAMPLER / OTEL_TRACES_SAMPLER_ARG (parent-based, always on by
 *   default), span limits from OTEL_SPAN_*;
 * - the resource: service.name "alda-api" unless OTEL_SERVICE_NAME (or OTEL_RESOURCE_ATTRIBUTES)
 *   says otherwise, service.version, host.name and a service.instance.id per process;
 * - OTLP over HTTP (JSON) to OTEL_EXPORTER_OTLP_TRACES_ENDPOINT or
 *   OTEL_EXPORTER_OTLP_ENDPOINT + /v1/traces, with OTEL_EXPORTER_OTLP_HEADERS, _TIMEOUT, …;
 * - a batch span processor with a bounded queue (OTEL_BSP_MAX_QUEUE_SIZE, _MAX_EXPORT_BATCH_SIZE,
 *   _SCHEDULE_DELAY, _EXPORT_TIMEOUT): exports run in the background, never on a request's path.
 *   A collector that is down or slow costs spans, not requests, and every span lost is counted;
 * - client spans and the `traceparent` header for every outgoing fetch (undici's diagnostics
 *   channels: no require hook involved).
 */

/** The SDK's self-observability counter of spans a processor finished (or dropped). */
const SPANS_PROCESSED = 'otel.sdk.processor.span.processed';

export interface Sdk {
  forceFlush(): Promise<void>;
  shutdown(): Promise<void>;
}

export async function registerSdk(options: { onDropped: (count: number) => void }): Promise<Sdk> {
  const [
    { NodeTracerProvider },
    { BatchSpanProcessor },
    { OTLPTraceExporter },
    resources,
    { ExportResultCode, getNumberFromEnv },
    { registerInstrumentations },
    { UndiciInstrumentation },
  ] = await Promise.all([
    import('@opentelemetry/sdk-trace-node'),
    import('@opentelemetry/sdk-trace'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/core'),
    import('@opentelemetry/instrumentation'),
    import('@opentelemetry/instrumentation-undici'),
  ]);

  const resource = resources
    .defaultResource()
    .merge(
      resources.resourceFromAttributes({
        'service.name': 'alda-api',
        'service.version': APP_VERSION,
      }),
    )
    // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES win over the defaults above.
    .merge(
      resources.detectResources({
        detectors: [
          resources.hostDetector,
          resources.serviceInstanceIdDetector,
          resources.envDetector,
        ],
      }),
    );

  /**
   * The OTLP exporter, counting the spans of every export that failed: the collector refused
   * them, did not answer within OTEL_EXPORTER_OTLP_TIMEOUT (retries included), or could not be
   * reached. Those spans are gone; the export is not tried again later.
   */
  const otlp = new OTLPTraceExporter();
  const exporter: SpanExporter = {
    export(spans: ReadableSpan[], done: (result: ExportResult) => void) {
      otlp.export(spans, (result) => {
        if (result.code !== ExportResultCode.SUCCESS) options.onDropped(spans.length);
        done(result);
      });
    },
    shutdown: () => otlp.shutdown(),
    forceFlush: () => otlp.forceFlush(),
  };

  const processor = new BatchSpanProcessor({
    exporter,
    // The OTEL_BSP_* variables, as the SDK's own environment fallbacks read them.
    maxQueueSize: getNumberFromEnv('OTEL_BSP_MAX_QUEUE_SIZE'),
    maxExportBatchSize: getNumberFromEnv('OTEL_BSP_MAX_EXPORT_BATCH_SIZE'),
    scheduledDelayMillis: getNumberFromEnv('OTEL_BSP_SCHEDULE_DELAY'),
    exportTimeoutMillis: getNumberFromEnv('OTEL_BSP_EXPORT_TIMEOUT'),
    // Spans dropped because the queue is full (the exporter is behind) are reported only
    // through the processor's self-observability counter; it is read for that alone.
    selfObsMeterProvider: queueFullObserver(options.onDropped),
  });

  const provider = new NodeTracerProvider({ resource, spanProcessors: [processor] });
  // The async-hooks context manager and the W3C trace-context (+ baggage) propagator.
  provider.register();

  const unregisterInstrumentations = registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      new UndiciInstrumentation({
        // url.full and url.query as the logs show URLs: query keys only, never their values
        // (log-privacy.ts); nor the user name or password a URL may carry.
        requestHook(span, request) {
          const url = safeUrl(request.origin, request.path);
          if (!url) return;
          url.username = '';
          url.password = '';
          const full = urlWithoutQueryValues(url.toString());
          span.setAttribute('url.full', full);
          const query = full.indexOf('?');
          span.setAttribute('url.query', query < 0 ? '' : full.slice(query + 1));
        },
      }),
    ],
  });

  return {
    // A failed export is counted (above), not thrown at whoever asked for the flush.
    forceFlush: () => provider.forceFlush().catch(() => {}),
    async shutdown() {
      unregisterInstrumentations();
      try {
        // The last export may fail like any other: counted, not thrown.
        await provider.shutdown().catch(() => {});
      } finally {
        // So that a test can register another SDK in the same process.
        trace.disable();
        context.disable();
        propagation.disable();
      }
    },
  };
}

function safeUrl(origin: string, path: string): URL | undefined {
  try {
    return new URL(path, origin);
  } catch {
    return undefined;
  }
}

/**
 * A meter provider for the batch processor's self-observability (an experimental option of the
 * pinned SDK): of its instruments only the "processed" counter is kept, and of its additions only
 * those with `error.type = queue_full`, the spans the processor dropped. Export failures are
 * counted by the exporter wrapper above (the processor reports those here too).
 */
function queueFullObserver(onDropped: (count: number) => void): MeterProvider {
  const noop = createNoopMeter();
  const processed: Counter = {
    add(value, attributes) {
      if (attributes?.['error.type'] === 'queue_full') onDropped(value);
    },
  };
  // Everything else the processor asks for stays a no-op instrument.
  const meter: Meter = Object.create(noop, {
    createCounter: {
      value: (name: string, metricOptions?: MetricOptions) =>
        name === SPANS_PROCESSED ? processed : noop.createCounter(name, metricOptions),
    },
  }) as Meter;
  return { getMeter: () => meter };
}
