import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import type { NetworkAdapter } from './network';
import { createNetworkSimulator } from './simulator';
import { createTmf641Adapter, type Tmf641Adapter } from './tmf641/adapter';
import { createTmf641Client, type Tmf641Client } from './tmf641/client';

/** The configured network adapter; with TMF641 also its client (hub registration). */
export interface ConfiguredNetwork {
  network: NetworkAdapter;
  tmf641: { adapter: Tmf641Adapter; client: Tmf641Client; url: string } | null;
}

/**
 * The network adapter NETWORK_ADAPTER names (ADR 0055, ADR 0082): the simulator, or TMF641
 * against TMF641_URL. The server and `npm run operator` build it the same way, so an operator's
 * `advance` places the same service orders the worker would.
 */
export function createNetwork(
  config: Config,
  database: Database,
  log: FastifyBaseLogger,
  now: () => Date,
  /** How the TMF641 client reaches the OSS (tests); the global fetch otherwise. */
  fetchImpl?: typeof fetch,
): ConfiguredNetwork {
  if (config.networkAdapter !== 'tmf641' || !config.tmf641Url)
    return {
      network: createNetworkSimulator({
        stepS: config.provisioningStepS,
        smdpAddress: config.esimSmdpAddress,
      }),
      tmf641: null,
    };
  const client = createTmf641Client({
    url: config.tmf641Url,
    token: config.tmf641Token,
    ...(fetchImpl ? { fetch: fetchImpl } : {}),
  });
  const adapter = createTmf641Adapter({
    client,
    db: database.db,
    // PostgreSQL: the adapter's rows on a connection of its own (tmf641/adapter.ts).
    ownConnection: database.kind === 'postgres',
    now,
    log,
    stepS: config.provisioningStepS,
    pollS: config.tmf641PollS,
    waitS: config.tmf641WaitS,
    barPollS: config.tmf641BarPollS,
    smdpAddress: config.esimSmdpAddress,
  });
  return { network: adapter, tmf641: { adapter, client, url: config.tmf641Url } };
}
