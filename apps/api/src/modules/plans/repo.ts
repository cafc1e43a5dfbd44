import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { planTypes, plans, type PlanRow, type PlanTypeRow } from '../../db/schema/catalog';

/** A plan with the type it belongs to. */
export interface PlanWithType {
  plan: PlanRow;
  type: PlanTypeRow;
}

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

/** Any plans by id, offered or withdrawn (lines keep withdrawn plans). */
export async function findPlansByIds(db: Db, ids: readonly string[]): Promise<PlanWithType[]> {
  if (ids.length === 0) return [];
  return db
    .select({ plan: plans, type: planTypes })
    .from(plans)
    .innerJoin(planTypes, eq(plans.planTypeId, planTypes.id))
    .where(inArray(plans.id, [...ids]));
}

/** Inserts catalogue rows whose id is new; existing rows are left as they are (demo seed). */
export async function insertMissingCatalog(
  db: Db,
  rows: { planTypes: (typeof planTypes.$inferInsert)[]; plans: (typeof plans.$inferInsert)[] },
): Promise<void> {
  if (rows.planTypes.length > 0)
    await db.insert(planTypes).values(rows.planTypes).onConflictDoNothing();
  if (rows.plans.length > 0) await db.insert(plans).values(rows.plans).onConflictDoNothing();
}
