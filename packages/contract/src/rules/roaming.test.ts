import { describe, expect, it } from 'vitest';
import {
  ROAMING_CAP_LIMITS,
  capChangeNeedsConfirmation,
  capReached,
  roamingCapThreshold,
} from './roaming';

describe('roaming spend cap rules (issue 33 §2)', () => {
  it('reaches 80 % and 100 % of the cap exactly, in integers', () => {
    expect(roamingCapThreshold(0, 37_300)).toBeNull();
    expect(roamingCapThreshold(29_839, 37_300)).toBeNull();
    expect(roamingCapThreshold(29_840, 37_300)).toBe(80);
    expect(roamingCapThreshold(37_299, 37_300)).toBe(80);
    expect(roamingCapThreshold(37_300, 37_300)).toBe(100);
    expect(roamingCapThreshold(50_000, 37_300)).toBe(100);
  });

  it('has no threshold and never stops with the cap off', () => {
    expect(roamingCapThreshold(10_000_000, null)).toBeNull();
    expect(capReached(10_000_000, null)).toBe(false);
    expect(capReached(37_300, 37_300)).toBe(true);
    expect(capReached(37_299, 37_300)).toBe(false);
  });

  it('asks for the confirmation only when the change exposes the customer to more charges', () => {
    expect(capChangeNeedsConfirmation(37_300, null)).toBe(true);
    expect(capChangeNeedsConfirmation(37_300, 50_000)).toBe(true);
    expect(capChangeNeedsConfirmation(37_300, 20_000)).toBe(false);
    expect(capChangeNeedsConfirmation(37_300, 37_300)).toBe(false);
    expect(capChangeNeedsConfirmation(null, null)).toBe(false);
    // Turning a cap on again protects: no confirmation.
    expect(capChangeNeedsConfirmation(null, 37_300)).toBe(false);
  });

  it('keeps caps in whole kroner between 1 and 10,000 kr', () => {
    expect(ROAMING_CAP_LIMITS.minOere % ROAMING_CAP_LIMITS.stepOere).toBe(0);
    expect(ROAMING_CAP_LIMITS.maxOere).toBe(1_000_000);
  });
});
