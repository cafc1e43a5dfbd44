/*
 * How a text travels as SMS (3GPP TS 23.038 "GSM 03.38", TS 23.040 concatenation): in the GSM
 * 7-bit default alphabet when every character is in it, else in UCS-2. Faroese needs UCS-2 for
 * á, í, ó, ú, ý and ð, which the GSM alphabet lacks (æ, ø and å it has); sending those in GSM-7
 * would turn them into other letters or spaces on the phone (docs/decisions/0084-sms-smpp.md).
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

/** The encoding a text goes in: GSM-7 when it can, else UCS-2. */
export function encodingOf(text: string): SmsEncoding {
  return isGsm7(text) ? 'gsm7' : 'ucs2';
}

export interface SmsSplit {
  encoding: SmsEncoding;
  dataCoding: 0 | 8;
  /** The text of each part, in order; one part when it fits a single SMS. */
  parts: string[];
}

/**
 * Splits a text into the parts it is sent in. GSM-7: 160 septets in one SMS, else 153 a part,
 * an extension character (2 septets) never cut in two. UCS-2: 70 code units in one SMS, else 67
 * a part, a surrogate pair (a character outside the BMP) never cut in two.
 */
export function splitSms(text: string): SmsSplit {
  const encoding = encodingOf(text);
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

/**
 * The short_message octets of each submit_sm of a text: the encoded part, behind a
 * concatenation UDH (`ref` is the message's reference, the same for all its parts) when there
 * is more than one part.
 */
export function smsPdus(text: string, ref: number): SmsPdus {
  const split = splitSms(text);
  const encode = split.encoding === 'gsm7' ? encodeGsm7 : encodeUcs2;
  const total = split.parts.length;
  const shortMessages = split.parts.map((part, i) =>
    total === 1 ? encode(part) : Buffer.concat([concatenationUdh(ref, total, i + 1), encode(part)]),
  );
  return {
    encoding: split.encoding,
    dataCoding: split.dataCoding,
    esmClass: total === 1 ? 0 : ESM_CLASS_UDHI,
    shortMessages,
  };
}
