/*
 * How a text travels as SMS (3GPP TS 23.038 "GSM 03.38", TS 23.040 concatenation): in the GSM
 * 7-bit default alphabet when every character is in it, else in UCS-2. Faroese needs UCS-2 for
 * á, í, ó, ú, ý and ð, which the GSM alphabet lacks (æ, ø and å it has); sending those in GSM-7
 * would turn them into other letters or spaces on the phone (docs/decisions/0084-sms-smpp.md).
 *
 * A GSM-7 text goes with SMPP data_coding 0, "the SMSC's default alphabet", which SMSCs read
 * differently: GSM 03.38 one septet an octet, GSM 03.38 packed (8 septets in 7 octets), or
 * ISO-8859-1. {@link SmppAlphabet} (SMPP_ALPHABET) says which; a text the alphabet cannot carry
 * exactly goes in UCS-2.
 *
 * Pure functions: the SMPP adapter builds its submit_sm PDUs from them, and tests check every
 * product text's encoding and number of parts through them.
 */

/** The basic character set, indexed by septet value. 0x1B is the escape to the extension table. */
const BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞ\u001bÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?' +
  '¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';

const ESCAPE = 0x1b;

/** The basic set's character → septet. The escape slot is no character of a text. */
const BASIC_CODE = new Map(
  [...BASIC].flatMap((char, code) => (code === ESCAPE ? [] : [[char, code] as const])),
);

/** The extension table: ESC + septet. Each costs two septets. */
const EXTENSION_CODE = new Map<string, number>([
  ['\f', 0x0a],
  ['^', 0x14],
  ['{', 0x28],
  ['}', 0x29],
  ['\\', 0x2f],
  ['[', 0x3c],
  ['~', 0x3d],
  [']', 0x3e],
  ['|', 0x40],
  ['€', 0x65],
]);

export type SmsEncoding = 'gsm7' | 'ucs2';

/**
 * What the SMSC takes data_coding 0 to be (SMPP_ALPHABET): GSM 03.38 one septet an octet
 * (`gsm7`), GSM 03.38 packed as on the air interface (`gsm7-packed`), or ISO-8859-1
 * (`latin1`). The SMSC turns it into GSM 7-bit for the phone, so the characters are GSM 03.38's
 * in every case; with `latin1` only those Latin-1 also has (not €, not the Greek capitals).
 */
export type SmppAlphabet = 'gsm7' | 'gsm7-packed' | 'latin1';

/** SMPP 3.4 `data_coding`: 0 = the SMSC's default alphabet (GSM-7), 8 = UCS-2. */
export const DATA_CODING: Record<SmsEncoding, 0 | 8> = { gsm7: 0, ucs2: 8 };

/** Characters (GSM-7: septets; UCS-2: UTF-16 code units) of one SMS without a UDH. */
export const SINGLE_LIMIT: Record<SmsEncoding, number> = { gsm7: 160, ucs2: 70 };
/** Per part of a long SMS: the 6-octet concatenation UDH takes 7 septets or 3 UCS-2 characters. */
export const PART_LIMIT: Record<SmsEncoding, number> = { gsm7: 153, ucs2: 67 };

/** The 8-bit reference concatenation UDH holds the part count in one octet. */
export const MAX_PARTS = 255;

/** SMPP esm_class bit: short_message starts with a user data header. */
export const ESM_CLASS_UDHI = 0x40;

/** Septets a character takes in GSM-7 (1 basic, 2 extension), or undefined when it has none. */
function septetsOf(char: string): number | undefined {
  if (BASIC_CODE.has(char)) return 1;
  if (EXTENSION_CODE.has(char)) return 2;
  return undefined;
}

/** Whether every character of `text` is in the GSM 03.38 basic set or its extension table. */
export function isGsm7(text: string): boolean {
  for (const char of text) if (septetsOf(char) === undefined) return false;
  return true;
}

/** Whether every character of `text` is in ISO-8859-1. */
export function isLatin1(text: string): boolean {
  for (const char of text) if ((char.codePointAt(0) ?? 0) > 0xff) return false;
  return true;
}

/**
 * The encoding a text goes in: GSM-7 (data_coding 0) when the SMSC's default alphabet carries
 * every character of it, else UCS-2.
 */
export function encodingOf(text: string, alphabet: SmppAlphabet = 'gsm7'): SmsEncoding {
  return isGsm7(text) && (alphabet !== 'latin1' || isLatin1(text)) ? 'gsm7' : 'ucs2';
}

export interface SmsSplit {
  encoding: SmsEncoding;
  dataCoding: 0 | 8;
  /** The text of each part, in order; one part when it fits a single SMS. */
  parts: string[];
}

/**
 * Splits a text into the parts it is sent in. GSM-7: 160 septets in one SMS, else 153 a part,
 * an extension character (2 septets) never cut in two (also with `latin1`: the SMSC sends it on
 * in GSM 7-bit). UCS-2: 70 code units in one SMS, else 67 a part, a surrogate pair (a character
 * outside the BMP) never cut in two.
 */
