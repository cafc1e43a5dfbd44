import type { Metrics, UsageFeed } from '../../metrics/metrics';
import type { FastifyBaseLogger } from 'fastify';
import type { Locale } from '@alda/contract/locale';
import { USAGE_RECORDS_MAX } from '@alda/contract/constants';
import { startOfMonth, todayInFaroe } from '@alda/contract/format/date';
import type { UsageRecordsResponse } from '@alda/contract/schemas/usage';
import type { EmailSender } from '../../adapters/email/email-sender';
import { barringKey, type NetworkAdapter } from '../../adapters/network/network';
import type { SmsSender } from '../../adapters/sms/sms-sender';
import { plainEmail } from '../../adapters/email/plain-email';
import {
  isDataRecord,
  type DataSinkRecord,
  type SinkRecord,
  type UsageSink,
} from '../../adapters/usage/usage-source';
import type { BackgroundTasks } from '../../background';
import type { Db } from '../../db/client';
import type { LineBalanceRow, NewUsageRecordRow, UsageRecordRow } from '../../db/schema/balances';
import type { NotificationParams } from '../../db/schema/data-transfers';
import { notificationSms, notificationTexts } from '../notifications/notify';
import { findUserById } from '../users/records';
import { raiseUsageAlerts } from './alerts';
import { applyUsage, initialBuckets, sumUsage } from './balance';
import {
  addDailyUse,
  findActiveMeteredLines,
  findMeteredLines,
  findRoamingCaps,
  findUsageRecords,
  insertNewUsageRecords,
  setRecordCharges,
  updateBalances,
  type BalanceUpdate,
  type DailyUse,
  type MeteredLine,
} from './repo';
import { findViewersOfLines } from '../subscriptions/accounts';
import { notifyUsageChanged } from '../versions/change-versions';
import { insertMissingBalances, lockBalances } from './balance-rows';
import { effectiveRoamingCap } from '@alda/contract/rules/roaming';
import { rateRoaming, type RecordCharge } from './roaming';
import { raiseRoamingCapAlerts, type RoamingCapState } from './roaming-alerts';

export interface UsageServiceDeps {
  db: Db;
  now: () => Date;
  log: FastifyBaseLogger;
  /** Sends the usage alerts' e-mails after the commit (none without, e.g. in unit use). */
  email?: EmailSender;
  background?: BackgroundTasks;
  /** The roaming spend cap's settings (ADR 0078): the default cap and the price per MB, øre. */
  roaming: { defaultCapOere: number; pricePerMbOere: number };
  /** Told to stop roaming data when a cap is reached (after the commit); none in unit use. */
  network?: NetworkAdapter;
  /** Sends the roaming cap SMS to the number (after the commit). */
  sms?: SmsSender;
  /** Counts booked, repeated and refused records by feed, and the feed's lag (issue 44). */
  metrics?: Pick<Metrics, 'usage' | 'usageLag'>;
}

/** What became of a batch's records: booked now, received before, or not taken. */
export interface BookedBatch {
  /** Ids stored and applied to a balance just now. */
  fresh: ReadonlySet<string>;
  /** Ids received before (this batch's repeats of an id among them): nothing changed. */
  duplicates: string[];
  /** Records not taken (not stored, so they may be sent again). */
  rejected: UsageRecordsResponse['rejected'];
  /**
   * The rows stored just now, by id, as they stay: other use as inserted, data with the roaming
   * rating the same transaction gave it (so an answer needs no read of its own).
   */
  stored: ReadonlyMap<string, UsageRecordRow>;
}

/**
 * The usage feed's sink: books rated usage records on line balances. Idempotent by record id —
 * the record's insert and the balance update share one transaction, so a record sent twice (a
 * retry, a duplicate batch, two senders at once) moves the balance exactly once. Use that is not
 * data (calls, SMS, …; ADR 0083) is stored the same way, once, and moves no balance.
 */
