import type {
  StaffStatusMessage,
  StaffStatusPublishRequest,
} from '@alda/contract/schemas/staff-status';
import type { Db } from '../../db/client';
import type { StatusMessageRow } from '../../db/schema/status-messages';
import { AppError } from '../../errors';
import type { StaffCaller } from '../../plugins/staff-auth';
import { OperatorError, type OperatorService } from '../operator/service';
import { getStatusMessage, statusMessageStateAt } from '../status/messages-service';

/*
 * The staff console's status messages (issue 31 "Status messages"; SPEC §1, §4). Role `content`
 * (and `admin`). One set of rules with the command line: publishing and ending go through the
 * operator service (`npm run operator -- status publish|end`), which writes the message and its
 * audit entry in one transaction; the console's entry carries the staff member's id. What this
 * adds is the console's answers: a bad window is 400 STATUS_WINDOW_INVALID, an unknown message
 * 404 NOT_FOUND, a message that has ended already 409 STAFF_ACTION_NOT_ALLOWED — each in the
 * caller's language, where the command line prints its own sentences.
 */

/** How many messages the list shows (newest first); the operator's `status list` default is 20. */
export const STATUS_LIST_LIMIT = 200;

export interface StaffStatusServiceDeps {
  db: Db;
  now: () => Date;
  operator: Pick<OperatorService, 'publishStatus' | 'endStatus' | 'listStatus'>;
}

export function toStaffStatusMessage(row: StatusMessageRow, now: Date): StaffStatusMessage {
  return {
    id: row.id,
    titleFo: row.titleFo,
    titleEn: row.titleEn,
    bodyFo: row.bodyFo,
    bodyEn: row.bodyEn,
    activeFrom: row.activeFrom?.toISOString() ?? null,
    activeTo: row.activeTo?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    state: statusMessageStateAt(row, now),
    urgent: row.urgent,
  };
}

export function createStaffStatusService({ db, now, operator }: StaffStatusServiceDeps) {
  return {
    async list(): Promise<StaffStatusMessage[]> {
      const rows = await operator.listStatus(STATUS_LIST_LIMIT);
      const at = now();
      return rows.map((row) => toStaffStatusMessage(row, at));
    },

    /**
     * Publishes a message: from `activeFrom`, or now when it is absent or past (a message cannot
     * have been shown before it was written); until `activeTo`, which must lie after that start.
     * An urgent one is pushed too, at that start (the operator service's rule).
     */
    async publish(body: StaffStatusPublishRequest, who: StaffCaller): Promise<StaffStatusMessage> {
      const at = now();
      const asked = body.activeFrom ? new Date(body.activeFrom) : null;
      const activeFrom = asked && asked.getTime() > at.getTime() ? asked : at;
      const activeTo = body.activeTo ? new Date(body.activeTo) : null;
      if (activeTo && activeTo.getTime() <= activeFrom.getTime())
        throw new AppError('STATUS_WINDOW_INVALID', {
          field: 'activeTo',
          detail: `activeTo ${activeTo.toISOString()} is not after the start ${activeFrom.toISOString()}`,
        });
      const row = await operator
        .publishStatus(
          who.actor,
          {
            titleFo: body.titleFo,
            titleEn: body.titleEn,
            bodyFo: body.bodyFo,
            bodyEn: body.bodyEn,
            activeFrom,
            activeTo,
            urgent: body.urgent,
          },
          { staffUserId: who.id, reason: body.reason ?? null },
        )
        .catch((error: unknown) => {
          // The schema and the window check above refuse all the operator service would.
          throw error instanceof OperatorError
            ? new AppError('VALIDATION_FAILED', { detail: error.message })
            : error;
        });
      return toStaffStatusMessage(row, now());
    },

    /** Ends a message now: POST /api/status stops answering it at once. */
    async end(id: string, reason: string, who: StaffCaller): Promise<StaffStatusMessage> {
      const existing = await getStatusMessage(db, id);
      if (!existing) throw new AppError('NOT_FOUND', { detail: `no status message ${id}` });
      if (statusMessageStateAt(existing, now()) === 'ended')
        throw new AppError('STAFF_ACTION_NOT_ALLOWED', {
          detail: `status message ${id} has already ended`,
        });
      const row = await operator
        .endStatus(who.actor, id, reason, { staffUserId: who.id })
        .catch((error: unknown) => {
          // Ended by someone else between the check and the change.
          throw error instanceof OperatorError
            ? new AppError('STAFF_ACTION_NOT_ALLOWED', { detail: error.message })
            : error;
        });
      return toStaffStatusMessage(row, now());
    },
  };
}

export type StaffStatusService = ReturnType<typeof createStaffStatusService>;
