import { ConfigError, loadConfig } from './config';
import { openDatabase } from './db/client';

/*
 * `npm run db:migrate -w @alda/api` (or `node dist/migrate.js` next to the bundle): applies
 * pending migrations and exits. The server also migrates at start; this is for deployments that
 * prefer to migrate as a separate release step before rolling out new instances.
 */
async function run(): Promise<void> {
  let config;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    await database.migrate();
    process.stdout.write(`Migrations applied to ${database.location}.\n`);
  } finally {
    await database.close();
  }
}

run().catch((error: unknown) => {
  process.stderr.write(
    `Migration failed: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
