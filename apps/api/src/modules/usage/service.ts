import type { FastifyBaseLogger } from 'fastify';
import type { Locale } from '@alda/contract/locale';
import { startOfMonth, todayInFaroe } from '@alda/contract/format/date';
import type { UsageRecord, UsageRecordsResponse } from '@alda/contract/schemas/usage';
import type { EmailSender } from '../../adapters/email/email-sender';
import { plainEmail } from '../../adapters/email/plain-email';
import type { UsageSink } from '../../adapters/usage/usage-source';
import type { BackgroundTasks } from '../../background';
import type { Db } from '../../db/client';
import type { LineBalanceRow } from '../../db/schema/balances';
import { notificationTexts } from '../notifications/notify';
import { findUserById } from '../users/records';
import { raiseUsageAlerts, type UsageAlertEmail } from './alerts';
import { applyUsage, initialBuckets, sumUsage } from './balance';
import {
  addDailyUse,
  findActiveMeteredLines,
  findMeteredLines,
  insertNewUsageRecords,
  updateBalance,
  type DailyUse,
  type MeteredLine,
} from './repo';
import { findViewersOfLines } from '../subscriptions/accounts';
import { notifyUsageChanged } from '../versions/change-versions';
import { insertMissingBalances, lockBalances } from './balance-rows';

export interface UsageServiceDeps {
  db: Db;
  now: () => Date;
  log: FastifyBaseLogger;
  /** Sends the usage alerts' e-mails after the commit (none without, e.g. in unit use). */
  email?: EmailSender;
  background?: BackgroundTasks;
}

/**
 * The usage feed's sink: books rated usage records on line balances. Idempotent by record id —
 * the record's insert and the balance update share one transaction, so a record sent twice (a
 * retry, a duplicate batch, two senders at once) moves the balance exactly once.
 */
export function createUsageService(deps: UsageServiceDeps) {
  const { db, now } = deps;

  /** The usage alerts' e-mails, in each person's language (failures are logged, not retried). */
  function sendAlertEmails(emails: readonly UsageAlertEmail[]): void {
    const { email, background } = deps;
    if (!email || !background) return;
    for (const mail of emails) {
      background.run('usage alert e-mail', async () => {
        const user = await findUserById(db, mail.userId);
        if (!user) return;
        const locale: Locale = user.locale === 'en' ? 'en' : 'fo';
        const { title, body } = notificationTexts('usage_alert', mail.params, locale);
        await email.send({ to: user.email, ...plainEmail(locale, user.firstname, title, body) });
      });
    }
  }

  const service = {
    async ingest(records: readonly UsageRecord[]): Promise<UsageRecordsResponse> {
      // The same id twice within one batch counts once, like across batches.
      const unique = [...new Map(records.map((r) => [r.recordId, r])).values()];
      const lines = await findMeteredLines(db, [...new Set(unique.map((r) => r.phoneNumber))]);
      const lineOf = new Map(lines.map((l) => [l.msisdn, l]));
      const known = unique.flatMap((record) => {
        const line = lineOf.get(record.phoneNumber);
        return line ? [{ record, line }] : [];
      });
      const rejected = unique
        .filter((r) => !lineOf.has(r.phoneNumber))
        .map((r) => ({ recordId: r.recordId, reason: 'UNKNOWN_NUMBER' as const }));
      const at = now();

      const { accepted, emails } = await db.transaction(async (tx) => {
        const fresh = await insertNewUsageRecords(
          tx,
          known.map(({ record, line }) => ({
            recordId: record.recordId,
            lineId: line.lineId,
            msisdn: record.phoneNumber,
            usedMb: record.usedMb,
            kind: record.kind,
            occurredAt: new Date(record.occurredAt),
            receivedAt: at,
          })),
        );
        // Only records stored just now move a balance; repeats were booked before.
        const perLine = new Map<string, { line: MeteredLine; records: UsageRecord[] }>();
        for (const { record, line } of known) {
          if (!fresh.has(record.recordId)) continue;
          const entry = perLine.get(line.lineId) ?? { line, records: [] };
          entry.records.push(record);
          perLine.set(line.lineId, entry);
        }
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
        for (const balance of await lockBalances(tx, [...perLine.keys()])) {
          const records = perLine.get(balance.lineId)?.records ?? [];
          const next = applyUsage(balance, sumUsage(records));
          const values = {
            domesticRemainingMb: next.domesticRemainingMb,
            domesticUsedMb: next.domesticUsedMb,
            euUsedMb: next.euUsedMb,
            updatedAt: at,
          };
          await updateBalance(tx, balance.lineId, values);
          booked.push({ ...balance, ...values });
        }
        await addDailyUse(tx, dailyUse(perLine));
        // The subscriptions answers kept in memory for these customers end (ADR 0057).
        await notifyUsageChanged(tx, await findViewersOfLines(tx, [...perLine.keys()]));
        const emails = await raiseUsageAlerts(tx, booked, at);
        return { accepted: fresh.size, emails };
      });
      sendAlertEmails(emails);

      const result = { accepted, duplicates: known.length - accepted, rejected };
      deps.log.debug(
        { received: records.length, ...result, rejected: rejected.length },
        'usage records booked',
      );
      return result;
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

/** The records stored just now, summed per line and Faroese day of use (the usage history). */
function dailyUse(perLine: ReadonlyMap<string, { records: readonly UsageRecord[] }>): DailyUse[] {
  const days = new Map<string, DailyUse>();
  for (const [lineId, { records }] of perLine) {
    for (const record of records) {
      const day = todayInFaroe(new Date(record.occurredAt));
      const key = `${lineId} ${day}`;
      const entry = days.get(key) ?? { lineId, day, domesticMb: 0, euMb: 0 };
      if (record.kind === 'eu') entry.euMb += record.usedMb;
      else entry.domesticMb += record.usedMb;
      days.set(key, entry);
    }
  }
  return [...days.values()];
}
