import { describe, expect, it } from 'vitest';
import { isOwnersOwnLine, purchaseNeedsApproval } from './controls';

const OWNER = 'owner-1';

describe('owner controls rules (issue 16.3, ADR 0068)', () => {
  it("issue 16.3: the owner's own number is the owner's user, or a number without a user and without a member's name", () => {
    expect(isOwnersOwnLine({ userId: OWNER, holderFirstname: null }, OWNER)).toBe(true);
    expect(isOwnersOwnLine({ userId: null, holderFirstname: null }, OWNER)).toBe(true);
  });

  it("issue 16.3: a member's number — with a login, or a child's number without one — is not the owner's", () => {
    expect(isOwnersOwnLine({ userId: 'member-1', holderFirstname: null }, OWNER)).toBe(false);
    expect(isOwnersOwnLine({ userId: null, holderFirstname: 'Bárður' }, OWNER)).toBe(false);
  });

  it('issue 16.3: only a member’s purchase waits for approval, and only while it is switched on', () => {
    expect(purchaseNeedsApproval({ purchaseApproval: true }, false)).toBe(true);
    expect(purchaseNeedsApproval({ purchaseApproval: true }, true)).toBe(false);
    expect(purchaseNeedsApproval({ purchaseApproval: false }, false)).toBe(false);
    expect(purchaseNeedsApproval({ purchaseApproval: false }, true)).toBe(false);
  });
});
