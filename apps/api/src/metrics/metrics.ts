import {
  collectDefaultMetrics,
  Counter,
  Gauge,
  Histogram,
  Registry,
  type CollectFunction,
} from 'prom-client';
import { APP_VERSION } from '@alda/contract/constants';

/*
 * Prometheus metrics of one app instance (issue 44 §1, docs/decisions/0085-observability.md).
 * prom-client, one Registry per app (tests build many apps in one process, and none of them may
 * see another's counts). Names follow Prometheus conventions: units in the name, `_total` for
 * counters. No label ever carries personal data: routes are templates, jobs, states and policies
 * are our own fixed words — `metrics.test.ts` checks every label value of a real scrape.
 *
 * Counters and histograms are updated where things happen; what is a state (in-flight requests,
 * the pool, the hub, the fleet's payments and orders) is read when Prometheus scrapes, through
 * the `sources` the app plugs in, so nothing is kept up to date that nobody reads.
 */

/** The jobs that run in rounds (label `job_name`; `job` is Prometheus' scrape job). */
export const JOB_NAMES = [
  'provisioning',
  'payment_reconciliation',
  'month_end',
  'number_unlocks',
  'data_exports',
  'support',
  'push',
] as const;
export type JobName = (typeof JOB_NAMES)[number];

export type UsageFeed = 'json' | 'tmf635' | 'simulator';
export type LoginMethod = 'password' | 'phone_code' | 'staff' | 'passkey';

const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const ROUND_BUCKETS = [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300];
const WAIT_BUCKETS = [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5];
const LAG_BUCKETS = [1, 10, 60, 300, 900, 3600, 4 * 3600, 24 * 3600];

/** What the fleet's database says, read at scrape time (every instance reports the same). */
export interface FleetFacts {
  payments: Record<string, number>;
  paymentsOpenOldestAgeS: number;
  provisioning: Record<string, number>;
  provisioningOldestAgeS: number;
  provisioningOverdue: number;
}

/** States read at scrape time; each is optional so a part not built (a test) reports nothing. */
export interface MetricSources {
  pool?: () => { inUse: number; idle: number; waiting: number; max: number } | null;
  listenConnected?: () => boolean;
  hubConnections?: () => number;
  fleet?: () => Promise<FleetFacts>;
  /** Messages handed over or given up, as the adapters count them. */
  sms?: () => { sent: number; failed: number } | undefined;
  email?: () => { sent: number; refused: number; failed: number; retried: number } | undefined;
  /** Pushes by how the push service answered (ADR 0096). */
  push?: () => Record<'sent' | 'gone' | 'retried' | 'refused' | 'unknown' | 'failed', number>;
  spansDropped?: () => number;
}

export interface Metrics {
  readonly registry: Registry;
  /** The in-flight count the HTTP hooks keep (read by the gauge at scrape). */
  http: {
    started(): void;
    finished(route: string, method: string, statusCode: number, seconds: number): void;
    aborted(): void;
  };
  job: {
    interval(job: JobName, seconds: number): void;
    round(job: JobName, seconds: number, ok: boolean, at: Date): void;
  };
  poolWait(seconds: number): void;
  usage(feed: UsageFeed, counts: { booked: number; duplicate: number; refused: number }): void;
  usageLag(seconds: number): void;
  rateLimited(policy: string): void;
  loginFailed(method: LoginMethod): void;
  /** Plugs in what is read at scrape time (the app does it once its parts exist). */
  setSources(sources: MetricSources): void;
  /** The exposition text, as Prometheus scrapes it. */
  scrape(): Promise<{ contentType: string; body: string }>;
  /** Forgets every metric (the app is closing). */
  close(): void;
}

const STATUS_CLASSES = ['1xx', '2xx', '3xx', '4xx', '5xx'] as const;