export function createUsageService(deps: UsageServiceDeps) {
  const { db, now } = deps;

  /**
   * The alerts' messages after the commit, each worded in its person's language (`users.locale`):
   * the usage alerts' e-mails and the roaming cap's SMS and e-mails. Failures are logged, not
   * retried.
   */
  function sendMessages(
    type: 'usage_alert' | 'roaming_cap',
    messages: readonly { userId: string; params: NotificationParams; smsTo?: string }[],
  ): void {
    const { email, sms, background } = deps;
    if (!background) return;
    for (const message of messages) {
      background.run(`${type} ${message.smsTo ? 'SMS' : 'e-mail'}`, async () => {
        const user = await findUserById(db, message.userId);
        const locale: Locale = user?.locale === 'en' ? 'en' : 'fo';
        const { title, body } = notificationTexts(type, message.params, locale);
        if (message.smsTo)
          await sms?.send({ to: message.smsTo, text: notificationSms({ title, body }) });
        else if (user && email)
          await email.send({ to: user.email, ...plainEmail(locale, user.firstname, title, body) });
      });
    }
  }

  /**
   * Bars roaming data in the network for numbers whose cap was reached (ADR 0078). After the
   * commit: a network that does not answer must not hold up booking the usage. The call sets a
   * state, so it is repeated for every batch that books chargeable use on a stopped number, and a
   * bar that failed is set by the next one.
   */
  function barRoaming(lines: readonly { lineId: string; msisdn: string }[]): void {
    const { network, background } = deps;
    if (!network || !background) return;
    for (const { lineId, msisdn } of lines) {
      background.run('roaming cap bar', () =>
        network.setRoamingDataBarred(msisdn, true, {
          key: barringKey(lineId, 'roaming', true),
        }),
      );
    }
  }

  /**
   * Books a batch and tells each record's fate: stored and applied just now (`fresh`), received
   * before (`duplicates`), or not taken (`rejected`). The one home of the booking rules; both
   * feeds (JSON and TMF635) and the demo simulator come through here.
   */
  async function book(
    records: readonly SinkRecord[],
    feed: UsageFeed = 'json',
  ): Promise<BookedBatch> {
    // The same id twice within one batch counts once, like across batches.
    const unique = [...new Map(records.map((r) => [r.recordId, r])).values()];
    // One query for the lines of all the batch's numbers, with the allowances that data needs.
    const numbers = new Set(unique.flatMap((r) => (r.phoneNumber === null ? [] : [r.phoneNumber])));
    const lineOf = new Map((await findMeteredLines(db, [...numbers])).map((l) => [l.msisdn, l]));
    // A record on no number (other use only) is stored on no line.
    const known = unique.flatMap((record): { record: SinkRecord; line: MeteredLine | null }[] => {
      if (record.phoneNumber === null) return [{ record, line: null }];
      const line = lineOf.get(record.phoneNumber);
      return line ? [{ record, line }] : [];
    });
    const rejected = unique
      .filter((r) => r.phoneNumber !== null && !lineOf.has(r.phoneNumber))
      .map((r) => ({ recordId: r.recordId, reason: 'UNKNOWN_NUMBER' as const }));
    const at = now();

    // Data moves balances with its insert, in one transaction; other use alone is one insert.
    const withData = known.some(({ record }) => isDataRecord(record));
    const write = <T>(work: (tx: Db) => Promise<T>): Promise<T> =>
      withData ? db.transaction((tx) => work(tx)) : work(db);
    const { accepted, stored, emails, roamingMessages, bar } = await write(async (tx) => {
      const inserted = await insertNewUsageRecords(
        tx,
        known.map(({ record, line }) => recordRow(record, line, at)),
      );
      const fresh = new Set(inserted.map((row) => row.recordId));
      const stored = new Map(inserted.map((row) => [row.recordId, row] as const));
      // Only data records stored just now move a balance; repeats were booked before.
      const perLine = new Map<string, { line: MeteredLine; records: DataSinkRecord[] }>();
      // (Data always names its line: `line` is null only for other use on no number.)
      for (const { record, line } of known) {
        if (!fresh.has(record.recordId) || !isDataRecord(record) || line === null) continue;
        const entry = perLine.get(line.lineId) ?? { line, records: [] };
        entry.records.push(record);
        perLine.set(line.lineId, entry);
      }
      // Nothing to book on a balance (other use, repeats): no balance is locked.
      if (perLine.size === 0)
        return { accepted: fresh, stored, emails: [], roamingMessages: [], bar: [] };
      await insertMissingBalances(
        tx,
        [...perLine.values()].map(({ line }) => ({
          lineId: line.lineId,
          periodStart: startOfMonth(at),
          ...initialBuckets(line.dataMb ?? 0, line.euAllowanceMb),
          updatedAt: at,
        })),
      );
      const booked: LineBalanceRow[] = [];
      const updates: BalanceUpdate[] = [];
      const locked = await lockBalances(tx, [...perLine.keys()]);
      // The caps after the balances are locked: a cap change holds the same lock (ADR 0078).
      const caps = new Map(
        (await findRoamingCaps(tx, [...perLine.keys()])).map((c) => [c.lineId, c]),
      );
      const charges: RecordCharge[] = [];
      const capStates: RoamingCapState[] = [];
      const bar: { lineId: string; msisdn: string }[] = [];
      for (const balance of locked) {
        const records = perLine.get(balance.lineId)?.records ?? [];
        const setting = caps.get(balance.lineId);
        const capOere = setting
          ? effectiveRoamingCap(setting, deps.roaming.defaultCapOere)
          : deps.roaming.defaultCapOere;
        const rated = rateRoaming(
          {
            buckets: balance,
            capOere,
            chargedOere: balance.roamingChargedOere,
            chargedMb: balance.roamingChargedMb,
            writtenOffMb: balance.roamingWrittenOffMb,
            stopped: balance.roamingStoppedAt !== null,
          },
          records,
          deps.roaming.pricePerMbOere,
        );
        charges.push(...rated.charges);
        const next = applyUsage(balance, sumUsage(records));
        const values = {
          domesticRemainingMb: next.domesticRemainingMb,
          domesticUsedMb: next.domesticUsedMb,
          euUsedMb: next.euUsedMb,
          roamingChargedOere: rated.month.chargedOere,
          roamingChargedMb: rated.month.chargedMb,
          roamingWrittenOffMb: rated.month.writtenOffMb,
          roamingStoppedAt: rated.month.stopped ? (balance.roamingStoppedAt ?? at) : null,
          updatedAt: at,
        };
        updates.push({ lineId: balance.lineId, ...values });
        booked.push({ ...balance, ...values });
        capStates.push({
          lineId: balance.lineId,
          periodStart: balance.periodStart,
          capOere,
          chargedOere: rated.month.chargedOere,
        });
        // Newly stopped, or chargeable use arriving while stopped: (again) bar roaming data.
        const chargeable = rated.charges.some((c) => c.chargedMb + c.writtenOffMb > 0);
        if (rated.month.stopped && chargeable && setting)
          bar.push({ lineId: balance.lineId, msisdn: setting.msisdn });
      }
      await updateBalances(tx, updates);
      await setRecordCharges(tx, charges);
      // The data rows as they now stand (the rating above is what setRecordCharges wrote).
      for (const { recordId, chargedMb, chargeOere, writtenOffMb } of charges) {
        const row = stored.get(recordId);
        if (row) stored.set(recordId, { ...row, chargedMb, chargeOere, writtenOffMb });
      }
      await addDailyUse(tx, dailyUse(perLine, charges));
      // The subscriptions answers kept in memory for these customers end (ADR 0057).
      await notifyUsageChanged(tx, await findViewersOfLines(tx, [...perLine.keys()]));
      const emails = await raiseUsageAlerts(tx, booked, at);
      const roamingMessages = await raiseRoamingCapAlerts(tx, capStates, at);
      return { accepted: fresh, stored, emails, roamingMessages, bar };
    });
    sendMessages('usage_alert', emails);
    sendMessages('roaming_cap', roamingMessages);
    barRoaming(bar);

    const duplicates = known.filter(({ record }) => !accepted.has(record.recordId));
    const { metrics } = deps;
    if (metrics) {
      metrics.usage(feed, {
        booked: accepted.size,
        duplicate: duplicates.length,
        refused: rejected.length,
      });
      for (const { record } of known) {
        if (accepted.has(record.recordId))
          metrics.usageLag((at.getTime() - Date.parse(record.occurredAt)) / 1000);
      }
    }
    deps.log.debug(
      {
        received: records.length,
        accepted: accepted.size,
        duplicates: duplicates.length,
        rejected: rejected.length,
      },
      'usage records booked',
    );
    return {
      fresh: accepted,
      duplicates: duplicates.map(({ record }) => record.recordId),
      rejected,
      stored,
    };
  }

  /*
   * Small requests booked together (ADR 0093). A charging system sends single Usages on many
   * connections at once; booked one per transaction, each pays the whole transaction's round
   * trips alone. While bookings are under way (at most BOOKINGS_IN_FLIGHT, a part of the pool of
   * 10), the records of the requests that arrive wait and go together in the next transaction,
   * up to a full batch; an idle feed waits for nothing. Every request still hears its own
   * records' fate after the commit that stored them. A request that repeats an id already in the
   * batch being gathered waits for the next one, so that exactly one of them is told "booked".
   * A transaction that fails fails the requests in it: each may send again (the ids make that
   * safe).
   */
  const waiting: {
    records: readonly SinkRecord[];
    feed: UsageFeed;
    resolve: (batch: BookedBatch) => void;
    reject: (error: unknown) => void;
  }[] = [];
  let inFlight = 0;

  function gatherAndBook(): void {
    while (inFlight < BOOKINGS_IN_FLIGHT && waiting.length > 0) {
      const feed = waiting[0]!.feed;
      const ids = new Set<string>();
      const taken: typeof waiting = [];
      for (let i = 0; i < waiting.length && ids.size < USAGE_RECORDS_MAX;) {
        const entry = waiting[i]!;
        const fits = ids.size + entry.records.length <= USAGE_RECORDS_MAX || taken.length === 0;
        if (entry.feed !== feed || !fits || entry.records.some((r) => ids.has(r.recordId))) {
          i += 1;
          continue;
        }
        waiting.splice(i, 1);
        taken.push(entry);
        for (const r of entry.records) ids.add(r.recordId);
      }
      inFlight += 1;
      book(
        taken.flatMap((entry) => entry.records),
        feed,
      )
        .then(
          (batch) => {
            for (const entry of taken) entry.resolve(partOf(batch, entry.records));
          },
          (error: unknown) => {
            for (const entry of taken) entry.reject(error);
          },
        )
        .finally(() => {
          inFlight -= 1;
          gatherAndBook();
        });
    }
  }

  const service = {
    /**
     * `book`, for a request of a few records: booked together with the requests that arrive
     * while other bookings are under way (see above); the answer is this request's records' own.
     */
    bookTogether(records: readonly SinkRecord[], feed: UsageFeed = 'json'): Promise<BookedBatch> {
      return new Promise((resolve, reject) => {
        waiting.push({ records, feed, resolve, reject });
        gatherAndBook();
      });
    },

    async ingest(
      records: readonly SinkRecord[],
      feed: UsageFeed = 'json',
    ): Promise<UsageRecordsResponse> {
      const { fresh, duplicates, rejected } = await book(records, feed);
      return { accepted: fresh.size, duplicates: duplicates.length, rejected };
    },

    book,

    /** The stored records of these ids (what was booked), for the TMF635 answer. */
    async booked(recordIds: readonly string[]): Promise<UsageRecordRow[]> {
      return findUsageRecords(db, recordIds);
    },

    /** Numbers in service and whether they have EU data (for the demo simulator). */
    async activeNumbers(): Promise<{ phoneNumber: string; hasEuPackage: boolean }[]> {
      return (await findActiveMeteredLines(db)).map((l) => ({
        phoneNumber: l.msisdn,
        hasEuPackage: l.euAllowanceMb !== null,
      }));
    },
  } satisfies UsageSink & Record<string, unknown>;

  return service;
}

