import type { Locale } from '@alda/contract/locale';
import type { ActionsResponse } from '@alda/contract/schemas/actions';
import type { Db } from '../../db/client';
import { findActionsOfUser } from './repo';
import { actionText } from './texts';

/** Entries the log answers at most (the newest). */
export const ACTIONS_LIMIT = 100;

export interface ActionServiceDeps {
  db: Db;
}

/** The activity log (SPEC §1 "view the activity log", §7 GET actions). */
export function createActionService(deps: ActionServiceDeps) {
  return {
    /** The caller's newest entries (at most {@link ACTIONS_LIMIT}), sentences in `locale`. */
    async list(userId: string, locale: Locale): Promise<ActionsResponse> {
      const rows = await findActionsOfUser(deps.db, userId, ACTIONS_LIMIT);
      return rows.map(({ action, msisdn, actor }) => ({
        id: action.id,
        type: action.type,
        text: actionText(action, locale),
        phoneNumber: msisdn,
        actor,
        dataAmount: action.dataMb,
        amount: action.amountOere,
        createdAt: action.createdAt.toISOString(),
      }));
    },
  };
}

export type ActionService = ReturnType<typeof createActionService>;
