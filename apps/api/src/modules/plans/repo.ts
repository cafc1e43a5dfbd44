import { and, asc, eq } from 'drizzle-orm';
import type { PlanWithType } from './catalogue';
import type { Db } from '../../db/client';
import { planTypes, plans, type PlanTypeRow } from '../../db/schema/catalog';

/** Plan types on offer and their plans on offer, in catalogue order. */
export async function findOfferedCatalog(db: Db): Promise<PlanWithType[]> {
  return db
    .select({ plan: plans, type: planTypes })
    .from(plans)
    .innerJoin(planTypes, eq(plans.planTypeId, planTypes.id))
    .where(and(eq(plans.isOffered, true), eq(planTypes.isOffered, true)))
    .orderBy(asc(planTypes.sortOrder), asc(planTypes.id), asc(plans.sortOrder), asc(plans.id));
}

/** Plan types on offer (also those without plans on offer), in catalogue order. */
export async function findOfferedPlanTypes(db: Db): Promise<PlanTypeRow[]> {
  return db
    .select()
    .from(planTypes)
    .where(eq(planTypes.isOffered, true))
    .orderBy(asc(planTypes.sortOrder), asc(planTypes.id));
}
