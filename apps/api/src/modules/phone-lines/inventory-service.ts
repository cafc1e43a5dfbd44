import type {
  StaffNumber,
  StaffNumberRelease,
  StaffNumbersPage,
  StaffNumbersQuery,
} from '@alda/contract/schemas/staff-numbers';
import type { Db } from '../../db/client';
import { AppError } from '../../errors';
import {
  countStates,
  insertRelease,
  listInUse,
  listQuarantined,
  listReserved,
  lockQuarantiningLine,
} from './inventory-repo';
import { findUserByPhoneNumber } from '../users/records';
import { findLiveLine } from './lines';
import { PER_PREFIX, PROVIDER_NUMBER_PREFIXES, isProviderNumber, planNumbers } from './numbering';
import { isQuarantined, takenNumbers } from './repo';

/*
 * The number inventory of the staff console (issue 31): the numbers of the number plan by state,
 * and the early release of a number from quarantine. The rules are the number search's
 * (service.ts): a number is taken by `takenNumbers`, it rests by `restsInQuarantine` (repo.ts),
 * and a release ends that rest there — so the customer's search offers a released number at once.
 */

export interface NumberInventoryDeps {
  db: Db;
  now: () => Date;
  /** NUMBER_QUARANTINE_DAYS (ADR 0056). */
  quarantineDays: number;
}

const DAY_MS = 86_400_000;
/** Candidates checked against the database at a time when listing free numbers. */
const FREE_BATCH = 500;

/** How many numbers of the plan contain `q` (kept per `q`: the plan does not change). */
const planCounts = new Map<string, number>();
function planCount(q: string | undefined): number {
  const key = q ?? '';
  if (!key) return PROVIDER_NUMBER_PREFIXES.length * PER_PREFIX;
  let n = planCounts.get(key);
  if (n === undefined) {
    n = 0;
    for (const _ of planNumbers(key, undefined)) n += 1;
    if (planCounts.size > 1_000) planCounts.clear();
    planCounts.set(key, n);
  }
  return n;
}

export function createNumberInventory(deps: NumberInventoryDeps) {
  const { db, now } = deps;
  const quarantineSince = (at: Date) => new Date(at.getTime() - deps.quarantineDays * DAY_MS);
  const endsAt = (cancelledAt: Date) =>
    new Date(cancelledAt.getTime() + deps.quarantineDays * DAY_MS).toISOString();

  /** A page of free numbers: the plan's numbers in order, less the taken ones. */
  async function freePage(query: StaffNumbersQuery, at: Date) {
    const found: string[] = [];
    let batch: string[] = [];
    const check = async () => {
      const taken = await takenNumbers(db, batch, at, quarantineSince(at));
      found.push(...batch.filter((n) => !taken.has(n)));
      batch = [];
    };
    for (const msisdn of planNumbers(query.q, query.after)) {
      batch.push(msisdn);
      if (batch.length === FREE_BATCH) {
        await check();
        if (found.length > query.limit) break;
      }
    }
    if (batch.length > 0 && found.length <= query.limit) await check();
    return found;
  }

  async function items(query: StaffNumbersQuery, at: Date): Promise<StaffNumber[]> {
    const since = quarantineSince(at);
    switch (query.state) {
      case 'in-use':
        return (await listInUse(db, since, query)).map((row) => ({
          state: 'in-use',
          msisdn: row.msisdn,
          lineStatus: row.status,
          since: row.since?.toISOString() ?? null,
        }));
      case 'quarantined':
        return (await listQuarantined(db, since, query)).map((row) => ({
          state: 'quarantined',
          msisdn: row.msisdn,
          cancelledAt: row.cancelledAt.toISOString(),
          quarantineEndsAt: endsAt(row.cancelledAt),
          customerNumber: row.customerNumber,
        }));
      case 'reserved':
        return (await listReserved(db, at, since, query)).map((row) => ({
          state: 'reserved',
          msisdn: row.msisdn,
          reservedUntil: row.expiresAt.toISOString(),
          customerId: row.userId,
        }));
      case 'free':
        return (await freePage(query, at)).map((msisdn) => ({ state: 'free', msisdn }));
    }
  }

  return {
    /** A page of the numbers in `query.state` containing `query.q`, with the counts per state. */
    async list(query: StaffNumbersQuery): Promise<StaffNumbersPage> {
      const at = now();
      const [rows, counts] = await Promise.all([
        items(query, at),
        countStates(db, at, quarantineSince(at), query.q || undefined),
      ]);
      const page = rows.slice(0, query.limit);
      return {
        state: query.state,
        items: page,
        nextAfter: rows.length > query.limit ? (page.at(-1)?.msisdn ?? null) : null,
        counts: {
          free: Math.max(0, planCount(query.q || undefined) - counts.takenInPlan),
          reserved: counts.reserved,
          quarantined: counts.quarantined,
          'in-use': counts.inUse,
        },
        quarantineDays: deps.quarantineDays,
      };
    },

    /**
     * Ends the quarantine of `msisdn` now (a `number_releases` row), inside the caller's
     * transaction `tx` (which records the audit entry with it). Only a number resting in
     * quarantine now: 404 NOT_FOUND outside the number plan with no line, 409
     * STAFF_ACTION_NOT_ALLOWED otherwise. The resting line is locked, so of two releases at once
     * one is refused.
     */
    async release(
      tx: Db,
      msisdn: string,
      input: { releasedBy: string; reason: string },
    ): Promise<StaffNumberRelease> {
      const at = now();
      const since = quarantineSince(at);
      const line = await lockQuarantiningLine(tx, msisdn, since);
      // Asked again after the lock (a statement of its own sees a release committed meanwhile).
      if (!line || !(await isQuarantined(tx, msisdn, since))) {
        if (!line && !isProviderNumber(msisdn)) {
          throw new AppError('NOT_FOUND', { detail: 'no such number in the number plan' });
        }
        throw new AppError('STAFF_ACTION_NOT_ALLOWED', {
          detail: 'the number is not in quarantine',
        });
      }
      if (await findLiveLine(tx, msisdn)) {
        throw new AppError('STAFF_ACTION_NOT_ALLOWED', { detail: 'the number is in use' });
      }
      // A customer's own number stays taken for the number search (takenNumbers): a release
      // would free nothing, and would tell the desk it did.
      if (await findUserByPhoneNumber(tx, msisdn)) {
        throw new AppError('STAFF_ACTION_NOT_ALLOWED', {
          detail: "the number is a customer's own number",
        });
      }
      const row = await insertRelease(tx, {
        msisdn,
        // A release ends the quarantine of the cancellations before it. A line whose end was
        // recorded ahead of the clock (the demo's simulated month end) is released as of its end.
        releasedAt: new Date(Math.max(at.getTime(), line.cancelledAt.getTime())),
        releasedBy: input.releasedBy,
        reason: input.reason,
      });
      return {
        id: row.id,
        msisdn: row.msisdn,
        releasedAt: row.releasedAt.toISOString(),
        releasedBy: row.releasedBy,
        reason: row.reason,
        cancelledAt: line.cancelledAt.toISOString(),
      };
    },
  };
}

export type NumberInventory = ReturnType<typeof createNumberInventory>;