export function createMetrics(options: { processMetrics: boolean }): Metrics {
  const registry = new Registry();
  let sources: MetricSources = {};
  let inFlight = 0;

  const gauge = (name: string, help: string, collect: CollectFunction<Gauge>, labels?: string[]) =>
    new Gauge({ name, help, registers: [registry], labelNames: labels ?? [], collect });

  new Gauge({
    name: 'alda_build_info',
    help: 'Always 1; the version of the running API in the label.',
    labelNames: ['version'],
    registers: [registry],
  }).set({ version: APP_VERSION }, 1);

  // HTTP
  const requestDuration = new Histogram({
    name: 'alda_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by route template, method and status class (probes and /metrics are not counted).',
    labelNames: ['route', 'method', 'status_class'],
    buckets: HTTP_BUCKETS,
    registers: [registry],
  });
  gauge('alda_http_requests_in_flight', 'HTTP requests being answered now.', function () {
    this.set(inFlight);
  });

  // Database
  gauge(
    'alda_db_pool_connections',
    'PostgreSQL connections of the pool, in use or idle.',
    function () {
      const pool = sources.pool?.();
      if (!pool) return;
      this.set({ state: 'in_use' }, pool.inUse);
      this.set({ state: 'idle' }, pool.idle);
    },
    ['state'],
  );
  gauge('alda_db_pool_max_connections', 'Size limit of the PostgreSQL pool.', function () {
    const pool = sources.pool?.();
    if (pool) this.set(pool.max);
  });
  gauge(
    'alda_db_pool_waiting_requests',
    'Queries waiting for a free connection of the pool.',
    function () {
      const pool = sources.pool?.();
      if (pool) this.set(pool.waiting);
    },
  );
  const poolWait = new Histogram({
    name: 'alda_db_pool_wait_seconds',
    help: 'Time to get a connection from the PostgreSQL pool.',
    buckets: WAIT_BUCKETS,
    registers: [registry],
  });
  gauge(
    'alda_db_listen_connected',
    '1 while the LISTEN connection (instance memory, hub fan-out) is up, 0 while it is lost.',
    function () {
      this.set(sources.listenConnected?.() === false ? 0 : 1);
    },
  );

  // Payment hub
  gauge(
    'alda_payment_hub_connections',
    'Open payment hub connections on this instance.',
    function () {
      this.set(sources.hubConnections?.() ?? 0);
    },
  );

  // Jobs
  const jobLastSuccess = new Gauge({
    name: 'alda_job_last_success_timestamp_seconds',
    help: 'When a round of the job last succeeded (Unix time); 0 before the first.',
    labelNames: ['job_name'],
    registers: [registry],
  });
  const jobInterval = new Gauge({
    name: 'alda_job_interval_seconds',
    help: 'Configured time between rounds of the job.',
    labelNames: ['job_name'],
    registers: [registry],
  });
  const jobDuration = new Histogram({
    name: 'alda_job_round_duration_seconds',
    help: 'Time a round of the job took.',
    labelNames: ['job_name'],
    buckets: ROUND_BUCKETS,
    registers: [registry],
  });
  const jobFailures = new Counter({
    name: 'alda_job_round_failures_total',
    help: 'Rounds of the job that failed.',
    labelNames: ['job_name'],
    registers: [registry],
  });

  // Fleet facts from the database: one query set per scrape, shared by the gauges below.
  let fleetRead: Promise<FleetFacts | null> | null = null;
  const fleet = (): Promise<FleetFacts | null> => {
    if (!sources.fleet) return Promise.resolve(null);
    fleetRead ??= sources.fleet().catch(() => null);
    return fleetRead;
  };
  const fleetGauge = (
    name: string,
    help: string,
    read: (facts: FleetFacts, g: Gauge) => void,
    labels?: string[],
  ) =>
    gauge(
      name,
      help,
      async function () {
        const facts = await fleet();
        if (facts) read(facts, this);
      },
      labels,
    );
  fleetGauge(
    'alda_payments',
    'Payments by state (the whole fleet, from the database).',
    (facts, g) => {
      g.reset();
      for (const [state, count] of Object.entries(facts.payments)) g.set({ state }, count);
    },
    ['state'],
  );
  fleetGauge(
    'alda_payments_open_oldest_age_seconds',
    'Age of the oldest card or MobilePay payment still created or pending (a customer waits on it); 0 when there is none. Agreement charges wait for their due date and are left out.',
    (facts, g) => g.set(facts.paymentsOpenOldestAgeS),
  );
  fleetGauge(
    'alda_provisioning_orders',
    'Open provisioning orders by what they wait for (the whole fleet).',
    (facts, g) => {
      g.reset();
      for (const [waitingFor, count] of Object.entries(facts.provisioning))
        g.set({ waiting_for: waitingFor }, count);
    },
    ['waiting_for'],
  );
  fleetGauge(
    'alda_provisioning_oldest_waiting_age_seconds',
    'Age of the oldest open provisioning order; 0 when there is none.',
    (facts, g) => g.set(facts.provisioningOldestAgeS),
  );
  fleetGauge(
    'alda_provisioning_orders_overdue',
    'Open provisioning orders whose next step was due more than 5 minutes ago.',
    (facts, g) => g.set(facts.provisioningOverdue),
  );

  // Messages: the adapters keep their own counts; the counters take them over at scrape.
  const counterFrom = (
    name: string,
    help: string,
    read: () => Record<string, number> | undefined,
    label: string | null,
    keys: readonly string[] = [],
  ) => {
    const seen: Record<string, number> = {};
    const counter = new Counter({
      name,
      help,
      labelNames: label ? [label] : [],
      registers: [registry],
      collect() {
        const now = read();
        if (!now) return;
        for (const [key, value] of Object.entries(now)) {
          const delta = value - (seen[key] ?? 0);
          if (delta > 0) {
            if (label) this.inc({ [label]: key }, delta);
            else this.inc(delta);
          }
          seen[key] = value;
        }
      },
    });
    // Every outcome is there from the start, at 0, so a rate over it exists before the first.
    if (label) for (const key of keys) counter.inc({ [label]: key }, 0);
    else counter.inc(0);
    return counter;
  };
  counterFrom(
    'alda_sms_messages_total',
    'SMS handed over to the SMS gateway or SMSC (sent) or given up (failed).',
    () => sources.sms?.(),
    'result',
    ['sent', 'failed'],
  );
  counterFrom(
    'alda_email_messages_total',
    'E-mails accepted by the mail server or outbox (sent), refused for good (refused), or given up after retries (failed).',
    () => {
      const s = sources.email?.();
      return s && { sent: s.sent, refused: s.refused, failed: s.failed };
    },
    'result',
    ['sent', 'refused', 'failed'],
  );
  counterFrom(
    'alda_push_messages_total',
    'Pushes to devices by outcome: accepted by the push service (sent), address gone and removed (gone), tried again later (retried), refused for good (refused), answer lost and never resent (unknown), given up (failed).',
    () => sources.push?.(),
    'result',
    ['sent', 'gone', 'retried', 'refused', 'unknown', 'failed'],
  );
  counterFrom(
    'alda_email_retries_total',
    'E-mail attempts the mail server deferred (4xx) and that were tried again.',
    () => {
      const s = sources.email?.();
      return s && { retried: s.retried };
    },
    null,
  );
  counterFrom(
    'alda_otel_spans_dropped_total',
    'Trace spans that could not be exported (collector down or too slow, queue full).',
    () => {
      const dropped = sources.spansDropped?.();
      return dropped === undefined ? undefined : { dropped };
    },
    null,
  );

  // Usage feed
  const usageRecords = new Counter({
    name: 'alda_usage_records_total',
    help: 'Usage records by feed and outcome: booked now, received before (duplicate), or refused.',
    labelNames: ['feed', 'result'],
    registers: [registry],
  });
  const usageLag = new Histogram({
    name: 'alda_usage_feed_lag_seconds',
    help: 'Time from a booked usage record’s own time to its booking.',
    buckets: LAG_BUCKETS,
    registers: [registry],
  });

  // Security
  const rateLimited = new Counter({
    name: 'alda_rate_limit_refusals_total',
    help: 'Requests refused by a rate limit, by policy.',
    labelNames: ['policy'],
    registers: [registry],
  });
  const loginFailures = new Counter({
    name: 'alda_login_failures_total',
    help: 'Failed sign-ins (wrong password, wrong or expired code, a passkey not ours or copied), by method.',
    labelNames: ['method'],
    registers: [registry],
  });

  for (const method of ['password', 'phone_code', 'staff', 'passkey'] as const)
    loginFailures.inc({ method }, 0);
  for (const feed of ['json', 'tmf635', 'simulator'] as const)
    for (const result of ['booked', 'duplicate', 'refused'] as const)
      usageRecords.inc({ feed, result }, 0);

  // Process metrics (CPU, memory, event loop lag, GC) only where someone scrapes: prom-client
  // starts an event-loop-delay monitor and GC observers for them.
  if (options.processMetrics) {
    collectDefaultMetrics({ register: registry });
    // Gauges that prom-client names like counters (`promtool check metrics` refuses them); the
    // same counts are there without the suffix (nodejs_active_handles, …, by type).
    for (const name of [
      'nodejs_active_handles_total',
      'nodejs_active_requests_total',
      'nodejs_active_resources_total',
    ])
      registry.removeSingleMetric(name);
  }

  // The histogram's children by route/method/class, so a request does not build label objects.
  const children = new Map<string, Histogram.Internal<string>>();

  return {
    registry,
    http: {
      started() {
        inFlight += 1;
      },
      finished(route, method, statusCode, seconds) {
        inFlight -= 1;
        const statusClass = STATUS_CLASSES[Math.floor(statusCode / 100) - 1] ?? '5xx';
        const key = `${method} ${statusClass} ${route}`;
        let child = children.get(key);
        if (!child) {
          child = requestDuration.labels({ route, method, status_class: statusClass });
          children.set(key, child);
        }
        child.observe(seconds);
      },
      aborted() {
        inFlight -= 1;
      },
    },
    job: {
      interval(job, seconds) {
        jobInterval.set({ job_name: job }, seconds);
        jobLastSuccess.set({ job_name: job }, 0);
        jobFailures.inc({ job_name: job }, 0);
      },
      round(job, seconds, ok, at) {
        jobDuration.observe({ job_name: job }, seconds);
        if (ok) jobLastSuccess.set({ job_name: job }, at.getTime() / 1000);
        else jobFailures.inc({ job_name: job });
      },
    },
    poolWait(seconds) {
      poolWait.observe(seconds);
    },
    usage(feed, counts) {
      for (const result of ['booked', 'duplicate', 'refused'] as const) {
        if (counts[result] > 0) usageRecords.inc({ feed, result }, counts[result]);
      }
    },
    usageLag(seconds) {
      usageLag.observe(Math.max(0, seconds));
    },
    rateLimited(policy) {
      rateLimited.inc({ policy });
    },
    loginFailed(method) {
      loginFailures.inc({ method });
    },
    setSources(next) {
      sources = { ...sources, ...next };
    },
    async scrape() {
      fleetRead = null;
      try {
        return { contentType: registry.contentType, body: await registry.metrics() };
      } finally {
        fleetRead = null;
      }
    },
    close() {
      registry.clear();
    },
  };
}
