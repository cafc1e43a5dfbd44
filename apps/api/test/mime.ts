/*
 * Just enough MIME to read what nodemailer sends (RFC 2045–2047): headers with folding and
 * encoded words, multipart bodies, quoted-printable and base64 parts. Tests use it to read the
 * e-mail an SMTP listener received, as a mail client would.
 */

export interface MimePart {
  headers: Map<string, string>;
  /** Decoded text of a leaf part; '' for a multipart. */
  body: string;
  parts: MimePart[];
}

/** `=?UTF-8?Q?...?=` and `=?UTF-8?B?...?=` words of a header value, decoded. */
export function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(
      /=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g,
      (_all, _charset: string, kind: string, text: string) => {
        if (kind.toUpperCase() === 'B') return Buffer.from(text, 'base64').toString('utf8');
        const bytes = text
          .replace(/_/g, ' ')
          .replace(/=([0-9A-Fa-f]{2})/g, (_m, hex: string) =>
            String.fromCharCode(parseInt(hex, 16)),
          );
        return Buffer.from(bytes, 'latin1').toString('utf8');
      },
    );
}

function decodeQuotedPrintable(text: string): string {
  const bytes = text
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-Fa-f]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

function parseHeaders(block: string): Map<string, string> {
  const headers = new Map<string, string>();
  for (const line of block.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0)
      headers.set(
        line.slice(0, colon).trim().toLowerCase(),
        decodeWords(line.slice(colon + 1).trim()),
      );
  }
  return headers;
}

/** A header's parameter, e.g. `boundary` of Content-Type. */
export function headerParam(value: string | undefined, name: string): string | undefined {
  const match = new RegExp(`${name}="?([^";]+)"?`, 'i').exec(value ?? '');
  return match?.[1];
}

export function parseMime(raw: string): MimePart {
  const split = /\r?\n\r?\n/.exec(raw);
  const headerBlock = split ? raw.slice(0, split.index) : raw;
  const content = split ? raw.slice(split.index + split[0].length) : '';
  const headers = parseHeaders(headerBlock);
  const type = headers.get('content-type') ?? 'text/plain';
  if (type.toLowerCase().startsWith('multipart/')) {
    const boundary = headerParam(type, 'boundary');
    if (!boundary) throw new Error('multipart without boundary');
    const sections = content.split(`--${boundary}`).slice(1);
    const parts = sections
      .filter((section) => !section.startsWith('--'))
      .map((section) => parseMime(section.replace(/^\r?\n/, '').replace(/\r?\n$/, '')));
    return { headers, body: '', parts };
  }
  const encoding = (headers.get('content-transfer-encoding') ?? '7bit').toLowerCase();
  const body =
    encoding === 'base64'
      ? Buffer.from(content.replace(/\s+/g, ''), 'base64').toString('utf8')
      : encoding === 'quoted-printable'
        ? decodeQuotedPrintable(content)
        : content;
  return { headers, body, parts: [] };
}

/** The first leaf part with this content type, depth first. */
export function findPart(part: MimePart, contentType: string): MimePart | undefined {
  if ((part.headers.get('content-type') ?? '').toLowerCase().startsWith(contentType)) {
    if (part.parts.length === 0) return part;
  }
  for (const child of part.parts) {
    const found = findPart(child, contentType);
    if (found) return found;
  }
  return undefined;
}
