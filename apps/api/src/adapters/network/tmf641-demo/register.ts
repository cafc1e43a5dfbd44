import type { FastifyInstance } from 'fastify';
import type { Database } from '../../../db/client';
import { createNetworkSimulator } from '../simulator';
import { demoDatabase } from './database';
import { tmf641DemoRoutes } from './routes';
import { createTmf641DemoServer, type EventDelivery, type Tmf641DemoServer } from './server';
import { TMF641_DEMO_PREFIX } from './wire';

declare module 'fastify' {
  interface FastifyInstance {
    /** The demo TMF641 server in demo mode (tests run its rounds with `tick()`), else null. */
    tmf641Demo: Tmf641DemoServer | null;
  }
}

export interface Tmf641DemoSettings {
  /** DEMO_MODE: without it nothing is mounted. */
  enabled: boolean;
  database: Database;
  /** DATA_DIR: where the demo's own PGlite lives beside the app's (database.ts). */
  dataDir: string;
  now: () => Date;
  /** TMF641_DEMO_STEP_MS. */
  stepMs: number;
  /**
   * Open the demo's database at start rather than on first use (NETWORK_ADAPTER=tmf641: the
   * adapter calls at once, and must not wait for a PGlite being created).
   */
  openAtStart: boolean;
  /** APP_URL: the orders' `href` start with it. */
  appUrl: string;
  /** PROVISIONING_STEP_S and ESIM_SMDP_ADDRESS, as the app's simulator has them. */
  simulator: { stepS: number; smdpAddress: string };
  /** TMF641_TOKEN: asked of every request when set. */
  token?: string | undefined;
  /** TMF641_LISTENER_SECRET: presented with every event. */
  listenerSecret?: string | undefined;
  /** How events are sent (tests); an HTTP POST by default. */
  deliver?: EventDelivery | undefined;
}

/**
 * Mounts the demo TMF641 server under /tmf-api/serviceOrdering/v4/ in demo mode (issue 43): a
 * network simulator of its own answering as the OSS, its routes, and its rounds — every
 * `TMF641_DEMO_STEP_MS / 2` (0.1 to 1 s) the due steps, and the due events — started when the
 * app is ready and stopped before it closes. Decorates `app.tmf641Demo` (null without DEMO_MODE).
 */
export async function registerTmf641Demo(
  app: FastifyInstance,
  settings: Tmf641DemoSettings,
): Promise<void> {
  if (!settings.enabled) {
    app.decorate('tmf641Demo', null);
    return;
  }
  const database = demoDatabase(settings.database, settings.dataDir);
  const server = createTmf641DemoServer({
    database,
    now: settings.now,
    log: app.log,
    network: createNetworkSimulator(settings.simulator),
    stepMs: settings.stepMs,
    baseUrl: `${settings.appUrl}${TMF641_DEMO_PREFIX}`,
    token: settings.token,
    listenerSecret: settings.listenerSecret,
    deliver: settings.deliver,
  });
  app.decorate('tmf641Demo', server);
  await app.register(tmf641DemoRoutes, { prefix: TMF641_DEMO_PREFIX, server });
  app.addHook('onReady', async () => {
    await database.openAtStart(settings.openAtStart);
    server.start(Math.min(1000, Math.max(100, Math.floor(settings.stepMs / 2))));
  });
  app.addHook('preClose', async () => {
    await server.stop();
  });
  app.addHook('onClose', async () => {
    await database.close();
  });
}
