import { and, asc, eq, gt, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { outboxMessages, type OutboxMessageRow } from '../../db/schema/outbox';
import { sameSmscId } from '../sms/smpp-receipt';

/*
 * The SMPP adapter's queue is `outbox_messages` (docs/decisions/0084-sms-smpp.md): a row per SMS
 * from `queued` to `sent` to `delivered` or `failed`. Every instance's dispatcher claims due rows
 * with FOR UPDATE SKIP LOCKED and holds them under a lease (`next_attempt_at` moved ahead), so
 * instances share the queue and a dead instance's claim runs out. Every later write of the
 * dispatcher names its lease: a row whose lease is gone (another instance took it over, or the
 * code's deadline failed it) is not touched.
 */

/** NOTIFY channel: a row was queued (payload: its id); every instance's dispatcher wakes. */
export const SMS_QUEUED_CHANNEL = 'sms_queued';

export interface QueuedSms {
  /** The row's id, when the caller needs it before the row can be claimed; else a new one. */
  id?: string;
  recipient: string;
  text: string;
  encoding: 'gsm7' | 'ucs2';
  parts: number;
  /** One-time codes: the instant after which it must never go out. */
  deadlineAt: Date | null;
  /** When the content stops being of use (sent as validity_period); null: no end. */
  expiresAt?: Date | null;
}

/** Inserts a queued SMS, due at once, and tells every instance's dispatcher (after the commit). */
export async function enqueueSms(db: Db, sms: QueuedSms, now: Date): Promise<OutboxMessageRow> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(outboxMessages)
      .values({
        ...(sms.id ? { id: sms.id } : {}),
        channel: 'sms',
        recipient: sms.recipient,
        text: sms.text,
        state: 'queued',
        stateAt: now,
        createdAt: now,
        encoding: sms.encoding,
        parts: sms.parts,
        nextAttemptAt: now,
        deadlineAt: sms.deadlineAt,
        expiresAt: sms.expiresAt ?? null,
      })
      .returning();
    if (!row) throw new Error('insert into outbox_messages returned no row');
    await tx.execute(sql`select pg_notify(${SMS_QUEUED_CHANNEL}, ${row.id})`);
    return row;
  });
}

/**
 * Claims up to `limit` due rows for one submit round: queued, due, and (for codes) before their
 * deadline; oldest due first. The claim moves `next_attempt_at` to `lease` and counts the
 * attempt; committed at once.
 */
export async function claimDueSms(
  db: Db,
  options: { now: Date; lease: Date; limit: number },
): Promise<OutboxMessageRow[]> {
  return db.transaction(async (tx) => {
    const due = await tx
      .select({ id: outboxMessages.id })
      .from(outboxMessages)
      .where(
        and(
          eq(outboxMessages.state, 'queued'),
          lte(outboxMessages.nextAttemptAt, options.now),
          or(isNull(outboxMessages.deadlineAt), gt(outboxMessages.deadlineAt, options.now)),
        ),
      )
      .orderBy(asc(outboxMessages.nextAttemptAt), asc(outboxMessages.createdAt))
      .limit(options.limit)
      .for('update', { skipLocked: true });
    if (due.length === 0) return [];
    return tx
      .update(outboxMessages)
      .set({ nextAttemptAt: options.lease, attempts: sql`${outboxMessages.attempts} + 1` })
      .where(
        inArray(
          outboxMessages.id,
          due.map((d) => d.id),
        ),
      )
      .returning();
  });
}

/** The row is still queued under this dispatcher's lease. */
const leaseHeld = (id: string, lease: Date) =>
  and(
    eq(outboxMessages.id, id),
    eq(outboxMessages.state, 'queued'),
    eq(outboxMessages.nextAttemptAt, lease),
  );

/**
 * Every part was accepted: `sent` (or `delivered` when receipts for every part came already).
 * False when the lease was lost meanwhile (a code's deadline failed it): the ids are kept then,
 * the state is not changed.
 */
