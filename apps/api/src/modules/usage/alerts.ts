import { eq, inArray, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { faroeMonth } from '@alda/contract/format/date';
import { isUnlimited } from '@alda/contract/format/data';
import { usageHistoryPath } from '@alda/contract/app-paths';
import type { Db } from '../../db/client';
import { accounts } from '../../db/schema/accounts';
import { USAGE_ALERT_THRESHOLDS, usageAlerts, type LineBalanceRow } from '../../db/schema/balances';
import type { NotificationParams } from '../../db/schema/data-transfers';
import { phoneLines } from '../../db/schema/phone-lines';
import { users } from '../../db/schema/users';
import { insertNotifications } from '../notifications/notify';
import { bumpUserVersions } from '../versions/change-versions';

/*
 * Usage alerts (docs/decisions/0066-usage-alerts-and-history.md): when a line passes 80 % and
 * 100 % of its month's data — domestic and the EU package separately — its user and the owner of
 * its account are told, once per threshold per Faroese month, in the transaction that books the
 * usage (the usage feed). Each person's switches decide whether they get a notification, and an
 * e-mail as well.
 */

export type UsageAlertThreshold = (typeof USAGE_ALERT_THRESHOLDS)[number];
type Bucket = 'domestic' | 'eu';

/**
 * The highest threshold a bucket has reached: `goneMb` of `totalMb` is gone (used or, at home,
 * also given away — what is left is what the customer can still use). None for an empty bucket
 * or an unlimited plan, whose data does not run out.
 */
export function reachedThreshold(goneMb: number, totalMb: number): UsageAlertThreshold | null {
  if (totalMb <= 0 || isUnlimited(totalMb)) return null;
  let reached: UsageAlertThreshold | null = null;
  for (const threshold of USAGE_ALERT_THRESHOLDS) {
    if (goneMb * 100 >= threshold * totalMb) reached = threshold;
  }
  return reached;
}

/** The thresholds each bucket of a balance has reached, with what is left and the total. */
function reachedBuckets(balance: LineBalanceRow) {
  const out: { kind: Bucket; threshold: UsageAlertThreshold; leftMb: number; totalMb: number }[] =
    [];
  const domestic = reachedThreshold(
    balance.domesticTotalMb - balance.domesticRemainingMb,
    balance.domesticTotalMb,
  );
  if (domestic !== null) {
    out.push({
      kind: 'domestic',
      threshold: domestic,
      leftMb: balance.domesticRemainingMb,
      totalMb: balance.domesticTotalMb,
    });
  }
  if (balance.euAllowanceMb !== null) {
    const eu = reachedThreshold(balance.euUsedMb, balance.euAllowanceMb);
    if (eu !== null) {
      out.push({
        kind: 'eu',
        threshold: eu,
        leftMb: Math.max(0, balance.euAllowanceMb - balance.euUsedMb),
        totalMb: balance.euAllowanceMb,
      });
    }
  }
  return out;
}

type RaisedRow = { lineId: string; threshold: number; kind?: string };

/**
 * Per key (a line, or a line's bucket), the candidate of the highest threshold among those the
 * insert just `raised` (the others were told before): when 80 and 100 are reached at once, 100
 * is told. Shared by the usage alerts and the roaming cap's.
 */
export function highestRaised<C extends RaisedRow>(
  candidates: readonly C[],
  raised: readonly RaisedRow[],
  keyOf: (row: RaisedRow) => string,
): Map<string, C> {
  const told = new Map<string, C>();
  for (const row of raised) {
    const key = keyOf(row);
    const candidate = candidates.find((c) => keyOf(c) === key && c.threshold === row.threshold);
    const current = told.get(key);
    if (candidate && (!current || current.threshold < candidate.threshold))
      told.set(key, candidate);
  }
  return told;
}

/** An e-mail to send once the transaction that raised the alert has committed. */
export interface UsageAlertEmail {
  userId: string;
  params: NotificationParams;
}

/**
 * Raises the alerts the balances (after this batch's use) have reached and that were not raised
 * this month: records them (a threshold reached earlier is skipped by the primary key, so a
 * retried batch or two feeds at once tell it once), writes the notifications of everyone whose
 * switch is on and bumps their change versions. When 80 and 100 are reached at once, only 100 is
 * told. Answers the e-mails to send after the commit.
 */
export async function raiseUsageAlerts(
  tx: Db,
  balances: readonly LineBalanceRow[],
  at: Date,
): Promise<UsageAlertEmail[]> {
  const candidates = balances.flatMap((balance) =>
    reachedBuckets(balance).flatMap((bucket) =>
      USAGE_ALERT_THRESHOLDS.filter((t) => t <= bucket.threshold).map((threshold) => ({
        lineId: balance.lineId,
        month: faroeMonth(balance.periodStart),
        kind: bucket.kind,
        threshold,
        raisedAt: at,
        bucket,
      })),
    ),
  );
  if (candidates.length === 0) return [];
  const raised = await tx
    .insert(usageAlerts)
    .values(candidates.map(({ bucket: _bucket, ...row }) => row))
    .onConflictDoNothing()
    .returning({
      lineId: usageAlerts.lineId,
      kind: usageAlerts.kind,
      threshold: usageAlerts.threshold,
    });
  const told = highestRaised(candidates, raised, (c) => `${c.lineId} ${c.kind}`);
  if (told.size === 0) return [];

  const people = await findAlertRecipients(tx, [
    ...new Set([...told.values()].map((c) => c.lineId)),
  ]);
  const notifications = [];
  const emails: UsageAlertEmail[] = [];
  for (const alert of told.values()) {
    for (const person of people.filter((p) => p.lineId === alert.lineId)) {
      const on = alert.threshold === 100 ? person.at100 : person.at80;
      if (!on) continue;
      const params: NotificationParams = {
        phoneNumber: person.msisdn,
        // The owner told about someone else's line sees whose it is.
        name: person.ownLine ? null : person.lineName,
        dataMb: alert.bucket.leftMb,
        totalMb: alert.bucket.totalMb,
        threshold: alert.threshold,
        kind: alert.kind,
      };
      notifications.push({
        userId: person.userId,
        type: 'usage_alert' as const,
        params,
        link: usageHistoryPath(alert.lineId),
        createdAt: at,
      });
      if (person.email) emails.push({ userId: person.userId, params });
    }
  }
  await insertNotifications(tx, notifications);
  await bumpUserVersions(
    tx,
    notifications.map((n) => n.userId),
  );
  return emails;
}

export interface AlertRecipient {
  lineId: string;
  msisdn: string;
  userId: string;
  /** The line is this person's own number (not a member's line they own). */
  ownLine: boolean;
  /** This person owns the line's account (may change the roaming cap, ADR 0078). */
  isOwner: boolean;
  /** The line's user's or holder's name, for the owner's text; null when none. */
  lineName: string | null;
  at80: boolean;
  at100: boolean;
  email: boolean;
}

/** The user of each line and the owner of its account, with their alert switches. */
export async function findAlertRecipients(
  db: Db,
  lineIds: readonly string[],
): Promise<AlertRecipient[]> {
  const lineUser = alias(users, 'line_user');
  const owner = alias(users, 'owner');
  const rows = await db
    .select({
      lineId: phoneLines.id,
      msisdn: phoneLines.msisdn,
      lineUserId: lineUser.id,
      lineUserName: sql<string | null>`${lineUser.firstname} || ' ' || ${lineUser.lastname}`,
      holderName: sql<
        string | null
      >`nullif(trim(coalesce(${phoneLines.holderFirstname}, '') || ' ' || coalesce(${phoneLines.holderLastname}, '')), '')`,
      lineUser80: lineUser.usageAlert80,
      lineUser100: lineUser.usageAlert100,
      lineUserEmail: lineUser.usageAlertEmail,
      ownerId: owner.id,
      owner80: owner.usageAlert80,
      owner100: owner.usageAlert100,
      ownerEmail: owner.usageAlertEmail,
    })
    .from(phoneLines)
    .leftJoin(lineUser, eq(phoneLines.userId, lineUser.id))
    .leftJoin(accounts, eq(phoneLines.accountId, accounts.id))
    .leftJoin(owner, eq(accounts.ownerUserId, owner.id))
    .where(inArray(phoneLines.id, [...lineIds]));
  return rows.flatMap((r) => {
    const out: AlertRecipient[] = [];
    if (r.lineUserId) {
      out.push({
        lineId: r.lineId,
        msisdn: r.msisdn,
        userId: r.lineUserId,
        ownLine: true,
        isOwner: r.lineUserId === r.ownerId,
        lineName: null,
        at80: r.lineUser80 ?? true,
        at100: r.lineUser100 ?? true,
        email: r.lineUserEmail ?? false,
      });
    }
    if (r.ownerId && r.ownerId !== r.lineUserId) {
      out.push({
        lineId: r.lineId,
        msisdn: r.msisdn,
        userId: r.ownerId,
        ownLine: false,
        isOwner: true,
        lineName: r.lineUserId ? r.lineUserName : r.holderName,
        at80: r.owner80 ?? true,
        at100: r.owner100 ?? true,
        email: r.ownerEmail ?? false,
      });
    }
    return out;
  });
}
