import { describe, expect, it } from 'vitest';
import smpp from 'smpp';
import {
  ESM_CLASS_UDHI,
  concatenationUdh,
  encodeGsm7,
  encodeGsm7Packed,
  encodeLatin1,
  encodeUcs2,
  encodingOf,
  isGsm7,
  smsPdus,
  splitSms,
} from './gsm7';

/** Septets of a GSM-7 text as the SMSC counts them: the encoded octets (ESC + code for extensions). */
const septets = (text: string) => encodeGsm7(text).length;

describe('GSM 03.38 or UCS-2 (issue 43 "Faroese needs UCS-2")', () => {
  it('keeps æ, ø, å and their capitals in GSM-7, and sends á, í, ó, ú, ý, ð in UCS-2', () => {
    expect(isGsm7('æøåÆØÅ')).toBe(true);
    for (const letter of ['á', 'í', 'ó', 'ú', 'ý', 'ð', 'Á', 'Í', 'Ó', 'Ú', 'Ý', 'Ð']) {
      expect(isGsm7(`Alda ${letter}`), letter).toBe(false);
      expect(encodingOf(`Alda ${letter}`), letter).toBe('ucs2');
    }
    expect(encodingOf('Kotan hjá tær til Alda er 123456.')).toBe('ucs2');
    expect(encodingOf('Alda: nýtt SIM er bílagt')).toBe('ucs2');
    expect(encodingOf('Your Alda code is 123456. Never share it with anyone.')).toBe('gsm7');
    // The extension table is GSM-7 too; the escape character itself is no text.
    expect(isGsm7('{[~]}|^\\€\f')).toBe(true);
    expect(isGsm7('\u001b')).toBe(false);
  });

  it('encodes GSM-7 one octet per septet, as the smpp library (an independent decoder) reads it', () => {
    const text = 'Hey Ærna! Øll 5 € ella £, {ja} [nei] ~ | ^ \\ @ å ø æ Å Ø Æ ß É Ñ ü à\n\r§¿¡';
    const octets = encodeGsm7(text);
    expect(octets.every((o) => o < 0x80)).toBe(true);
    expect(smpp.gsmCoder.decode(octets)).toBe(text);
    // Each extension character costs an escape and its code.
    expect(septets('€')).toBe(2);
    expect([...encodeGsm7('€')]).toEqual([0x1b, 0x65]);
    expect([...encodeGsm7('@æø')]).toEqual([0x00, 0x1d, 0x0c]);
  });

  it('encodes UCS-2 as UTF-16 big-endian', () => {
    expect([...encodeUcs2('ð')]).toEqual([0x00, 0xf0]);
    expect(Buffer.from(encodeUcs2('Kotan hjá tær')).swap16().toString('utf16le')).toBe(
      'Kotan hjá tær',
    );
  });
});

describe('splitting into parts (issue 43: 153 a part in GSM-7, 67 in UCS-2)', () => {
  it('sends up to 160 GSM-7 septets as one SMS, and 153 a part beyond', () => {
    expect(splitSms('a'.repeat(160)).parts).toEqual(['a'.repeat(160)]);
    const long = splitSms('æ'.repeat(161));
    expect(long).toMatchObject({ encoding: 'gsm7', dataCoding: 0 });
    expect(long.parts.map((p) => p.length)).toEqual([153, 8]);
    expect(splitSms('b'.repeat(153 * 3)).parts).toHaveLength(3);
    expect(splitSms('b'.repeat(153 * 3 + 1)).parts).toHaveLength(4);
  });

  it('counts an extension character as two septets and never cuts it in two', () => {
    expect(splitSms('€'.repeat(80)).parts).toHaveLength(1);
    const split = splitSms('€'.repeat(81));
    expect(split.parts.map((p) => septets(p))).toEqual([152, 10]);
    const odd = splitSms(`${'a'.repeat(152)}€${'a'.repeat(10)}`);
    expect(odd.parts[0]).toBe('a'.repeat(152));
    expect(odd.parts[1]?.startsWith('€')).toBe(true);
    for (const part of odd.parts) expect(septets(part)).toBeLessThanOrEqual(153);
  });

  it('sends up to 70 UCS-2 characters as one SMS, and 67 a part beyond', () => {
    expect(splitSms('ð'.repeat(70)).parts).toHaveLength(1);
    const long = splitSms('ð'.repeat(71));
    expect(long).toMatchObject({ encoding: 'ucs2', dataCoding: 8 });
    expect(long.parts.map((p) => p.length)).toEqual([67, 4]);
    expect(splitSms('ó'.repeat(67 * 2)).parts).toHaveLength(2);
    expect(splitSms('ó'.repeat(67 * 2 + 1)).parts).toHaveLength(3);
  });

  it('never cuts a surrogate pair (a character outside the BMP) in two', () => {
    const text = `${'ð'.repeat(66)}😀${'ð'.repeat(10)}`;
    const { parts } = splitSms(text);
    expect(parts[0]).toBe('ð'.repeat(66));
    expect(parts[1]?.startsWith('😀')).toBe(true);
    expect(parts.join('')).toBe(text);
    for (const part of parts) {
      expect(encodeUcs2(part).length).toBeLessThanOrEqual(134);
      // No lone surrogate at either end.
      expect(part).toMatch(/^(?![\uDC00-\uDFFF])[\s\S]*(?<![\uD800-\uDBFF])$/);
    }
  });

  it('gives the parts back in order, so they make the text again', () => {
    const text = `Kotan hjá tær er 123456. ${'Hetta er eitt langt boð við ð og á. '.repeat(8)}`;
    expect(splitSms(text).parts.join('')).toBe(text);
  });
});