export async function markSubmitted(
  db: Db,
  id: string,
  lease: Date,
  smscIds: readonly string[],
  now: Date,
): Promise<boolean> {
  const done = await db
    .update(outboxMessages)
    .set({
      state: sql`case when cardinality(${outboxMessages.deliveredIds}) >= ${smscIds.length} then 'delivered' else 'sent' end`,
      stateAt: now,
      smscIds: [...smscIds],
      nextAttemptAt: null,
      error: null,
    })
    .where(leaseHeld(id, lease))
    .returning({ id: outboxMessages.id });
  if (done.length > 0) return true;
  // Failed by its deadline meanwhile: what did go out is still written down.
  await db
    .update(outboxMessages)
    .set({ smscIds: [...smscIds] })
    .where(and(eq(outboxMessages.id, id), eq(outboxMessages.state, 'failed')));
  return false;
}

/**
 * A temporary failure (throttled, the SMSC busy or gone): the parts accepted so far are kept, so
 * the next round resumes at the first part not yet accepted; due again at `retryAt`. `uncount`:
 * the round did not count as an attempt (the connection was lost, the SMSC refused nothing).
 */
export async function markRetry(
  db: Db,
  id: string,
  lease: Date,
  update: { smscIds: readonly string[]; retryAt: Date; error: string | null; uncount?: boolean },
): Promise<void> {
  await db
    .update(outboxMessages)
    .set({
      smscIds: [...update.smscIds],
      nextAttemptAt: update.retryAt,
      error: update.error,
      ...(update.uncount ? { attempts: sql`greatest(${outboxMessages.attempts} - 1, 0)` } : {}),
    })
    .where(leaseHeld(id, lease));
}

/** A permanent failure of a claimed row (refused by the SMSC, or retried too often). */
export async function markFailed(
  db: Db,
  id: string,
  lease: Date,
  update: { smscIds: readonly string[]; error: string; now: Date },
): Promise<void> {
  await db
    .update(outboxMessages)
    .set({
      state: 'failed',
      stateAt: update.now,
      smscIds: [...update.smscIds],
      nextAttemptAt: null,
      error: update.error,
    })
    .where(leaseHeld(id, lease));
}

/**
 * A one-time code whose deadline came before the SMSC accepted it: failed, whether or not a
 * dispatcher holds it, so no dispatcher sends it later. False when it was no longer queued.
 */
export async function failUnsent(db: Db, id: string, error: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(outboxMessages)
    .set({ state: 'failed', stateAt: now, nextAttemptAt: null, error })
    .where(and(eq(outboxMessages.id, id), eq(outboxMessages.state, 'queued')))
    .returning({ id: outboxMessages.id });
  return rows.length > 0;
}

/**
 * Codes past their deadline that nobody failed yet (the instance that waited for them died):
 * failed, with how long they had. Returns how many.
 */
export async function failOverdueSms(db: Db, now: Date): Promise<number> {
  const rows = await db
    .update(outboxMessages)
    .set({
      state: 'failed',
      stateAt: now,
      nextAttemptAt: null,
      error: sql`'not sent within ' || round(extract(epoch from ${outboxMessages.deadlineAt} - ${outboxMessages.createdAt}))::int || ' s'`,
    })
    .where(and(eq(outboxMessages.state, 'queued'), lte(outboxMessages.deadlineAt, now)))
    .returning({ id: outboxMessages.id });
  return rows.length;
}

/** When the next queued row falls due (a retry, or a claim's lease running out); null if none. */
export async function nextDueAt(db: Db): Promise<Date | null> {
  const [row] = await db
    .select({ at: sql<Date | string | null>`min(${outboxMessages.nextAttemptAt})` })
    .from(outboxMessages)
    .where(eq(outboxMessages.state, 'queued'));
  return row?.at ? new Date(row.at) : null;
}

/** A row's state now (the waiting code send reads it). */
export async function findSmsState(
  db: Db,
  id: string,
): Promise<Pick<OutboxMessageRow, 'state' | 'error'> | undefined> {
  const [row] = await db
    .select({ state: outboxMessages.state, error: outboxMessages.error })
    .from(outboxMessages)
    .where(eq(outboxMessages.id, id));
  return row;
}

