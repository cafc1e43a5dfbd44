import { buildApp } from './app';
import { ConfigError, loadConfig, type Config } from './config';
import { DEMO_PASSWORD, DEMO_USERS } from './seed/demo-users';
import { DEMO_STAFF, DEMO_STAFF_PASSWORD, seedDemoStaff } from './seed/demo-staff';
import { operatorSocketPath } from './operator-socket';
import { serveOperatorCommands } from './operator';
import { isDatabaseEmpty, seedDemoData, seedReferenceData } from './seed/seed';

/** How long in-flight requests get to finish on SIGTERM/SIGINT before the process gives up. */
const SHUTDOWN_GRACE_MS = 10_000;

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
  const app = await buildApp(config);

  let shuttingDown = false;
  let operatorSocket: { close(): Promise<void> } | undefined;
  const shutdown = (signal: NodeJS.Signals) => {
    if (shuttingDown) return;
    shuttingDown = true;
    app.log.info({ signal }, 'shutting down: closing the server, then the database');
    const timer = setTimeout(() => {
      app.log.error('graceful shutdown timed out; exiting');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS);
    timer.unref();
    // app.close() stops accepting connections, waits for in-flight requests, then runs the
    // onClose hooks, which close the database. The operator socket closes first.
    void operatorSocket?.close();
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, 'error during shutdown');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);

  try {
    app.log.info({ database: app.database.location }, 'applying migrations');
    await app.database.migrate();
    await seedReferenceData(app.db);
    const seedDemo = config.demoMode && (await isDatabaseEmpty(app.db));
    if (seedDemo) {
      const created = await seedDemoData(app.db);
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
