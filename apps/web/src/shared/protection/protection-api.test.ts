import { describe, expect, it } from 'vitest';
import type { LineProtection } from '@alda/contract/schemas/number-protection';
import { untilUnlock } from './protection-api';

const NOW = Date.parse('2025-06-03T13:00:00.000Z');
const line = (lock: LineProtection['lock']): LineProtection => ({
  lineId: 'sub-joannes',
  phoneNumber: '214455',
  lock,
  unlockDelayMinutes: 24 * 60,
  simChangedAt: null,
  portOutCode: null,
});
const unlockingAt = (unlockAt: string) =>
  line({ state: 'unlocking', unlockAt, requestedAt: '2025-06-02T13:00:00.000Z' });

describe('untilUnlock: the lock is read again when a waiting unlock opens (ADR 0076)', () => {
  it('waits until just after the unlock time', () => {
    expect(untilUnlock(unlockingAt('2025-06-03T13:10:00.000Z'), NOW)).toBe(600_500);
  });

  it('reads at least every hour and at most every second', () => {
    expect(untilUnlock(unlockingAt('2025-06-04T13:00:00.000Z'), NOW)).toBe(3_600_000);
    expect(untilUnlock(unlockingAt('2025-06-03T12:00:00.000Z'), NOW)).toBe(1_000);
  });

  it('does not poll a locked, an unlocked or a not yet loaded number', () => {
    expect(untilUnlock(line({ state: 'locked', unlockAt: null, requestedAt: null }), NOW)).toBe(
      false,
    );
    expect(untilUnlock(line({ state: 'unlocked', unlockAt: null, requestedAt: null }), NOW)).toBe(
      false,
    );
    expect(untilUnlock(undefined, NOW)).toBe(false);
  });
});
