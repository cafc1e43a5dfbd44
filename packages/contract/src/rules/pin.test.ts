import { describe, expect, it } from 'vitest';
import { isPinCode } from './pin';

describe('SPEC §5 PIN: a one-time code is six digits', () => {
  it('takes six digits and nothing else', () => {
    expect(isPinCode('012345')).toBe(true);
    for (const bad of ['', '12345', '1234567', '12a456', ' 123456', '１２３４５６']) {
      expect(isPinCode(bad), bad).toBe(false);
    }
  });
});
