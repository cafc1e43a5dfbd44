import type { UsageFeed } from '../../metrics/metrics';
import type { UsageRecord, UsageRecordsResponse } from '@alda/contract/schemas/usage';

/**
 * Where data use enters the system (ARCHITECTURE "Network / provisioning": usage arrives through
 * a usage adapter). Every source hands rated records to one sink — the usage service — which
 * stores each record once (by its id) and moves the line's balance in the same transaction.
 *
 * Sources today:
 * - push: the charging system POSTs batches to /api/usage/records (modules/usage/routes.ts), or
 *   TMF635 Usages to /tmf-api/usageManagement/v4/usage (modules/usage/tmf635-routes.ts);
 * - the demo simulator (jobs/usage-simulator.ts), which makes up a little use per line.
 * A pull source (e.g. CDR files fetched from the charging system) would implement `UsageSource`.
 */
export interface UsageSink {
  /** `feed` names the source in the metrics (`alda_usage_records_total{feed}`). */
  ingest(records: readonly SinkRecord[], feed?: UsageFeed): Promise<UsageRecordsResponse>;
}

/**
 * A record as the sink books it: the JSON feed's record, plus — from TMF635, which carries the
 * charging system's rating — what the charging system rated it at, øre with VAT (ADR 0083).
 */
export type SinkRecord = UsageRecord & { ratedOere?: number };

/** A source that runs by itself once started, until stopped (app close). */
export interface UsageSource {
  readonly name: string;
  start(sink: UsageSink): void;
  /** Stops producing and waits for a delivery in flight. */
  stop(): Promise<void>;
}
