import { z } from 'zod/mini';
import { id, mb, oere } from './common';

/** SPEC §1, §3: the three kinds of plan. Prepaid is the talutíð plan a cancelled number becomes. */
export const planType = z.enum(['individual_plan', 'family_plan', 'prepaid']);
export type PlanType = z.infer<typeof planType>;

/**
 * One entry of a plan's member price list. SPEC §4: the next family member's price is the entry
 * at the index equal to the current member count, capped at the last entry.
 */
export const memberPrice = z.object({
  /** Monthly price of that member, with VAT, in øre. */
  price: oere.check(z.nonnegative()),
});
export type MemberPrice = z.infer<typeof memberPrice>;

/** The EU roaming package a plan can be combined with (toggled on a subscription). */
export const euPackageOffer = z.object({
  /** Monthly price with VAT, in øre. */
  price: oere.check(z.nonnegative()),
  /** Data for use abroad, in MB (SPEC §1 roaming offer: up to 50 GB). */
  dataMb: mb,
});
export type EuPackageOffer = z.infer<typeof euPackageOffer>;

/** SPEC §3 "Plan". */
export const plan = z.object({
  planId: id,
  type: planType,
  /** Display name in the requested language, e.g. '10 GB'. */
  name: z.string(),
  /** Monthly domestic data in MB; ≥ 1,024,000 shows as unlimited. */
  dataMb: mb,
  /** Members a subscription on this plan can hold (1 for individual and prepaid). */
  maxMembers: z.int().check(z.positive()),
  /** Price per member by position; the first entry is the plan's own price. Never empty. */
  memberPrices: z.array(memberPrice).check(z.minLength(1)),
  /** Name of the plan type the plan belongs to. */
  planTypeName: z.string(),
  /** The EU package that can be added, or null when the plan has none. */
  euPackage: z.nullable(euPackageOffer),
  /** Binding period in months (SPEC §1: 6-month commitment on new subscriptions). */
  commitmentMonths: z.int().check(z.nonnegative()),
});
export type Plan = z.infer<typeof plan>;

/** SPEC §3 "Plan type": a family of plans. `allPlans` is the flattened `dataPlanResponses`. */
export const planTypeEntry = z.object({
  id,
  name: z.string(),
  type: planType,
  dataPlanResponses: z.array(plan),
});
export type PlanTypeEntry = z.infer<typeof planTypeEntry>;

/** GET /api/plans. */
export const plansResponse = z.array(planTypeEntry);
export type PlansResponse = z.infer<typeof plansResponse>;

/** GET /api/plans/{id}: one plan by its planId. */
export const planResponse = plan;
export type PlanResponse = z.infer<typeof planResponse>;
