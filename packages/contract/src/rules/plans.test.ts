import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Plan, PlanTypeEntry } from '../schemas/plans';
import { allPlans, findPlan } from './plans';

const plan = (planId: string, type: Plan['type'] = 'individual_plan'): Plan => ({
  planId,
  type,
  name: planId,
  dataMb: 5_120,
  maxMembers: 1,
  memberPrices: [{ price: 14_900 }],
  planTypeName: 'Einstaklingur',
  euPackage: null,
  commitmentMonths: 6,
});

const planType = (id: string, planIds: string[]): PlanTypeEntry => ({
  id,
  name: id,
  type: 'individual_plan',
  dataPlanResponses: planIds.map((p) => plan(p)),
});

describe('plans (SPEC §3 "Plan type")', () => {
  it('flattens every plan type into allPlans, in order (SPEC §3)', () => {
    const types = [planType('a', ['a1', 'a2']), planType('b', []), planType('c', ['c1'])];
    expect(allPlans(types).map((p) => p.planId)).toEqual(['a1', 'a2', 'c1']);
    expect(findPlan(types, 'c1')?.planId).toBe('c1');
    expect(findPlan(types, 'zz')).toBeNull();
    expect(findPlan(types, null)).toBeNull();
  });

  it('keeps exactly the plans of all types (SPEC §3, property)', () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.string(), { maxLength: 5 }), { maxLength: 5 }), (ids) => {
        const types = ids.map((planIds, i) => planType(`t${i}`, planIds));
        expect(allPlans(types).map((p) => p.planId)).toEqual(ids.flat());
      }),
    );
  });
});
