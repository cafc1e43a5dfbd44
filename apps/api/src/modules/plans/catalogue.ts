import { eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { planTypes, plans, type PlanRow, type PlanTypeRow } from '../../db/schema/catalog';

// Public to other modules: plans by id, with their type (withdrawn plans included: lines keep them).

/** A plan with the type it belongs to. */
export interface PlanWithType {
  plan: PlanRow;
  type: PlanTypeRow;
}

/** Any plans by id, offered or withdrawn (lines keep withdrawn plans). */
export async function findPlansByIds(db: Db, ids: readonly string[]): Promise<PlanWithType[]> {
  if (ids.length === 0) return [];
  return db
    .select({ plan: plans, type: planTypes })
    .from(plans)
    .innerJoin(planTypes, eq(plans.planTypeId, planTypes.id))
    .where(inArray(plans.id, [...ids]));
}
