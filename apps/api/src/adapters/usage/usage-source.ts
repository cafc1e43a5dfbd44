import type { UsageFeed } from '../../metrics/metrics';
import type { UsageRecord, UsageRecordsResponse } from '@alda/contract/schemas/usage';

/**
 * Where usage enters the system (ARCHITECTURE "Network / provisioning": usage arrives through
 * a usage adapter). Every source hands rated records to one sink — the usage service — which
 * stores each record once (by its id) and, for data use, moves the line's balance in the same
 * transaction.
 *
 * Sources today:
 * - push: the charging system POSTs batches to /api/usage/records (modules/usage/routes.ts), or
 *   TMF635 Usages to /tmf-api/usageManagement/v4/usage (modules/usage/tmf635-routes.ts);
 * - the demo simulator (jobs/usage-simulator.ts), which makes up a little use per line.
 * A pull source (e.g. CDR files fetched from the charging system) would implement `UsageSource`.
 */
export interface UsageSink {
  /**
   * Books data use (what a pushing or pulling source has); `feed` names the source in the
   * metrics (`alda_usage_records_total{feed}`).
   */
  ingest(records: readonly DataSinkRecord[], feed?: UsageFeed): Promise<UsageRecordsResponse>;
}

/**
 * Data use as the sink books it: the JSON feed's record, plus — from TMF635, which carries the
 * charging system's rating — what the charging system rated it at, øre with VAT, and the Usage's
 * description (ADR 0083).
 */
export type DataSinkRecord = UsageRecord & { ratedOere?: number; description?: string };

/**
 * Use that is not data (a call, an SMS, …; TMF635 only): stored for the bill to itemise, never
 * booked on a data bucket (ADR 0083).
 */
export interface OtherSinkRecord {
  recordId: string;
  /** `voice`, `sms`, … lower case; never `data`. */
  usageType: string;
  /** The line's number (6 digits); null when the Usage named none. */
  phoneNumber: string | null;
  /** Seconds (`s`) of a call, or a count of the rest. */
  quantity: number;
  unit: 's' | 'count';
  kind: 'domestic' | 'eu' | 'world';
  /** ISO 8601 instant the use happened. */
  occurredAt: string;
  /** The other party's number, as sent. */
  otherParty?: string;
  ratedOere?: number;
  description?: string;
}

/** A record as the sink takes it: data use (the JSON feed's only kind), or other use. */
export type SinkRecord = DataSinkRecord | OtherSinkRecord;

/** Whether a record is data use (books on the line's buckets). */
export const isDataRecord = (record: SinkRecord): record is DataSinkRecord =>
  !('usageType' in record);

/** A source that runs by itself once started, until stopped (app close). */
export interface UsageSource {
  readonly name: string;
  start(sink: UsageSink): void;
  /** Stops producing and waits for a delivery in flight. */
  stop(): Promise<void>;
}