describe('the PDUs of a text (issue 43: UDH 05 00 03)', () => {
  it('sends a single SMS without a UDH', () => {
    const pdus = smsPdus('Kotan hjá tær er 123456.', 7);
    expect(pdus).toMatchObject({ encoding: 'ucs2', dataCoding: 8, esmClass: 0 });
    expect(pdus.shortMessages).toHaveLength(1);
    expect(pdus.shortMessages[0]).toEqual(encodeUcs2('Kotan hjá tær er 123456.'));
  });

  it('puts the concatenation UDH (reference, total, sequence) before each part of a long one', () => {
    const text = 'ð'.repeat(150);
    const pdus = smsPdus(text, 0x1a2);
    expect(pdus.esmClass).toBe(ESM_CLASS_UDHI);
    expect(pdus.shortMessages).toHaveLength(3);
    pdus.shortMessages.forEach((octets, i) => {
      expect([...octets.subarray(0, 6)]).toEqual([0x05, 0x00, 0x03, 0xa2, 3, i + 1]);
      expect(octets.length).toBeLessThanOrEqual(140);
    });
    expect(concatenationUdh(300, 2, 1)).toEqual(Buffer.from([5, 0, 3, 44, 2, 1]));
    const gsm = smsPdus('æ'.repeat(200), 9);
    expect(gsm).toMatchObject({ encoding: 'gsm7', dataCoding: 0, esmClass: ESM_CLASS_UDHI });
    expect(gsm.shortMessages.map((o) => o.length)).toEqual([6 + 153, 6 + 47]);
  });
});

/** Packed septets back (TS 23.038 §6.1.2.1.1), every septet the octets hold, padding included. */
function unpack(octets: Buffer, fillBits = 0): number[] {
  const septets: number[] = [];
  for (let bit = fillBits; bit + 7 <= octets.length * 8; bit += 7) {
    const pair = (octets[bit >> 3] ?? 0) | ((octets[(bit >> 3) + 1] ?? 0) << 8);
    septets.push((pair >> (bit & 7)) & 0x7f);
  }
  return septets;
}

describe("the SMSC's default alphabet for data_coding 0 (issue 61 §5)", () => {
  it('packs GSM-7 eight septets into seven octets, least significant bit first (TS 23.038 §6.1.2.1.1)', () => {
    // The textbook example: "hellohello" is E8 32 9B FD 46 97 D9 EC 37.
    expect(encodeGsm7Packed('hellohello').toString('hex')).toBe('e8329bfd4697d9ec37');
    const text = 'Hey Ærna! 5 € ella £, {ja} @ ü';
    expect(smpp.gsmCoder.decode(Buffer.from(unpack(encodeGsm7Packed(text))))).toBe(text);
    expect(encodeGsm7Packed('a'.repeat(160))).toHaveLength(140);
  });

  it('fills 7 spare bits with a CR, not an @ a reader of octets would see (§6.1.2.3.1)', () => {
    // 7 septets are 49 bits: 7 octets, whose last 7 bits would read as an eighth septet.
    const seven = encodeGsm7Packed('1234567');
    expect(seven).toHaveLength(7);
    expect(unpack(seven).at(-1)).toBe(0x0d);
    // A text that ends in a CR on an octet boundary gets a second one.
    expect(unpack(encodeGsm7Packed('123456\r')).slice(-2)).toEqual([0x0d, 0x0d]);
    expect(unpack(encodeGsm7Packed('12345678'))).toHaveLength(8); // 7 octets exactly, no CR
  });

  it('starts the septets of a part behind its 6-octet UDH at the next septet boundary (one fill bit)', () => {
    const pdus = smsPdus('æ'.repeat(200), 9, 'gsm7-packed');
    expect(pdus).toMatchObject({ encoding: 'gsm7', dataCoding: 0, esmClass: ESM_CLASS_UDHI });
    // 6 + ⌈(1 + 153 × 7) / 8⌉ = 140 octets: a full SMS.
    expect(pdus.shortMessages.map((o) => o.length)).toEqual([140, 6 + Math.ceil((1 + 47 * 7) / 8)]);
    for (const octets of pdus.shortMessages) {
      expect([...octets.subarray(0, 3)]).toEqual([0x05, 0x00, 0x03]);
      expect(smpp.gsmCoder.decode(Buffer.from(unpack(octets.subarray(6), 1)))).toMatch(/^æ+$/);
    }
  });

  it('sends Latin-1 one octet a character, and what Latin-1 lacks (€, Greek capitals) or GSM lacks (Faroese) in UCS-2', () => {
    const text = 'Alda: @ £ ü { ß Ærna';
    expect(encodingOf(text, 'latin1')).toBe('gsm7');
    expect(smsPdus(text, 1, 'latin1').shortMessages[0]).toEqual(Buffer.from(text, 'latin1'));
    expect(encodeLatin1('£ü')).toEqual(Buffer.from([0xa3, 0xfc]));
    for (const other of ['5 €', 'Δ', 'Kotan hjá tær'])
      expect(encodingOf(other, 'latin1'), other).toBe('ucs2');
    expect(encodingOf('5 €', 'gsm7-packed')).toBe('gsm7');
    // Splitting counts the septets the SMSC sends on the air, as for GSM-7.
    expect(splitSms('{'.repeat(80), 'latin1').parts).toHaveLength(1);
    expect(splitSms('{'.repeat(81), 'latin1').parts).toHaveLength(2);
  });
});
