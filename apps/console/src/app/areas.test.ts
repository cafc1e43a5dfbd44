import { describe, expect, it } from 'vitest';
import { STAFF_ROLES, type StaffRole } from '@alda/contract/schemas/staff';
import { AREA_IDS, areaOfPath, areasFor, landingPath, mayUse } from './areas';

/**
 * Issue 31 and ADR 0075 "Roles": the areas each role may use, in the navigation's order; issue 46
 * (ADR 0088 "Roles"): the support inbox for support, its saved replies for content.
 */
const EXPECTED: Record<StaffRole, string[]> = {
  support: ['customers', 'support', 'orders', 'payments', 'numbers'],
  provisioning: ['customers', 'orders', 'numbers'],
  content: ['status', 'content', 'saved-replies'],
  admin: [
    'customers',
    'support',
    'orders',
    'payments',
    'status',
    'content',
    'saved-replies',
    'numbers',
    'audit',
    'staff',
    'partners',
  ],
};

describe('which areas a role may use (areas.ts)', () => {
  it.each(STAFF_ROLES)('%s sees exactly its areas, in the navigation order', (role) => {
    expect(areasFor(role).map((area) => area.id)).toEqual(EXPECTED[role]);
  });

  it.each(STAFF_ROLES)('%s may use its areas and no other', (role) => {
    for (const area of AREA_IDS) {
      expect(mayUse(role, area), `${role} → ${area}`).toBe(EXPECTED[role].includes(area));
    }
  });

  it('keeps the audit log and staff accounts to admins', () => {
    for (const role of ['support', 'provisioning', 'content'] as const) {
      expect(mayUse(role, 'audit')).toBe(false);
      expect(mayUse(role, 'staff')).toBe(false);
    }
  });

  it('keeps the support inbox from provisioning and content, and saved replies to content (issue 46)', () => {
    expect(mayUse('provisioning', 'support')).toBe(false);
    expect(mayUse('content', 'support')).toBe(false);
    expect(mayUse('support', 'saved-replies')).toBe(false);
    expect(mayUse('provisioning', 'saved-replies')).toBe(false);
    expect(mayUse('content', 'saved-replies')).toBe(true);
  });

  it('lands each role on the first area it may use', () => {
    expect(landingPath('support')).toBe('/customers');
    expect(landingPath('provisioning')).toBe('/customers');
    expect(landingPath('content')).toBe('/status');
    expect(landingPath('admin')).toBe('/customers');
  });

  it('finds the area of a path', () => {
    expect(areaOfPath('/orders/5b0f')?.id).toBe('orders');
    expect(areaOfPath('/audit')?.id).toBe('audit');
    expect(areaOfPath('/support/5b0f')?.id).toBe('support');
    expect(areaOfPath('/saved-replies')?.id).toBe('saved-replies');
    expect(areaOfPath('/sign-in')).toBeUndefined();
    expect(areaOfPath('/')).toBeUndefined();
  });
});
