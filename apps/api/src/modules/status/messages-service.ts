import type { Db } from '../../db/client';
import type { StatusMessageRow } from '../../db/schema/status-messages';
import {
  endStatusMessageAt,
  findAllStatusMessages,
  findStatusMessage,
  insertStatusMessage,
  isInWindow,
} from './repo';

/*
 * Writing status messages (SPEC §1, §4 "Status messages"): the operator command publishes and
 * ends them (docs/decisions/0055-provisioning.md "Operators"). Each function takes the caller's
 * transaction, so the change and its operator_actions row commit together. What POST
 * /api/status shows is decided by the window alone (docs/decisions/0010-status-message-window.md).
 */

export interface NewStatusMessage {
  titleFo: string;
  titleEn: string;
  bodyFo: string;
  bodyEn: string;
  /** Shown from (inclusive); null = at once. */
  activeFrom: Date | null;
  /** Shown until (exclusive); null = until ended. */
  activeTo: Date | null;
  /** Staff marked it urgent: it is also pushed (issue 64); false when absent. */
  urgent?: boolean;
}

export function publishStatusMessage(db: Db, message: NewStatusMessage): Promise<StatusMessageRow> {
  return insertStatusMessage(db, message);
}

/**
 * Where a message stands at `now`: `ended` once its window has closed (also a message ended
 * before it started), `scheduled` while its window lies ahead, else `active` — exactly the
 * messages POST /api/status answers (docs/decisions/0010-status-message-window.md).
 */
export function statusMessageStateAt(
  row: Pick<StatusMessageRow, 'activeFrom' | 'activeTo'>,
  now: Date,
): 'scheduled' | 'active' | 'ended' {
  if (isInWindow(row, now)) return 'active';
  if (row.activeTo && row.activeTo.getTime() <= now.getTime()) return 'ended';
  return 'scheduled';
}

/** One message by id, whatever its window. */
export function getStatusMessage(db: Db, id: string): Promise<StatusMessageRow | undefined> {
  return findStatusMessage(db, id);
}

/** The newest `limit` messages, whatever their window. */
export function listStatusMessages(db: Db, limit: number): Promise<StatusMessageRow[]> {
  return findAllStatusMessages(db, limit);
}

export type EndStatusMessageResult =
  | { outcome: 'ended'; message: StatusMessageRow }
  | { outcome: 'already-ended'; message: StatusMessageRow }
  | { outcome: 'not-found' };

/** Ends a message now (`active_to = at`); one that has already ended keeps its end. */
export async function endStatusMessage(
  db: Db,
  id: string,
  at: Date,
): Promise<EndStatusMessageResult> {
  const ended = await endStatusMessageAt(db, id, at);
  if (ended) return { outcome: 'ended', message: ended };
  const existing = await findStatusMessage(db, id);
  return existing ? { outcome: 'already-ended', message: existing } : { outcome: 'not-found' };
}