/** The newest SMS one of whose parts the SMSC gave this id. */
async function rowOfSmscId(db: Db, smscId: string): Promise<string | undefined> {
  const [row] = await db
    .select({ id: outboxMessages.id })
    .from(outboxMessages)
    .where(
      and(
        eq(outboxMessages.channel, 'sms'),
        sql`${outboxMessages.smscIds} @> array[${smscId}]::text[]`,
      ),
    )
    .orderBy(sql`${outboxMessages.createdAt} desc`)
    .limit(1);
  return row?.id;
}

/** How many of a number's newest unsettled SMS a receipt id in another form is looked for in. */
const OTHER_FORM_ROWS = 50;

/**
 * The newest unsettled SMS to `recipient` one of whose parts has an id the receipt's names in
 * another form (the decimal form of a hex id; {@link sameSmscId}), and that part's id as stored.
 */
async function rowOfOtherFormId(
  db: Db,
  receiptId: string,
  recipient: string,
): Promise<{ id: string; smscId: string } | undefined> {
  const rows = await db
    .select({ id: outboxMessages.id, smscIds: outboxMessages.smscIds })
    .from(outboxMessages)
    .where(
      and(
        eq(outboxMessages.channel, 'sms'),
        eq(outboxMessages.recipient, recipient),
        inArray(outboxMessages.state, ['queued', 'sent']),
      ),
    )
    .orderBy(sql`${outboxMessages.createdAt} desc`)
    .limit(OTHER_FORM_ROWS);
  for (const row of rows) {
    const smscId = row.smscIds.find((id) => sameSmscId(receiptId, id));
    if (smscId !== undefined) return { id: row.id, smscId };
  }
  return undefined;
}

export type ReceiptResult = { found: false } | { found: true; id: string; state: string };

/**
 * A receipt for one part: DELIVRD marks the part delivered, and the row `delivered` once every
 * part is; a failed receipt fails the row with the SMSC's words. `found: false` when no row
 * has that part's id (yet: the receipt may come before the dispatcher wrote the ids). An id
 * found as it is wins; else, when the receipt names its phone (`recipient`, as stored), an id in
 * another form is looked for among that number's unsettled SMS.
 */
export async function applyReceipt(
  db: Db,
  receipt: {
    smscId: string;
    recipient?: string | null;
    outcome: 'delivered' | 'failed';
    error: string | null;
  },
  now: Date,
): Promise<ReceiptResult> {
  const exact = await rowOfSmscId(db, receipt.smscId);
  const match = exact
    ? { id: exact, smscId: receipt.smscId }
    : receipt.recipient
      ? await rowOfOtherFormId(db, receipt.smscId, receipt.recipient)
      : undefined;
  if (!match) return { found: false };
  const { id, smscId } = match;
  const m = outboxMessages;
  const withPart = sql`case when ${smscId} = any(${m.deliveredIds}) then ${m.deliveredIds} else array_append(${m.deliveredIds}, ${smscId}::text) end`;
  const [row] =
    receipt.outcome === 'delivered'
      ? await db
          .update(m)
          .set({
            deliveredIds: withPart,
            state: sql`case when ${m.state} = 'sent' and cardinality(${withPart}) >= ${m.parts} then 'delivered' else ${m.state} end`,
            stateAt: sql`case when ${m.state} = 'sent' and cardinality(${withPart}) >= ${m.parts} then ${now.toISOString()}::timestamptz else ${m.stateAt} end`,
          })
          .where(eq(m.id, id))
          .returning({ state: m.state })
      : await db
          .update(m)
          .set({ state: 'failed', stateAt: now, nextAttemptAt: null, error: receipt.error })
          .where(and(eq(m.id, id), inArray(m.state, ['queued', 'sent'])))
          .returning({ state: m.state });
  return { found: true, id, state: row?.state ?? 'unchanged' };
}
