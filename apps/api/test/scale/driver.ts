import { HUB_RECONNECT_DELAYS_MS } from '@alda/contract/constants';
import { freePort, postgresDatabases, startApi, type ApiProcess } from '../support/api-process';
import { startHaproxy, type Haproxy } from '../support/haproxy';
import { checkDatabase, snapshotBalances, waitForQuiet, type DatabaseVerdict } from './database';
import { clock, Recorder, type RequestRecord } from './load';
import { startPrometheus, type Prometheus, type PromSample } from './prometheus';
import { figuresOf, renderTable, type PaymentFigures, type PhaseFigures } from './report';
import { Scenario, type Purchase, type ScenarioOptions, type Witnesses } from './scenario';

/*
 * The scale test of issue 44 §4: three API processes (the production entry point, `startApi`)
 * on one fresh PostgreSQL database behind Debian's HAProxy with the shipped
 * deploy/haproxy/alda.cfg, scraped by a real Prometheus, under a bounded mixed load of virtual
 * customers (scenario.ts). Phases:
 *
 *   warm-up, steady   the load alone;
 *   kill -9           one instance (the one holding the most hub clients) is SIGKILLed mid-load,
 *                     the load goes on, the instance is started again and waited for (UP);
 *   rolling restart   SIGTERM to each instance in turn (it drains: /readyz 503, still serving),
 *                     started again and UP before the next.
 *
 * Promises checked (a broken one fails the run, with the evidence):
 *   - Only the kill costs requests, and no more than were in flight on the killed instance (how
 *     that is counted: "The bound", below); the rolling restart costs none.
 *   - Every payment the test started is fulfilled exactly once (database.ts), nothing is left
 *     stuck, and every customer learns the outcome on the hub — those whose hub connection was
 *     on the killed instance after reconnecting.
 *   - Prometheus sees all three instances serving, and `up` shows the killed one down and back.
 *
 * `runScaleTest` is used by scripts/scale-test.sh (through run.ts) and, in short mode, by
 * test/scale.test.ts in CI's PostgreSQL pass.
 */

export type ScaleMode = 'short' | 'full';

interface ModeSettings {
  scenario: Omit<ScenarioOptions, 'base'>;
  warmUpMs: number;
  steadyMs: number;
  /** Customers placed on the payment screen before the kill (their payments wait for it). */
  witnesses: number;
  /** Load with one instance dead, before it is started again. */
  killHoldMs: number;
  /** Load after the killed instance is back, before the rolling restart. */
  afterRestartMs: number;
  /** Load between two instances of the rolling restart. */
  rollingGapMs: number;
  /** Customers placed on the payment screen before each SIGTERM (more if none is on it). */
  rollingWitnesses: number;
}

/** HAProxy's health check in the test: every 250 ms, 2 failures DOWN, 2 successes UP. */
const CHECK = { interMs: 250, fall: 2, rise: 2 };
/**
 * SIGTERM drain: longer than fall × inter plus a check's own time (deploy/haproxy/alda.cfg), so
 * HAProxy has marked the instance DOWN before it stops accepting.
 */
const DRAIN_MS = 6 * CHECK.fall * CHECK.interMs;

/**
 * Half the witnesses' hub clients wait this long before reconnecting (a phone whose network came
 * back late): long enough for their payment to settle meanwhile (it is paid right after the kill).
 */
const LATE_RECONNECT_MS = 2_000;

export const MODES: Record<ScaleMode, ModeSettings> = {
  // Under 2 minutes on a shared 2-core machine, start-up and checks included (CI).
  short: {
    scenario: {
      customers: 10,
      pollIntervalMs: 1_000,
      signInEveryMs: 12_000,
      purchaseEveryMs: 5_000,
      payDelayMs: [300, 1_500],
      rampMs: 2_000,
      outcomeTimeoutMs: 30_000,
      reconnectDelaysMs: HUB_RECONNECT_DELAYS_MS,
    },
    warmUpMs: 3_000,
    steadyMs: 6_000,
    witnesses: 6,
    killHoldMs: 4_000,
    afterRestartMs: 2_000,
    rollingGapMs: 500,
    rollingWitnesses: 3,
  },
  // A few minutes: more customers, longer phases, the same promises.
  full: {
    scenario: {
      customers: 40,
      pollIntervalMs: 1_500,
      signInEveryMs: 30_000,
      purchaseEveryMs: 10_000,
      payDelayMs: [500, 3_000],
      rampMs: 10_000,
      outcomeTimeoutMs: 60_000,
      reconnectDelaysMs: HUB_RECONNECT_DELAYS_MS,
    },
    warmUpMs: 15_000,
    steadyMs: 45_000,
    witnesses: 12,
    killHoldMs: 20_000,
    afterRestartMs: 15_000,
    rollingGapMs: 10_000,
    rollingWitnesses: 6,
  },
};

