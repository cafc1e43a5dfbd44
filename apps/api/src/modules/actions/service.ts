import type { Locale } from '@alda/contract/locale';
import {
  ACTIONS_PAGE_SIZE,
  type ActionsPageResponse,
  type ActionsQuery,
  type ActionsResponse,
} from '@alda/contract/schemas/actions';
import type { Db } from '../../db/client';
import { countActionsOfUser, findActionsOfUser, type ActionWithRefs } from './repo';
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
      return toDtos(await findActionsOfUser(deps.db, userId, ACTIONS_LIMIT), locale);
    },

    /**
     * One page of the log, newest first. Without `page` the first {@link ACTIONS_LIMIT} entries
     * (the answer before paging existed); `meta` says where the page is.
     */
    async page(userId: string, query: ActionsQuery, locale: Locale): Promise<ActionsPageResponse> {
      const page = query.page ?? 0;
      const perPage =
        query.perPage ?? (query.page === undefined ? ACTIONS_LIMIT : ACTIONS_PAGE_SIZE);
      const [rows, total] = await Promise.all([
        findActionsOfUser(deps.db, userId, perPage, page * perPage),
        countActionsOfUser(deps.db, userId),
      ]);
      return {
        data: toDtos(rows, locale),
        meta: { page, perPage, total, hasMore: (page + 1) * perPage < total },
      };
    },
  };
}

function toDtos(rows: ActionWithRefs[], locale: Locale): ActionsResponse {
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
}

export type ActionService = ReturnType<typeof createActionService>;
