import { describe, expect, it } from 'vitest';
import { findForbiddenText } from '../src/plugins/input-guard';

describe('the input guard names the field of a forbidden character (issue 14, ADR 0061)', () => {
  it('finds NUL and lone surrogates at any depth and names the dotted path', () => {
    expect(findForbiddenText({ email: 'a\u0000@b.fo' }, '')).toBe('email');
    expect(findForbiddenText({ a: { b: ['ok', 'x\ud800'] } }, '')).toBe('a.b.1');
    expect(findForbiddenText({ device: { name: '\udc00' } }, 'body')).toBe('body.device.name');
    expect(findForbiddenText('\u0000', '')).toBe('');
  });

  it('passes clean text, paired surrogates and non-strings', () => {
    expect(findForbiddenText({ name: 'Rannvá 📱', n: 3, ok: true, none: null }, '')).toBeNull();
    expect(findForbiddenText({ list: [{ x: 'fine' }] }, '')).toBeNull();
  });

  it('ignores inherited keys', () => {
    const proto = { bad: '\u0000' };
    expect(findForbiddenText(Object.create(proto) as object, '')).toBeNull();
  });
});