export interface ScaleOptions {
  mode: ScaleMode;
  /** The PostgreSQL server (a database of its own is created on it and dropped at the end). */
  serverUrl: string;
  /** Progress lines (the script prints them; the CI test keeps them for a failure). */
  log?: (line: string) => void;
}

export interface KillFigures {
  server: string;
  /** Hub clients on each instance just before the kill (client side, by X-Alda-Server). */
  hubClientsBefore: Record<string, number>;
  /** alda_payment_hub_connections of the killed instance just before the kill. */
  hubConnectionsMetric: number | undefined;
  /** alda_http_requests_in_flight of the killed instance just before the kill. */
  inFlightMetric: number | undefined;
  /** HAProxy's current sessions on the killed instance just before the kill (tunnels included). */
  haproxySessions: number;
  /** Of those, the hub clients' WebSocket tunnels. */
  hubTunnels: number;
  /** Requests the clients had in flight at the kill, on any instance. */
  clientInFlight: number;
  /** Requests started between the stats read and the process being gone. */
  startedInGap: number;
  /** The bound: requests that can have been in flight on the killed instance. */
  bound: number;
  /** Failed requests, all in flight at the kill. */
  failed: number;
  /** Each failed request: phase, route, error, start relative to the SIGKILL. */
  failures: string[];
  /** ms from the SIGKILL to the process being gone (its exit seen). */
  goneMs: number;
  /** Hub clients on the killed instance / of those reconnected / learned their outcome. */
  hubOnKilled: number;
  hubReconnected: number;
  hubLearned: number;
  /** ms from the kill to HAProxy marking it DOWN, Prometheus `up` 0, and back UP after the restart. */
  haproxyDownMs: number;
  prometheusDownMs: number;
  restartedMs: number;
}

export interface RollingFigures {
  /** Per instance: ms from SIGTERM to HAProxy DOWN, to exit, to UP again; the exit code. */
  steps: {
    server: string;
    downMs: number;
    exitMs: number;
    upMs: number;
    exitCode: number | null;
  }[];
  failed: number;
  /** Hub clients on an instance when it got SIGTERM / of those reconnected / learned the outcome. */
  hubOnStopped: number;
  /** Of those, cut off when it closed (the others heard their outcome during the drain). */
  hubLost: number;
  hubReconnected: number;
  hubLearned: number;
}

export interface ScaleResult {
  ok: boolean;
  /** The broken promises, each with its evidence. */
  broken: string[];
  mode: ScaleMode;
  phases: PhaseFigures[];
  payments: PaymentFigures;
  table: string;
  kill: KillFigures;
  rolling: RollingFigures;
  database: DatabaseVerdict;
  prometheus: { rate: string; upDuringKill: string; upVictim: string };
  /**
   * HAProxy's counters per server at the end: connection retries, redispatches to another
   * server, answers with 5xx, connection errors and response errors.
   */
  haproxy: Record<string, Record<string, number>>;
  /**
   * What customers met on the way that is no broken promise by itself: a ListenToOrder cut off
   * by its instance going away (the client listens again after reconnecting), a purchase or card
   * page sent again after a failed request.
   */
  notes: string[];
  durationMs: number;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A purchase is bounded by its own timeouts (requests 30 s, the hub's reconnects, the outcome);
 * this bound on waiting for them turns a hang the run did not foresee into a failure naming it.
 */
const WITNESS_BOUND_MS = 180_000;

async function bounded<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)),
          ms,
        );
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** The value of an unlabelled metric in Prometheus text format. */
function metricValue(text: string, name: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${name} `) || l.startsWith(`${name}{}`));
  return line === undefined ? undefined : Number(line.split(' ').pop());
}

async function scrape(metricsPort: number): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${metricsPort}/metrics`, {
    signal: AbortSignal.timeout(2_000),
  });
  return res.text();
}

