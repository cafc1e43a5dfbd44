import { describe, expect, it } from 'vitest';
import { fromFaroeInput, toFaroeInput } from './faroe-time';

describe('datetime-local values in Faroese time', () => {
  it('reads summer time as UTC+1 and winter time as UTC, whatever the computer’s zone', () => {
    expect(fromFaroeInput('2026-06-15T13:00')?.toISOString()).toBe('2026-06-15T12:00:00.000Z');
    expect(fromFaroeInput('2026-12-24T18:30')?.toISOString()).toBe('2026-12-24T18:30:00.000Z');
  });

  it('writes an instant as the Faroese clock shows it', () => {
    expect(toFaroeInput('2026-06-15T12:00:00.000Z')).toBe('2026-06-15T13:00');
    expect(toFaroeInput('2026-12-24T18:30:00.000Z')).toBe('2026-12-24T18:30');
  });

  it('answers null for an empty field or a day that does not exist', () => {
    expect(fromFaroeInput('')).toBeNull();
    expect(fromFaroeInput('2026-02-31T10:00')).toBeNull();
    expect(fromFaroeInput('tomorrow')).toBeNull();
  });
});
