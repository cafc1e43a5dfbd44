import { buildApp } from './app';
import { ConfigError, loadConfig, type Config } from './config';
import { DEMO_PASSWORD, DEMO_USERS } from './seed/demo-users';
import { DEMO_STAFF, DEMO_STAFF_PASSWORD, seedDemoStaff } from './seed/demo-staff';
import { operatorSocketPath } from './operator-socket';
import { serveOperatorCommands } from './operator';
import { isDatabaseEmpty, seedDemoData, seedReferenceData } from './seed/seed';
import { startTracing } from './tracing/tracing';

/** How long in-flight requests get to finish on SIGTERM/SIGINT before the process gives up. */
const SHUTDOWN_GRACE_MS = 10_000;
/** How long the last spans may take to reach the collector at exit (a down one costs no more). */
const TRACES_FLUSH_MS = 2_000;

function readConfig(): Config {
  try {
    return loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      // Plain stderr: the logger is configured from this very config.
      process.stderr.write(`${error.message}\nSee docs/operations.md for every variable.\n`);
      process.exit(1);
    }
    throw error;
  }
}

function printDemoLogins(url: string): void {
  const width = Math.max(...DEMO_USERS.map((u) => u.email.length));
  const lines = DEMO_USERS.map(
    (u) =>
      // A customer without a line with us cannot use phone login: no number shown.
      `  ${u.email.padEnd(width)}  ${DEMO_PASSWORD}  ${u.hasLine === false ? '------' : u.phoneNumber}  ${u.firstname} ${u.lastname}, ${u.city} (${u.role})`,
  );
  const staffWidth = Math.max(...DEMO_STAFF.map((s) => s.email.length));
  const staff = DEMO_STAFF.map(
    (s) => `  ${s.email.padEnd(staffWidth)}  ${s.role.padEnd(12)}  ${s.totpSecret}  ${s.name}`,
  );
  process.stdout.write(
    `\nAlda demo is running at ${url}\nDemo logins (password ${DEMO_PASSWORD}; phone login with the numbers, codes at ${url}/dev/outbox):\n${lines.join('\n')}\n` +
      `\nStaff console at ${url}/console/ (password ${DEMO_STAFF_PASSWORD}; the code of an authenticator app with the TOTP secret, or: npm run totp -- <secret>):\n${staff.join('\n')}\n\n`,
  );
}

async function main(): Promise<void> {
  const config = readConfig();
  // Before the app is built: its logger, hooks and database look whether tracing is on. Off
  // (no OTEL_EXPORTER_OTLP_ENDPOINT), nothing of the SDK is even loaded (issue 44 §2).
  const tracing = await startTracing().catch((error: unknown) => {
    process.stderr.write(`OpenTelemetry tracing could not start: ${String(error)}\n`);
    process.exit(1);
  });
  const app = await buildApp(config);
  /** The spans still queued go to the collector, if it answers within TRACES_FLUSH_MS. */
  const flushTraces = () =>
    Promise.race([
      tracing?.shutdown().catch(() => {}),
      new Promise((resolve) => setTimeout(resolve, TRACES_FLUSH_MS).unref()),
    ]);

  let shuttingDown = false;
  let operatorSocket: { close(): Promise<void> } | undefined;
  const shutdown = (signal: NodeJS.Signals) => {
    if (shuttingDown) return;
    shuttingDown = true;
    // SIGTERM is the orchestrator or a rolling restart: first drain. /readyz answers 503 while
    // everything else is still served, so the balancer's health check takes this instance out
    // before it stops accepting (issue 44 §5). SIGINT is someone at a terminal: no waiting.
    const drainMs = signal === 'SIGTERM' ? config.shutdownDrainMs : 0;
    app.startDraining();
    app.log.info({ signal, drainMs }, 'shutting down: draining, then closing the server');
    const close = () => {
      const timer = setTimeout(() => {
        app.log.error('graceful shutdown timed out; exiting');
        process.exit(1);
      }, SHUTDOWN_GRACE_MS);
      timer.unref();
      // app.close() stops accepting connections, waits for in-flight requests, then runs the
      // onClose hooks, which close the database. The operator socket closes first.
      void operatorSocket?.close();
      app.close().then(
        () => flushTraces().finally(() => process.exit(0)),
        (error: unknown) => {
          app.log.error({ err: error }, 'error during shutdown');
          process.exit(1);
        },
      );
    };
    if (drainMs > 0) setTimeout(close, drainMs);
    else close();
  };

  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);

  try {
    app.log.info({ database: app.database.location }, 'applying migrations');
    await app.database.migrate();
    await seedReferenceData(app.db);
    const seedDemo = config.demoMode && (await isDatabaseEmpty(app.db));
    if (seedDemo) {
      const created = await seedDemoData(app.db, new Date(), undefined, { bills: true });
      app.log.info(created, 'demo data seeded');
    }
    if (config.demoMode) {
      const created = await seedDemoStaff(app.staffAccounts);
      if (created > 0) app.log.info({ created }, 'demo staff seeded');
    }
    await app.listen({ port: config.port, host: config.host });
    // On the embedded database the operator command runs here, handed over a socket (ADR 0075).
    const socket = config.databaseUrl ? null : operatorSocketPath(config.dataDir);
    if (socket && config.dataDir !== 'memory') {
      operatorSocket = await serveOperatorCommands(socket, config, app.database);
    } else if (!config.databaseUrl && config.dataDir !== 'memory') {
      app.log.warn({ dataDir: config.dataDir }, 'DATA_DIR path too long for the operator socket');
    }
  } catch (error) {
    app.log.fatal({ err: error }, 'start-up failed');
    await app.close().catch(() => {});
    process.exit(1);
  }

  // The bound port, not the configured one: PORT=0 picks a free port (used by tests).
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const shownHost = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  const url = `http://${shownHost}:${port}`;
  if (config.demoMode) printDemoLogins(url);
  else app.log.info(`Alda API listening on ${url}`);
}

void main();
