import { describe, expect, it } from 'vitest';
import { reachedThreshold } from './alerts';

describe('reachedThreshold (issue 16 usage alerts, ADR 0066)', () => {
  it('answers the highest of 80 and 100 % a bucket has reached, counted exactly', () => {
    expect(reachedThreshold(0, 10_240)).toBeNull();
    expect(reachedThreshold(8_191, 10_240)).toBeNull();
    expect(reachedThreshold(8_192, 10_240)).toBe(80);
    expect(reachedThreshold(10_239, 10_240)).toBe(80);
    expect(reachedThreshold(10_240, 10_240)).toBe(100);
    // Without rounding: 80 % of 3 MB is 2.4 MB.
    expect(reachedThreshold(2, 3)).toBeNull();
    expect(reachedThreshold(3, 3)).toBe(100);
  });

  it('never alerts on an empty bucket or an unlimited plan (SPEC §9: ≥ 1,024,000 MB)', () => {
    expect(reachedThreshold(0, 0)).toBeNull();
    expect(reachedThreshold(2_000_000, 1_024_000)).toBeNull();
  });
});