const countBy = <T>(items: readonly T[], key: (item: T) => string | undefined) => {
  const counts: Record<string, number> = {};
  for (const item of items) {
    const k = key(item);
    if (k !== undefined) counts[k] = (counts[k] ?? 0) + 1;
  }
  return counts;
};

const sampleValue = (samples: PromSample[], instance: string) =>
  samples.find((s) => s.metric.instance === instance)?.value?.[1];

export async function runScaleTest(options: ScaleOptions): Promise<ScaleResult> {
  const began = clock();
  const log = options.log ?? (() => {});
  const settings = MODES[options.mode];
  const broken: string[] = [];
  const expect = (holds: boolean, promise: string) => {
    if (!holds) broken.push(promise);
    return holds;
  };

  const databases = postgresDatabases(options.serverUrl);
  const instances: ApiProcess[] = [];
  let haproxy: Haproxy | undefined;
  let prometheus: Prometheus | undefined;
  let scenario: Scenario | undefined;
  const cleanup = async () => {
    await prometheus?.close().catch(() => {});
    await haproxy?.close().catch(() => {});
    await Promise.all(instances.map((instance) => instance.kill().catch(() => {})));
    await databases.dropAll().catch(() => {});
  };
  interrupt = cleanup;
  try {
    // ---- The fleet ----------------------------------------------------------------------
    const database = await databases.create();
    const haproxyPort = await freePort();
    const ports = [await freePort(), await freePort(), await freePort()];
    const metricsPorts = [await freePort(), await freePort(), await freePort()];
    const base = `http://127.0.0.1:${haproxyPort}`;
    const env = (i: number): Record<string, string> => ({
      // Links, card pages and the test provider's webhooks name the balancer, as in production.
      APP_URL: base,
      TRUST_PROXY: '127.0.0.1',
      METRICS_PORT: String(metricsPorts[i]),
      METRICS_HOST: '127.0.0.1',
      SHUTDOWN_DRAIN_MS: String(DRAIN_MS),
      // The production default (startApi turns it off): every customer has an address of its own.
      RATE_LIMIT_MAX: '600',
      // Jobs quick, so what a dead instance held is taken over within the run.
      PROVISIONING_POLL_MS: '500',
      PAYMENT_RECONCILE_INTERVAL_S: '2',
      PAYMENT_RECONCILE_AFTER_S: '5',
      // Month end would move the balances the test checks.
      MONTH_END_INTERVAL_S: '0',
      LOG_LEVEL: 'warn',
    });
    log(`database ${database.name}; starting 3 API instances`);
    const startedAt = clock();
    // All three at once on the empty database, as a fleet starts (migrations take a lock).
    instances.push(
      ...(await Promise.all(
        ports.map((port, i) =>
          startApi({ databaseUrl: database.url, port, env: env(i), readyTimeoutMs: 120_000 }),
        ),
      )),
    );
    log(`instances ready in ${Math.round(clock() - startedAt)} ms`);
    haproxy = await startHaproxy({
      backends: ports.map((port) => `127.0.0.1:${port}`),
      port: haproxyPort,
      env: {
        ALDA_CHECK_INTER: `${CHECK.interMs}ms`,
        ALDA_CHECK_FALL: String(CHECK.fall),
        ALDA_CHECK_RISE: String(CHECK.rise),
      },
    });
    const names = haproxy.servers;
    const targets = metricsPorts.map((port) => `127.0.0.1:${port}`);
    prometheus = await startPrometheus(await freePort(), targets);
    await prometheus.waitUntil('up{job="alda"} == 1', (samples) => samples.length === 3, 20_000);
    log(`haproxy on ${base}, prometheus on ${prometheus.url}, all targets up`);
    const balancesBefore = await snapshotBalances(database.url);

    // ---- Load -------------------------------------------------------------------------------
    const recorder = new Recorder();
    const testStart = new Date();
    scenario = new Scenario(recorder, { base, ...settings.scenario });
    recorder.phase = 'warm-up';
    scenario.start();
    await pause(settings.warmUpMs);
    recorder.phase = 'steady';
    await pause(settings.steadyMs);

    // Prometheus: the request rate of each instance, as an operator would ask it.
    const rate = await prometheus.instant(
      'sum by (instance) (rate(alda_http_request_duration_seconds_count[15s]))',
    );
    log(`request rate per instance:\n${rate.text}`);
    expect(
      targets.every((target) => Number(sampleValue(rate.samples, target) ?? 0) > 0),
      `Prometheus: the request rate of every instance is above 0 (promtool answered:\n${rate.text})`,
    );

    // ---- kill -9 ----------------------------------------------------------------------------
    // Customers on the payment screen, listening on the hub; they pay once the instance is dead.
    const witnesses = await scenario.witnesses(settings.witnesses, LATE_RECONNECT_MS);
    /** Hub clients waiting on a payment now (connected, outcome not heard yet). */
    const live = () =>
      scenario!.purchases.filter(
        (p) => p.watch?.state === 'Connected' && p.watch.server && !p.watch.settled,
      );
    const byServer = countBy(live(), (p) => p.watch?.server);
    const victimName =
      [...names].sort((a, b) => (byServer[b] ?? 0) - (byServer[a] ?? 0))[0] ?? 'api1';
    const v = names.indexOf(victimName);
    const victim = instances[v] as ApiProcess;
    const victimTarget = targets[v] as string;
    recorder.phase = `kill -9 ${victimName}`;
    const killPhase = recorder.phase;

    // Just before the kill: what the instance itself counts (for the record), then what HAProxy
    // has in flight on it, read as close to the SIGKILL as a request allows. Requests take a few
    // ms, so at a random instant an instance mostly has none in flight: the kill waits (a bounded
    // number of reads) for an instant when HAProxy has a request on it besides the hub tunnels,
    // so that the kill is mid-request.
    const victimMetrics = await scrape(metricsPorts[v] as number).catch(() => '');
    /** Hub WebSockets on the victim (tunnels in HAProxy's count, not requests). */
    const tunnelsOnVictim = () =>
      scenario!.purchases.filter(
        (p) => p.watch?.state === 'Connected' && p.watch.server === victimName,
      ).length;
    let tStats = clock();
    let stats = await haproxy.serverStats();
    let reads = 1;
    for (; reads < 500; reads += 1) {
      const midRequest =
        Number(stats[victimName]?.scur ?? 0) > tunnelsOnVictim() &&
        recorder.inFlight().some((r) => r.step !== 'hub');
      if (midRequest) break;
      tStats = clock();
      stats = await haproxy.serverStats();
    }
    const tunnels = tunnelsOnVictim();
    const hubClientsBefore = countBy(live(), (p) => p.watch?.server);
    const onVictim = live().filter((p) => p.watch?.server === victimName);
    const clientInFlight = recorder.inFlight().length;
    const tKillSent = clock();
    await victim.kill();
    const tExited = clock();
    // They pay now, while their hub clients on the dead instance are reconnecting.
    witnesses.release();
    log(
      `killed ${victimName} (pid ${victim.pid}) after ${reads} reads of HAProxy's stats, holding ${onVictim.length} hub clients; ${clientInFlight} requests in flight (all instances); gone ${Math.round(tExited - tKillSent)} ms after the SIGKILL`,
    );
    await haproxy.waitFor(victimName, 'DOWN', 10_000);
    const haproxyDownMs = clock() - tKillSent;
    await prometheus.waitUntil(
      `up{job="alda",instance="${victimTarget}"}`,
      (samples) => samples[0]?.value?.[1] === '0',
      15_000,
    );
    const prometheusDownMs = clock() - tKillSent;
    await pause(settings.killHoldMs);
    const restarted = await victim.restart();
    instances[v] = restarted;
    await haproxy.waitFor(victimName, 'UP', 15_000);
    const restartedMs = clock() - tKillSent;
    await prometheus.waitUntil(
      `up{job="alda",instance="${victimTarget}"}`,
      (samples) => samples[0]?.value?.[1] === '1',
      15_000,
    );
    const tBack = clock();
    log(`${victimName} back UP ${Math.round(restartedMs)} ms after the kill`);
    await bounded(witnesses.done, WITNESS_BOUND_MS, 'the kill witnesses to finish');
    await pause(settings.afterRestartMs);

    // ---- rolling restart ----------------------------------------------------------------------
    recorder.phase = 'rolling restart';
    const rollingPhase = recorder.phase;
    const steps: RollingFigures['steps'] = [];
    /** Hub clients on each stopped instance when it got SIGTERM, and when that was. */
    const onStopped: { server: string; at: number; purchases: Purchase[] }[] = [];
    for (const [i, name] of names.entries()) {
      const instance = instances[i] as ApiProcess;
      // Customers waiting on a payment with their hub connection on this instance: they pay
      // after it is gone, so they learn the outcome only by reconnecting elsewhere.
      // Where a WebSocket lands is the balancer's round robin over all traffic: more customers
      // come until one is on this instance (each batch misses it with chance (2/3)^n).
      const batches: Witnesses[] = [];
      for (let tries = 0; tries < 10; tries += 1) {
        batches.push(await scenario.witnesses(settings.rollingWitnesses, LATE_RECONNECT_MS));
        if (batches.some((batch) => batch.purchases.some((p) => p.watch?.server === name))) break;
      }
      const t0 = clock();
      onStopped.push({
        server: name,
        at: t0,
        purchases: live().filter((p) => p.watch?.server === name),
      });
      const stopped = instance.stop();
      await haproxy.waitFor(name, 'DOWN', DRAIN_MS + 5_000);
      const downMs = clock() - t0;
      const exitCode = await stopped;
      const exitMs = clock() - t0;
      for (const batch of batches) batch.release();
      instances[i] = await instance.restart();
      await haproxy.waitFor(name, 'UP', 15_000);
      const upMs = clock() - t0;
      steps.push({ server: name, downMs, exitMs, upMs, exitCode });
      log(
        `rolling: ${name} DOWN after ${Math.round(downMs)} ms, exited (${exitCode}) after ${Math.round(exitMs)} ms, UP after ${Math.round(upMs)} ms; ${onStopped.at(-1)?.purchases.length ?? 0} hub clients were on it`,
      );
      await bounded(
        Promise.all(batches.map((batch) => batch.done)),
        WITNESS_BOUND_MS,
        `the witnesses of ${name}'s restart to finish`,
      );
      await pause(settings.rollingGapMs);
    }

    // ---- the end of the load ----------------------------------------------------------------
    recorder.phase = 'cool-down';
    await bounded(scenario.stop(), WITNESS_BOUND_MS, 'the customers to stop');
    log(
      `load stopped: ${recorder.records.length} requests, ${scenario.purchases.length} purchases`,
    );

    // ---- Prometheus: `up` of the killed instance over the kill ------------------------------
    const upDuringKill = await prometheus.range(
      'up{job="alda"}',
      tKillSent - 3_000,
      tBack + 2_000,
      '1s',
    );
    const victimSeries = upDuringKill.samples.find((s) => s.metric.instance === victimTarget);
    const victimValues = (victimSeries?.values ?? []).map(([, value]) => value);
    const upVictim = victimValues.join('');
    // Up before, down during, up after (a single scrape lost to a busy machine, on any instance,
    // is no broken promise: the alerts wait minutes before they call an instance down).
    expect(
      /^1.*0.*1$/.test(upVictim),
      `Prometheus: up{instance="${victimTarget}"} (the killed ${victimName}) shows it up, then down, then up again over the kill (per second: ${upVictim || 'no samples'})`,
    );

    // ---- The kill's cost: failed requests within the bound -------------------------------------
    const records = recorder.records;
    const failures = records.filter((r) => r.failed);
    const inFlightAtKill = (r: RequestRecord) => r.start <= tExited && r.end >= tKillSent;
    const killFailures = failures.filter(inFlightAtKill);
    const otherFailures = failures.filter((r) => !inFlightAtKill(r));
    /*
     * The bound. A failed request has no answer, so the client cannot tell where it was; the
     * balancer can. HAProxy's current sessions on the instance (`scur`, read just before the
     * SIGKILL) count what it had in flight there, including the hub's WebSocket tunnels, which
     * are not requests: those the clients held on it are taken off. A request that started
     * between that read and the process being gone may have gone there too: added. Every
     * failure must also have been in flight at the kill (started before the process was gone,
     * ended after the SIGKILL): a request that started later and failed is a broken promise
     * whatever the count.
     */
    const haproxySessions = Number(stats[victimName]?.scur ?? 0);
    const startedInGap = records.filter((r) => r.start >= tStats && r.start <= tExited).length;
    const bound = Math.max(0, haproxySessions - tunnels) + startedInGap;
    const describe = (r: RequestRecord) =>
      `${r.phase} ${r.route} ${r.error ?? `HTTP ${r.status}`} (started ${Math.round(r.start - tKillSent)} ms after the kill, ${Math.round(r.end - r.start)} ms)`;
    expect(
      otherFailures.filter((r) => r.phase !== rollingPhase).length === 0,
      `No request fails except those in flight at the kill; these failed:\n${otherFailures
        .filter((r) => r.phase !== rollingPhase)
        .slice(0, 20)
        .map(describe)
        .join('\n')}`,
    );
    expect(
      killFailures.length <= bound,
      `Failed requests at the kill (${killFailures.length}) ≤ in flight on ${victimName} (${bound}: HAProxy sessions ${haproxySessions} − hub tunnels ${tunnels} + started meanwhile ${startedInGap}):\n${killFailures.map(describe).join('\n')}`,
    );

    // ---- Hub clients on the killed instance reconnected and learned the outcome -------------
    const reconnectedAfterKill = (p: Purchase) =>
      p.watch?.events.some((e) => e.kind === 'reconnected' && e.at >= tKillSent) ?? false;
    const hubReconnected = onVictim.filter(reconnectedAfterKill).length;
    const hubLearned = onVictim.filter((p) => p.outcome?.status === 'paid').length;
    expect(
      onVictim.length > 0,
      `The killed instance held hub clients (clients by instance: ${JSON.stringify(hubClientsBefore)})`,
    );
    for (const p of onVictim) {
      expect(
        reconnectedAfterKill(p) && p.outcome?.status === 'paid',
        `Hub client of order ${p.orderId ?? '?'} on the killed ${victimName} reconnects and learns 'paid' (events ${JSON.stringify(p.watch?.events.map((e) => `${e.kind}@${e.server ?? ''}`))}, outcome ${p.outcome?.status ?? 'none'}, problems ${p.problems.join('; ') || 'none'})`,
      );
    }
    // ---- rolling restart: nothing failed -------------------------------------------------------
    const rollingFailures = failures.filter((r) => r.phase === rollingPhase);
    expect(
      rollingFailures.length === 0,
      `A rolling restart fails no request; these failed:\n${rollingFailures.slice(0, 20).map(describe).join('\n')}`,
    );
    for (const step of steps)
      expect(
        step.exitCode === 0,
        `${step.server} exits 0 after SIGTERM (exit code ${step.exitCode})`,
      );
    // Hub clients on an instance that got SIGTERM were told to reconnect (allowReconnect) when it
    // closed, and learned their outcome on another instance.
    let rollingHubOn = 0;
    let rollingHubLost = 0;
    let rollingHubReconnected = 0;
    let rollingHubLearned = 0;
    for (const { server, at, purchases } of onStopped) {
      expect(
        purchases.length > 0,
        `Rolling restart: hub clients were on ${server} when it got SIGTERM (none were: nothing shows they survive it)`,
      );
      for (const p of purchases) {
        // A client whose payment settled during the drain heard it from this instance; the
        // others lost their connection when it closed, and must have reconnected.
        const lost = p.watch?.events.find((e) => e.kind === 'reconnecting' && e.at >= at);
        const heardBefore =
          p.watch?.settledAt !== undefined && (lost === undefined || p.watch.settledAt < lost.at);
        const reconnected =
          p.watch?.events.some((e) => e.kind === 'reconnected' && e.at >= at) ?? false;
        rollingHubOn += 1;
        if (lost) rollingHubLost += 1;
        if (lost && reconnected) rollingHubReconnected += 1;
        if (p.outcome?.status === 'paid') rollingHubLearned += 1;
        expect(
          p.outcome?.status === 'paid' && (heardBefore || (lost !== undefined && reconnected)),
          `Hub client of order ${p.orderId ?? '?'} on ${server} at its SIGTERM learns 'paid', before the instance closes or after reconnecting (events ${JSON.stringify(p.watch?.events.map((e) => `${e.kind}@${e.server ?? ''}`))}, outcome ${p.outcome?.status ?? 'none'})`,
        );
      }
    }

    // ---- Every customer learned the outcome; the database agrees -------------------------------
    for (const p of scenario.purchases) {
      expect(
        p.outcome?.status === 'paid',
        `Purchase ${p.id} (${p.kind}, ${p.phase}${p.witness ? ', witness' : ''}) is paid and its customer learned it on the hub (order ${p.orderId ?? 'not placed'}, outcome ${p.outcome?.status ?? 'none'}, problems: ${p.problems.join('; ') || 'none'})`,
      );
    }
    await waitForQuiet(database.url, testStart, 90_000).catch((error: unknown) => {
      broken.push(error instanceof Error ? error.message : String(error));
    });
    const verdict = await checkDatabase(database.url, {
      since: testStart,
      purchases: scenario.purchases,
      balancesBefore,
    });
    broken.push(...verdict.broken);

    // ---- Figures -------------------------------------------------------------------------------
    const phaseNames = ['warm-up', 'steady', killPhase, rollingPhase];
    const phases = [...phaseNames.map((name) => figuresOf(records, name)), figuresOf(records)];
    const payments: PaymentFigures = {
      made: verdict.made,
      fulfilled: verdict.fulfilledOnce,
      lost: verdict.made - verdict.fulfilledOnce,
    };
    const table = renderTable(phases, payments);
    const counters = await haproxy.serverStats();
    const haproxyCounters = Object.fromEntries(
      Object.entries(counters).map(([name, row]) => [
        name,
        Object.fromEntries(
          ['wretr', 'wredis', 'hrsp_5xx', 'econ', 'eresp'].map((k) => [k, Number(row[k] || 0)]),
        ),
      ]),
    );
    const kill: KillFigures = {
      server: victimName,
      hubClientsBefore,
      hubConnectionsMetric: metricValue(victimMetrics, 'alda_payment_hub_connections'),
      inFlightMetric: metricValue(victimMetrics, 'alda_http_requests_in_flight'),
      haproxySessions,
      hubTunnels: tunnels,
      clientInFlight,
      startedInGap,
      bound,
      failed: killFailures.length,
      failures: killFailures.map(describe),
      goneMs: tExited - tKillSent,
      hubOnKilled: onVictim.length,
      hubReconnected,
      hubLearned,
      haproxyDownMs,
      prometheusDownMs,
      restartedMs,
    };
    return {
      ok: broken.length === 0,
      broken,
      mode: options.mode,
      phases,
      payments,
      table,
      kill,
      rolling: {
        steps,
        failed: rollingFailures.length,
        hubOnStopped: rollingHubOn,
        hubLost: rollingHubLost,
        hubReconnected: rollingHubReconnected,
        hubLearned: rollingHubLearned,
      },
      database: verdict,
      prometheus: { rate: rate.text, upDuringKill: upDuringKill.text, upVictim },
      haproxy: haproxyCounters,
      notes: scenario.purchases
        .filter((p) => p.problems.length > 0 || p.retries > 0)
        .map(
          (p) =>
            `purchase ${p.id} (${p.phase}): ${p.retries} request(s) sent again; ${p.problems.join('; ') || 'no problems'}; outcome ${p.outcome?.status ?? 'none'}`,
        ),
      durationMs: clock() - began,
    };
  } finally {
    await bounded(scenario?.stop() ?? Promise.resolve(), 60_000, 'the customers to stop').catch(
      () => {},
    );
    await cleanup();
    interrupt = undefined;
  }
}

/** What a run holds that must not outlive it (set while a run is under way). */
let interrupt: (() => Promise<void>) | undefined;

/**
 * Stops what the run under way started — Prometheus, HAProxy, the API processes — and drops its
 * database: for a script interrupted by a signal, whose awaited run will never get to its own
 * cleanup.
 */
export async function interruptScaleTest(): Promise<void> {
  await interrupt?.();
}