export type UsageService = ReturnType<typeof createUsageService>;

/** Bookings of gathered requests under way at once (`bookTogether`; the pool has 10). */
const BOOKINGS_IN_FLIGHT = 4;

/** What became of some of a batch's records: theirs alone. */
function partOf(batch: BookedBatch, records: readonly SinkRecord[]): BookedBatch {
  const ids = new Set(records.map((r) => r.recordId));
  return {
    fresh: new Set([...batch.fresh].filter((id) => ids.has(id))),
    duplicates: batch.duplicates.filter((id) => ids.has(id)),
    rejected: batch.rejected.filter((r) => ids.has(r.recordId)),
    stored: new Map([...batch.stored].filter(([id]) => ids.has(id))),
  };
}

/** A record as stored: data with its MB, other use with its quantity and no data figures. */
function recordRow(
  record: SinkRecord,
  line: { lineId: string } | null,
  at: Date,
): NewUsageRecordRow {
  const common = {
    recordId: record.recordId,
    lineId: line?.lineId ?? null,
    msisdn: line ? record.phoneNumber : null,
    occurredAt: new Date(record.occurredAt),
    receivedAt: at,
    ratedOere: record.ratedOere ?? null,
    description: record.description ?? null,
  };
  if (isDataRecord(record))
    return {
      ...common,
      usageType: 'data',
      quantity: record.usedMb,
      unit: 'MB',
      usedMb: record.usedMb,
      kind: record.kind,
    };
  return {
    ...common,
    usageType: record.usageType,
    quantity: record.quantity,
    unit: record.unit,
    otherParty: record.otherParty ?? null,
    usedMb: 0,
    kind: record.kind,
  };
}

/** The records stored just now, summed per line and Faroese day of use (the usage history). */
function dailyUse(
  perLine: ReadonlyMap<string, { records: readonly DataSinkRecord[] }>,
  charges: readonly RecordCharge[],
): DailyUse[] {
  const chargeOf = new Map(charges.map((c) => [c.recordId, c.chargeOere]));
  const days = new Map<string, DailyUse>();
  for (const [lineId, { records }] of perLine) {
    for (const record of records) {
      const day = todayInFaroe(new Date(record.occurredAt));
      const key = `${lineId} ${day}`;
      const entry = days.get(key) ?? {
        lineId,
        day,
        domesticMb: 0,
        euMb: 0,
        roamingChargedOere: 0,
      };
      entry.roamingChargedOere += chargeOf.get(record.recordId) ?? 0;
      if (record.kind === 'eu') entry.euMb += record.usedMb;
      else entry.domesticMb += record.usedMb;
      days.set(key, entry);
    }
  }
  return [...days.values()];
}
