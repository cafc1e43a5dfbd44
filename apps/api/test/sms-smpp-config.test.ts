import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config';

/* The SMPP settings an SMSC's operator gives us, checked at start (issue 61 §5; ADR 0084). */

const smpp = (more: Record<string, string>) => ({ SMS_ADAPTER: 'smpp', ...more });

describe('SMPP settings (issue 61 §5)', () => {
  it('stops at start on a system_id over 15 or a password over 8 characters, naming which, without printing the password', () => {
    expect(() =>
      loadConfig(smpp({ SMPP_URL: 'smpp://alda-selfcare-fo1:s3cret@smsc.example.fo' })),
    ).toThrow(/SMPP_URL's system_id must be at most 15 characters for SMPP 3\.4 \(it has 17\)/);
    let message = '';
    try {
      loadConfig(smpp({ SMPP_URL: 'smpp://alda:longer-secret@smsc.example.fo' }));
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(
      /SMPP_URL's password must be at most 8 characters for SMPP 3\.4 \(it has 13\)/,
    );
    expect(message).not.toContain('longer-secret');
    // 15 and 8, counted after percent-decoding, are fine.
    expect(
      loadConfig(smpp({ SMPP_URL: 'smpp://alda-selfcare-f:p%40ss%3A123@smsc.example.fo' })),
    ).toMatchObject({ smppUrl: 'smpp://alda-selfcare-f:p%40ss%3A123@smsc.example.fo' });
  });

  it('takes smpps:// for TLS, with SMPP_TLS_CA only beside it', () => {
    expect(
      loadConfig(
        smpp({ SMPP_URL: 'smpps://alda:pw@smsc.example.fo', SMPP_TLS_CA: '/etc/smsc-ca.pem' }),
      ),
    ).toMatchObject({ smppUrl: 'smpps://alda:pw@smsc.example.fo', smppTlsCa: '/etc/smsc-ca.pem' });
    expect(() =>
      loadConfig(smpp({ SMPP_URL: 'smpp://alda:pw@smsc.example.fo', SMPP_TLS_CA: '/etc/ca.pem' })),
    ).toThrow(/SMPP_TLS_CA is only used with an smpps:\/\/ SMPP_URL/);
    expect(() => loadConfig(smpp({ SMPP_URL: 'smtp://alda:pw@smsc.example.fo' }))).toThrow(
      /SMPP_URL must look like smpp:\/\/system_id:password@host:port \(smpps:\/\/ for TLS\)/,
    );
  });

  it('reads the alphabet of data_coding 0, system_type and address_range, within SMPP 3.4 sizes', () => {
    const url = { SMPP_URL: 'smpp://alda:pw@smsc.example.fo' };
    expect(loadConfig(smpp(url))).toMatchObject({
      smppAlphabet: 'gsm7',
      smppSystemType: undefined,
      smppAddressRange: undefined,
    });
    expect(
      loadConfig(
        smpp({
          ...url,
          SMPP_ALPHABET: 'gsm7-packed',
          SMPP_SYSTEM_TYPE: 'VMA',
          SMPP_ADDRESS_RANGE: '^298[0-9]{6}$',
        }),
      ),
    ).toMatchObject({
      smppAlphabet: 'gsm7-packed',
      smppSystemType: 'VMA',
      smppAddressRange: '^298[0-9]{6}$',
    });
    expect(loadConfig(smpp({ ...url, SMPP_ALPHABET: 'latin1' })).smppAlphabet).toBe('latin1');
    expect(() => loadConfig(smpp({ ...url, SMPP_ALPHABET: 'ascii' }))).toThrow(/SMPP_ALPHABET/);
    expect(() => loadConfig(smpp({ ...url, SMPP_SYSTEM_TYPE: 'x'.repeat(13) }))).toThrow(
      /SMPP_SYSTEM_TYPE must be at most 12 printable ASCII characters/,
    );
    expect(() => loadConfig(smpp({ ...url, SMPP_ADDRESS_RANGE: 'x'.repeat(41) }))).toThrow(
      /SMPP_ADDRESS_RANGE must be at most 40 printable ASCII characters/,
    );
  });
});