export function splitSms(text: string, alphabet: SmppAlphabet = 'gsm7'): SmsSplit {
  const encoding = encodingOf(text, alphabet);
  const sizeOf =
    encoding === 'gsm7' ? (char: string) => septetsOf(char) ?? 1 : (char: string) => char.length;
  const chars = [...text];
  const total = chars.reduce((sum, char) => sum + sizeOf(char), 0);
  if (total <= SINGLE_LIMIT[encoding]) {
    return { encoding, dataCoding: DATA_CODING[encoding], parts: [text] };
  }
  const limit = PART_LIMIT[encoding];
  const parts: string[] = [];
  let current = '';
  let size = 0;
  for (const char of chars) {
    const cost = sizeOf(char);
    if (size + cost > limit) {
      parts.push(current);
      current = '';
      size = 0;
    }
    current += char;
    size += cost;
  }
  parts.push(current);
  if (parts.length > MAX_PARTS) {
    throw new RangeError(`an SMS of ${parts.length} parts is longer than ${MAX_PARTS} parts`);
  }
  return { encoding, dataCoding: DATA_CODING[encoding], parts };
}

/** GSM-7 as SMPP carries it with data_coding 0: one octet per septet (unpacked). */
export function encodeGsm7(text: string): Buffer {
  const octets: number[] = [];
  for (const char of text) {
    const basic = BASIC_CODE.get(char);
    if (basic !== undefined) {
      octets.push(basic);
      continue;
    }
    const extension = EXTENSION_CODE.get(char);
    if (extension === undefined) throw new RangeError(`no GSM-7 character for U+${hex(char)}`);
    octets.push(ESCAPE, extension);
  }
  return Buffer.from(octets);
}

const CR = 0x0d;

/**
 * GSM-7 packed (TS 23.038 §6.1.2.1.1): septets one after another, least significant bit first,
 * 8 in 7 octets, behind `fillBits` zero bits (after a UDH, to the next septet boundary; TS
 * 23.040 §9.2.3.24). Where 7 bits of the last octet would be left over, which a reader of
 * octets could take for an `@`, a CR fills them (§6.1.2.3.1), and a text ending in CR on an
 * octet boundary gets a second CR.
 */
export function encodeGsm7Packed(text: string, fillBits = 0): Buffer {
  const septets = [...encodeGsm7(text)];
  const spare = (8 - ((fillBits + septets.length * 7) % 8)) % 8;
  if (spare === 7 || (spare === 0 && septets.at(-1) === CR)) septets.push(CR);
  const octets = Buffer.alloc(Math.ceil((fillBits + septets.length * 7) / 8));
  let bit = fillBits;
  for (const septet of septets) {
    const at = bit >> 3;
    const shift = bit & 7;
    octets[at] = (octets[at] ?? 0) | ((septet << shift) & 0xff);
    if (shift > 1) octets[at + 1] = (octets[at + 1] ?? 0) | (septet >> (8 - shift));
    bit += 7;
  }
  return octets;
}

/** ISO-8859-1, one octet a character, for an SMSC whose default alphabet it is. */
export function encodeLatin1(text: string): Buffer {
  if (!isLatin1(text)) throw new RangeError('text outside ISO-8859-1');
  return Buffer.from(text, 'latin1');
}

/** UCS-2 as SMPP carries it with data_coding 8: UTF-16 big-endian. */
export function encodeUcs2(text: string): Buffer {
  return Buffer.from(text, 'utf16le').swap16();
}

function hex(char: string): string {
  return (char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0');
}

/** The concatenation UDH of TS 23.040 §9.2.3.24.1 (IEI 00, 8-bit reference): 05 00 03 ref total seq. */
export function concatenationUdh(ref: number, total: number, seq: number): Buffer {
  return Buffer.from([0x05, 0x00, 0x03, ref & 0xff, total, seq]);
}

export interface SmsPdus {
  encoding: SmsEncoding;
  dataCoding: 0 | 8;
  /** 0, or {@link ESM_CLASS_UDHI} when the parts carry a concatenation UDH. */
  esmClass: number;
  /** The `short_message` of each submit_sm, in order. */
  shortMessages: Buffer[];
}

/** Zero bits after a UDH of `octets` octets, up to the next septet boundary (packed GSM-7). */
const fillBitsAfter = (octets: number) => (7 - ((octets * 8) % 7)) % 7;

/**
 * The short_message octets of each submit_sm of a text: the encoded part, behind a
 * concatenation UDH (`ref` is the message's reference, the same for all its parts) when there
 * is more than one part. A GSM-7 text is in the SMSC's default alphabet (`alphabet`).
 */
export function smsPdus(text: string, ref: number, alphabet: SmppAlphabet = 'gsm7'): SmsPdus {
  const split = splitSms(text, alphabet);
  const total = split.parts.length;
  const udhOf = (i: number) => concatenationUdh(ref, total, i + 1);
  const encode = (part: string, udh: Buffer | null): Buffer => {
    if (split.encoding === 'ucs2') return encodeUcs2(part);
    if (alphabet === 'latin1') return encodeLatin1(part);
    if (alphabet === 'gsm7-packed')
      return encodeGsm7Packed(part, udh ? fillBitsAfter(udh.length) : 0);
    return encodeGsm7(part);
  };
  const shortMessages = split.parts.map((part, i) => {
    if (total === 1) return encode(part, null);
    const udh = udhOf(i);
    return Buffer.concat([udh, encode(part, udh)]);
  });
  return {
    encoding: split.encoding,
    dataCoding: split.dataCoding,
    esmClass: total === 1 ? 0 : ESM_CLASS_UDHI,
    shortMessages,
  };
}
