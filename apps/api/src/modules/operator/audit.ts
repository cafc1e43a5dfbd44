import { and, desc, eq, gte, ilike, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import type { AuditEntry, AuditPage, AuditQuery } from '@alda/contract/schemas/staff';
import type { Db } from '../../db/client';
import { keysetPage } from '../../db/keyset';
import { escapeLike } from '../../db/like';
import { operatorActions, type OperatorActionRow } from '../../db/schema/provisioning';

/*
 * The audit log of the staff side (docs/decisions/0075-staff-console.md): one home for writing
 * and reading it. Every console change and every read of a customer's personal data is recorded
 * here, in the transaction of the change (or before the read's answer is sent); the operator
 * command's changes land in the same table. Append-only: the table refuses UPDATE and DELETE.
 */

export interface AuditRecord {
  /** `staff:<email>` (console) or the operator's name (command line). */
  actor: string;
  staffUserId?: string | null;
  kind: 'read' | 'change';
  /** A dotted verb: `customer.view`, `order.retry`, `payment.refund`, `staff.create`, … */
  action: string;
  targetType?: string | null;
  targetId?: string | null;
  reason?: string | null;
  details?: Record<string, unknown> | null;
  at: Date;
}

/** Writes one entry; call it with the transaction of the change it records. */
export async function recordAudit(db: Db, entry: AuditRecord): Promise<OperatorActionRow> {
  const [row] = await db
    .insert(operatorActions)
    .values({
      operator: entry.actor,
      staffUserId: entry.staffUserId ?? null,
      kind: entry.kind,
      verb: entry.action,
      targetType: entry.targetType ?? null,
      target: entry.targetId ?? null,
      reason: entry.reason ?? null,
      details: entry.details ?? null,
      at: entry.at,
    })
    .returning();
  if (!row) throw new Error('operator_actions insert returned no row');
  return row;
}

/**
 * Whether this staff session already has an entry of `action` on `target` (`details.sessionId`):
 * a read recorded once per session and thing, and the customer area's access grant
 * (`customer.open`). Uses the index on `operator_actions.target`.
 */
export async function hasEntryInSession(
  db: Db,
  entry: { action: string; target: string; staffUserId: string; sessionId: string },
): Promise<boolean> {
  const [row] = await db
    .select({ id: operatorActions.id })
    .from(operatorActions)
    .where(
      and(
        eq(operatorActions.target, entry.target),
        eq(operatorActions.verb, entry.action),
        eq(operatorActions.staffUserId, entry.staffUserId),
        sql`${operatorActions.details} ->> 'sessionId' = ${entry.sessionId}`,
      ),
    )
    .limit(1);
  return row !== undefined;
}

export function auditEntryDto(row: OperatorActionRow): AuditEntry {
  return {
    id: row.id,
    at: row.at.toISOString(),
    kind: row.kind,
    actor: row.operator,
    action: row.verb,
    targetType: row.targetType,
    targetId: row.target,
    reason: row.reason,
    details: row.details ?? null,
  };
}

/** A page of the log, newest first, filtered as asked. */
export async function listAudit(db: Db, query: AuditQuery): Promise<AuditPage> {
  const where: SQL[] = [];
  if (query.actor) where.push(ilike(operatorActions.operator, `%${escapeLike(query.actor)}%`));
  if (query.action) where.push(ilike(operatorActions.verb, `${escapeLike(query.action)}%`));
  if (query.targetId) where.push(eq(operatorActions.target, query.targetId));
  if (query.from) where.push(gte(operatorActions.at, new Date(query.from)));
  if (query.to) where.push(lte(operatorActions.at, new Date(query.to)));
  if (query.before) {
    const [anchor] = await db
      .select({ at: operatorActions.at, id: operatorActions.id })
      .from(operatorActions)
      .where(eq(operatorActions.id, query.before));
    if (anchor) {
      const older = or(
        lt(operatorActions.at, anchor.at),
        and(eq(operatorActions.at, anchor.at), lt(operatorActions.id, anchor.id)),
      );
      if (older) where.push(older);
    }
  }
  const rows = await db
    .select()
    .from(operatorActions)
    .where(where.length > 0 ? and(...where) : undefined)
    .orderBy(desc(operatorActions.at), desc(operatorActions.id))
    .limit(query.limit + 1);
  const { page, nextBefore } = keysetPage(rows, query.limit, (row) => row.id);
  return { items: page.map(auditEntryDto), nextBefore };
}

const CSV_COLUMNS = [
  'at',
  'kind',
  'actor',
  'action',
  'targetType',
  'targetId',
  'reason',
  'details',
] as const;

/** One CSV field (RFC 4180), with formula-looking text defused for spreadsheets (OWASP CSV injection). */
function csvField(value: unknown): string {
  let text =
    value === null || value === undefined
      ? ''
      : typeof value === 'string'
        ? value
        : JSON.stringify(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The log as CSV, every entry matching the filters (newest first), in pages of 500. */
export async function* auditCsv(
  db: Db,
  query: Omit<AuditQuery, 'limit' | 'before'>,
): AsyncGenerator<string> {
  yield `${CSV_COLUMNS.join(',')}\r\n`;
  let before: string | undefined;
  for (;;) {
    const page = await listAudit(db, { ...query, before, limit: 500 });
    let chunk = '';
    for (const entry of page.items) {
      chunk += `${CSV_COLUMNS.map((column) => csvField(entry[column])).join(',')}\r\n`;
    }
    if (chunk) yield chunk;
    if (!page.nextBefore) return;
    before = page.nextBefore;
  }
}
