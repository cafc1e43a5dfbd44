import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  formatPortOutCode,
  isLockedAt,
  isPortOutCodeUsable,
  lockStateOf,
  moveLock,
  normalizePortOutCode,
  portOutCodeExpiresAt,
  portOutCodeFromRandom,
  PORT_OUT_CODE_DAYS,
  type LockColumns,
} from './number-protection';

const HOUR = 3_600_000;
type Step =
  | { type: 'lock' }
  | { type: 'request_unlock' }
  | { type: 'cancel_unlock' }
  | { type: 'wait'; ms: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.constant({ type: 'lock' as const }),
  fc.constant({ type: 'request_unlock' as const }),
  fc.constant({ type: 'cancel_unlock' as const }),
  fc.integer({ min: 0, max: 48 * HOUR }).map((ms) => ({ type: 'wait' as const, ms })),
);

describe('the number lock state machine (issue 32, ADR 0076)', () => {
  it('never unlocks before the delay since the request; lock always wins; cancel only while unlocking', () => {
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.integer({ min: 1, max: 48 }),
        fc.array(step, { maxLength: 40 }),
        (startLocked, delayH, steps) => {
          let now = new Date('2026-06-15T12:00:00Z');
          let columns: LockColumns = {
            numberLocked: startLocked,
            unlockAt: null,
            unlockRequestedAt: null,
          };
          // When the lock last became `locked` with no unlock waiting (null: open since start).
          let lockedSince: Date | null = startLocked ? now : null;
          // Whether the lock has opened (rightly) since it was last locked.
          let opened = !startLocked;
          for (const s of steps) {
            if (s.type === 'wait') {
              now = new Date(now.getTime() + s.ms);
            } else {
              const before = lockStateOf(columns, now);
              const event =
                s.type === 'request_unlock' ? { type: s.type, delayH } : { type: s.type };
              const move = moveLock(columns, event, now);
              if (s.type === 'cancel_unlock') {
                expect(move.ok).toBe(before.state === 'unlocking');
              } else {
                expect(move.ok).toBe(true);
              }
              if (!move.ok) continue;
              columns = move.columns;
              if (s.type === 'lock') {
                expect(lockStateOf(columns, now).state).toBe('locked');
                expect(isLockedAt(columns, now)).toBe(true);
                lockedSince = now;
                opened = false;
              }
              if (s.type === 'cancel_unlock')
                expect(lockStateOf(columns, now).state).toBe('locked');
            }
            const state = lockStateOf(columns, now);
            if (state.state === 'unlocked' && lockedSince && !opened) {
              // Open only once a request made after the last lock has waited its delay.
              expect(columns.unlockRequestedAt).not.toBeNull();
              const requested = columns.unlockRequestedAt?.getTime() ?? 0;
              expect(requested).toBeGreaterThanOrEqual(lockedSince.getTime());
              expect(now.getTime() - requested).toBeGreaterThanOrEqual(delayH * HOUR);
              opened = true;
            }
            if (state.state === 'unlocking')
              expect(state.unlockAt.getTime() - state.requestedAt.getTime()).toBe(delayH * HOUR);
          }
        },
      ),
    );
  });

  it('asking again while an unlock waits keeps the first time', () => {
    const now = new Date('2026-06-15T12:00:00Z');
    const first = moveLock(
      { numberLocked: true, unlockAt: null, unlockRequestedAt: null },
      { type: 'request_unlock', delayH: 24 },
      now,
    );
    if (!first.ok) throw new Error('refused');
    const again = moveLock(
      first.columns,
      { type: 'request_unlock', delayH: 24 },
      new Date(now.getTime() + HOUR),
    );
    expect(again).toEqual({ ok: true, columns: first.columns, changed: false });
  });
});

describe('port-out codes (issue 32, ADR 0076)', () => {
  it('normalize(format(code)) is the code, however it is typed', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 10, maxLength: 10 }), fc.boolean(), (bytes, lower) => {
        const code = portOutCodeFromRandom(bytes);
        expect(normalizePortOutCode(code)).toBe(code);
        const shown = formatPortOutCode(code);
        expect(shown).toMatch(/^[0-9A-Z]{4}-[0-9A-Z]{3}-[0-9A-Z]{3}$/);
        expect(normalizePortOutCode(lower ? shown.toLowerCase() : shown)).toBe(code);
        expect(normalizePortOutCode(shown.replace(/-/g, ' '))).toBe(code);
      }),
    );
  });

  it('works from the moment it is made until 30 days later, not a millisecond after; never once used or revoked', () => {
    fc.assert(
      fc.property(
        fc.date({
          min: new Date('2020-01-01T00:00:00Z'),
          max: new Date('2040-01-01T00:00:00Z'),
          noInvalidDate: true,
        }),
        fc.integer({ min: -5 * 86_400_000, max: 40 * 86_400_000 }),
        fc.boolean(),
        fc.boolean(),
        (createdAt, offsetMs, used, revoked) => {
          const expiresAt = portOutCodeExpiresAt(createdAt);
          expect(expiresAt.getTime() - createdAt.getTime()).toBe(PORT_OUT_CODE_DAYS * 86_400_000);
          const at = new Date(createdAt.getTime() + offsetMs);
          const code = {
            expiresAt,
            usedAt: used ? createdAt : null,
            revokedAt: revoked ? createdAt : null,
          };
          const inTime = at.getTime() < expiresAt.getTime();
          expect(isPortOutCodeUsable(code, at)).toBe(inTime && !used && !revoked);
        },
      ),
    );
  });

  it('reads I and L as 1 and O as 0; refuses wrong lengths and letters', () => {
    expect(normalizePortOutCode('OIL0-000-000')).toBe('0110000000');
    expect(normalizePortOutCode('ABCD-EFG-HJ')).toBeNull();
    expect(normalizePortOutCode('ABCD-EFG-HJU')).toBeNull();
  });
});
