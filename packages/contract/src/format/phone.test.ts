import { describe, expect, it } from 'vitest';
import { formatPhoneNumber } from './phone';

describe('formatPhoneNumber', () => {
  it('groups a 6-digit Faroese number in pairs, as people write it', () => {
    expect(formatPhoneNumber('214455')).toBe('21 44 55');
  });

  it('leaves anything that is not 6 digits as it is', () => {
    expect(formatPhoneNumber('21445')).toBe('21445');
    expect(formatPhoneNumber('')).toBe('');
  });
});
