import type { UsageRecord, UsageRecordsResponse } from '@alda/contract/schemas/usage';

/**
 * Where data use enters the system (ARCHITECTURE "Network / provisioning": usage arrives through
 * a usage adapter). Every source hands rated records to one sink — the usage service — which
 * stores each record once (by its id) and moves the line's balance in the same transaction.
 *
 * Sources today:
 * - push: the charging system POSTs batches to /api/usage/records (modules/usage/routes.ts);
 * - the demo simulator (jobs/usage-simulator.ts), which makes up a little use per line.
 * A pull source (e.g. CDR files fetched from the charging system) would implement `UsageSource`.
 */
export interface UsageSink {
  ingest(records: readonly UsageRecord[]): Promise<UsageRecordsResponse>;
}

/** A source that runs by itself once started, until stopped (app close). */
export interface UsageSource {
  readonly name: string;
  start(sink: UsageSink): void;
  /** Stops producing and waits for a delivery in flight. */
  stop(): Promise<void>;
}
