import type { Plan, PlanTypeEntry } from '../schemas/plans';

/** SPEC §3 "allPlans is the flattened list of all plans": every plan of every type, in order. */
export function allPlans(planTypes: readonly Pick<PlanTypeEntry, 'dataPlanResponses'>[]): Plan[] {
  return planTypes.flatMap((t) => t.dataPlanResponses);
}

/** The plan with this id among all plan types, or null. */
export function findPlan(
  planTypes: readonly Pick<PlanTypeEntry, 'dataPlanResponses'>[],
  planId: string | null,
): Plan | null {
  if (planId === null) return null;
  return allPlans(planTypes).find((p) => p.planId === planId) ?? null;
}
