import { describe, expect, it } from 'vitest';
import { parseSmppUrl, relativeSmppTime } from './smpp-sender';

describe('SMPP settings and times (issue 61 §5)', () => {
  it('writes a validity_period as SMPP 3.4 relative time, YYMMDDhhmmss000R', () => {
    expect(relativeSmppTime(600)).toBe('000000001000000R');
    expect(relativeSmppTime(599.9)).toBe('000000000959000R');
    expect(relativeSmppTime(86_400 + 3_600 + 60 + 1)).toBe('000001010101000R');
    expect(relativeSmppTime(-3)).toBe('000000000000000R');
    expect(relativeSmppTime(1e9)).toBe('000099235959000R');
  });

  it('reads smpps:// as SMPP over TLS, on port 3550 unless another is given', () => {
    expect(parseSmppUrl('smpps://alda:p%40ss@smsc.example.fo')).toEqual({
      host: 'smsc.example.fo',
      port: 3550,
      systemId: 'alda',
      password: 'p@ss',
      tls: true,
    });
    expect(parseSmppUrl('smpp://alda:pw@smsc.example.fo')).toMatchObject({
      port: 2775,
      tls: false,
    });
    expect(parseSmppUrl('smpps://alda:pw@[::1]:3551')).toMatchObject({ host: '::1', port: 3551 });
  });
});
