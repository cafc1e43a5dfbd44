import type { Locale } from '@alda/contract/locale';
import type { Plan, PlansResponse } from '@alda/contract/schemas/plans';
import type { Db } from '../../db/client';
import { AppError } from '../../errors';
import { toPlanDto, localized } from './dto';
import { findOfferedCatalog, findOfferedPlanTypes } from './repo';
import { findPlansByIds } from './catalogue';

export interface PlanServiceDeps {
  db: Db;
}

/** The plan catalogue (SPEC §3 "Plan", "Plan type"; §7 GET plans, GET plans/{id}). */
export function createPlanService(deps: PlanServiceDeps) {
  const { db } = deps;
  return {
    /** Plan types on offer, each with its plans on offer (`dataPlanResponses`), in order. */
    async list(locale: Locale): Promise<PlansResponse> {
      const [types, rows] = await Promise.all([findOfferedPlanTypes(db), findOfferedCatalog(db)]);
      return types.map((type) => ({
        id: type.id,
        name: localized(type, locale),
        type: type.kind,
        dataPlanResponses: rows
          .filter((row) => row.type.id === type.id)
          .map((row) => toPlanDto(row.plan, row.type, locale)),
      }));
    },

    /** One plan by id, also a withdrawn one (a line may still have it); else NOT_FOUND. */
    async get(planId: string, locale: Locale): Promise<Plan> {
      const [row] = await findPlansByIds(db, [planId]);
      if (!row) throw new AppError('NOT_FOUND', { field: 'id', detail: `no plan ${planId}` });
      return toPlanDto(row.plan, row.type, locale);
    },
  };
}

export type PlanService = ReturnType<typeof createPlanService>;
